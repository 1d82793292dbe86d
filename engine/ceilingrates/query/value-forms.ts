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

/**
 * A field's folded values as UTF-8, NUL between them, and the byte where each starts (one more entry: one past
 * the end): what the markContaining kernel searches for keyword and suggest-contains. Computed from the joined
 * form once per database and kept with the prepared columns, so a kept bind folds nothing.
 */
export interface FoldedText {
  bytes: Uint8Array;
  starts: Uint32Array;
}

const UTF8 = new TextEncoder();

export function foldedText({ values }: JoinedValues): FoldedText {
  const encoded = values.map((v) => UTF8.encode(v));
  const starts = new Uint32Array(values.length + 1);
  let at = 0;
  for (let i = 0; i < encoded.length; i++) {
    starts[i] = at;
    at += encoded[i].length + 1;
  }
  starts[values.length] = at;
  const bytes = new Uint8Array(Math.max(0, at - 1));
  encoded.forEach((e, i) => bytes.set(e, starts[i]));
  return { bytes, starts };
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
    const stored = this.store.text[field].values;
    if (stored.length === 0) return { text: '', starts: new Float64Array(1), values: [] };
    // join writes null as ''; fold is toLowerCase, here applied once to the whole text.
    let text = fold(stored.join('\u0000'));
    let values = text.split('\u0000');
    // More pieces than values: a value holds NUL itself, so it is folded value by value.
    if (values.length !== stored.length) {
      values = stored.map((v) => (v === null ? '' : fold(v)));
      text = values.join('\u0000');
    }
    const starts = new Float64Array(values.length + 1);
    let at = 0;
    for (let i = 0; i < values.length; i++) {
      starts[i] = at;
      at += values[i].length + 1;
    }
    starts[values.length] = at;
    return { text, starts, values };
  });

  /** Each SIN value's codes. */
  readonly sinSets = new Lazy((): Set<string>[] => this.store.text.sin.values.map((v) => new Set(v === null ? [] : sinCodes(v))));

  /** Each category or subcategory value's list elements. */
  readonly listSets = new Memo((field: 'category' | 'subcategory'): Set<string>[] =>
    this.store.text[field].values.map((v) => new Set(v === null ? [] : listElements(v))),
  );
}
