/**
 * Derived forms of a text field's distinct values (a few thousand strings, not 250,000 records): what the
 * text conditions compare against. Each is computed on the first request that needs it and kept for the
 * database's lifetime.
 */
import type { ColumnStore, TextField } from '../columns/store.ts';
import { Lazy, Memo } from '../memo.ts';
import { fold, listElements, sinCodes } from '../text.ts';

/** A field's folded values joined with NUL, where each value starts (one more entry: the end), and the values. */
export interface JoinedValues {
  text: string;
  starts: Float64Array;
  values: string[];
}

export class ValueForms {
  constructor(readonly store: ColumnStore) {}

  /** Lower-cased values (null as ''). */
  readonly folded = new Memo((field: TextField): string[] => this.joined.get(field).values);

  /**
   * The lower-cased values joined with NUL, and where each starts: a substring search is then one native
   * indexOf scan over the text instead of one call per value. Folded whole (one join, one toLowerCase) rather
   * than value by value, which is the same text: NUL is neither cased nor case-ignorable, so it bounds the
   * context-dependent mappings (final sigma) as a string's ends do. The first keyword search after opening
   * pays this, in code not yet compiled: one native call per field instead of a callback per value.
   */
  readonly joined = new Memo((field: TextField): JoinedValues => {
    const { values } = this.store.text[field];
    const n = values.length;
    // join writes null as ''; fold is toLowerCase, here applied once to the whole text.
    const text = fold(values.join('\u0000'));
    const starts = new Float64Array(n + 1);
    if (n === 0) return { text, starts, values: [] };
    let at = 0;
    for (let i = 1; i < n; i++) starts[i] = at = text.indexOf('\u0000', at) + 1;
    starts[n] = text.length + 1;
    // n - 1 separators and no other NUL: the boundaries are the values'.
    if (n === 1 || text.indexOf('\u0000', at) < 0) return { text, starts, values: text.split('\u0000') };
    // A value holds NUL itself: fold value by value.
    const folded = values.map((v) => (v === null ? '' : fold(v)));
    let from = 0;
    folded.forEach((v, i) => {
      starts[i] = from;
      from += v.length + 1;
    });
    starts[n] = from;
    return { text: folded.join('\u0000'), starts, values: folded };
  });

  /** Each SIN value's codes. */
  readonly sinSets = new Lazy((): Set<string>[] => this.store.text.sin.values.map((v) => new Set(v === null ? [] : sinCodes(v))));

  /** Each category or subcategory value's list elements. */
  readonly listSets = new Memo((field: 'category' | 'subcategory'): Set<string>[] =>
    this.store.text[field].values.map((v) => new Set(v === null ? [] : listElements(v))),
  );
}
