/**
 * Derived forms of a text field's distinct values (a few thousand strings, not 250,000 records): what the
 * text conditions compare against. Each is computed when first needed (the folded values at a bind from the
 * records, for the UTF-8 form that is kept; the rest by the first request that needs them) and kept for the
 * database's lifetime.
 */
import type { ColumnStore, TextField } from '../columns/store.ts';
import { Lazy, Memo } from '../memo.ts';
import { fold, listElements, sinCodes } from '../text.ts';

/**
 * A field's folded values as UTF-8, NUL between them, and the byte where each starts (one more entry: one past
 * the end): what the markContaining kernel searches for keyword and suggest-contains. Computed from the folded
 * values once per database and kept with the prepared columns, so a kept bind folds nothing.
 */
export interface FoldedText {
  bytes: Uint8Array;
  starts: Uint32Array;
}

const UTF8 = new TextEncoder();

export function foldedText(values: readonly string[]): FoldedText {
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

  /**
   * Lower-cased values (null as ''). Folded as one text (one join, one toLowerCase) and split again rather than
   * value by value, which gives the same values: NUL is neither cased nor case-ignorable, so it bounds the
   * context-dependent mappings (final sigma) as a string's ends do. One native call per field instead of a
   * callback per value.
   */
  readonly folded = new Memo((field: TextField): string[] => {
    const stored = this.store.text[field].values;
    if (stored.length === 0) return [];
    // join writes null as ''; fold is toLowerCase, here applied once to the whole text.
    const values = fold(stored.join('\u0000')).split('\u0000');
    // More pieces than values: a value holds NUL itself, so it is folded value by value.
    return values.length === stored.length ? values : stored.map((v) => (v === null ? '' : fold(v)));
  });

  /** Each SIN value's codes. */
  readonly sinSets = new Lazy((): Set<string>[] => this.store.text.sin.values.map((v) => new Set(v === null ? [] : sinCodes(v))));

  /** Each category or subcategory value's list elements. */
  readonly listSets = new Memo((field: 'category' | 'subcategory'): Set<string>[] =>
    this.store.text[field].values.map((v) => new Set(v === null ? [] : listElements(v))),
  );
}
