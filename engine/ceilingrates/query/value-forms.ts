/**
 * Derived forms of a text field's distinct values (a few thousand strings, not 250,000 records): what the
 * text conditions compare against. Each is computed on the first request that needs it and kept for the
 * database's lifetime.
 */
import type { ColumnStore, TextField } from '../columns/store.ts';
import { Lazy, Memo } from '../memo.ts';
import { fold, listElements, sinCodes } from '../text.ts';

/** A field's folded values joined with NUL, and where each value starts (one more entry: the end). */
export interface JoinedValues {
  text: string;
  starts: Float64Array;
}

export class ValueForms {
  constructor(readonly store: ColumnStore) {}

  /** Lower-cased values (null as ''). */
  readonly folded = new Memo((field: TextField): string[] => this.store.text[field].values.map((v) => (v === null ? '' : fold(v))));

  /**
   * The lower-cased values joined with NUL, and where each starts: a substring search is then one native
   * indexOf scan over the text instead of one call per value.
   */
  readonly joined = new Memo((field: TextField): JoinedValues => {
    const values = this.folded.get(field);
    const starts = new Float64Array(values.length + 1);
    let at = 0;
    values.forEach((v, i) => {
      starts[i] = at;
      at += v.length + 1;
    });
    starts[values.length] = at;
    return { text: values.join('\u0000'), starts };
  });

  /** Each SIN value's codes. */
  readonly sinSets = new Lazy((): Set<string>[] => this.store.text.sin.values.map((v) => new Set(v === null ? [] : sinCodes(v))));

  /** Each category or subcategory value's list elements. */
  readonly listSets = new Memo((field: 'category' | 'subcategory'): Set<string>[] =>
    this.store.text[field].values.map((v) => new Set(v === null ? [] : listElements(v))),
  );
}
