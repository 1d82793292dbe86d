/**
 * Derived forms of a text field's distinct values (a few thousand strings, not 250,000 records): what the
 * text conditions compare against. Each is computed when first needed (the folded values at a bind from the
 * records, for the UTF-8 form that is prepared; the rest by the first request that needs them) and cached for the
 * database's lifetime.
 */
import type { Dictionary } from '../columns/dictionary.ts';
import type { TextField } from '../columns/store.ts';
import { ceilingRatesParameter, SEARCH_FIELDS, type SearchField } from '../parameters.ts';
import { roomFor, type KernelMemory } from '../kernels/kernels.ts';
import { Lazy, Memo } from '../memo.ts';
import { fold, listElements, sinCodes } from '../text.ts';

/** The text fields whose values a plan tests (query/match-plan.ts): the search fields and the filtered ones. */
export const PLANNED_FIELDS = [
  ...SEARCH_FIELDS,
  'sin',
  'category',
  'subcategory',
  'education_level',
  'business_size',
  'worksite',
  'security_clearance',
] as const satisfies readonly TextField[];
export type PlannedField = (typeof PLANNED_FIELDS)[number];

/** Each planned field's distinct values by code: what the forms are derived from. */
export interface PlannedValues {
  text: Record<PlannedField, Pick<Dictionary, 'values'>>;
}

/**
 * A field's folded values as UTF-8, NUL between them, and the byte where each starts (one more entry: one past
 * the end): what the markContaining kernel searches for keyword and suggest-contains. Computed from the folded
 * values once per database and packed with the prepared columns, so a prepared bind folds nothing.
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
  constructor(readonly store: PlannedValues) {}

  /**
   * Lower-cased values (null as ''). Folded as one text (one join, one toLowerCase) and split again rather than
   * value by value, which gives the same values: NUL is neither cased nor case-ignorable, so it bounds the
   * context-dependent mappings (final sigma) as a string's ends do. One native call per field instead of a
   * callback per value.
   */
  readonly folded = new Memo((field: PlannedField): string[] => {
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

/**
 * The most UTF-8 bytes a folded keyword or suggest-contains text takes: lower-casing at most doubles a text's
 * UTF-16 length (U+0130 becomes two units) and a unit takes at most three bytes.
 */
const NEEDLE_BYTES = 6 * Math.max(ceilingRatesParameter('keyword').maxLength ?? 0, ceilingRatesParameter('suggest-contains').maxLength ?? 0);

/**
 * keyword and suggest-contains: which values of a search field contain a (trimmed, case-folded) text, by the
 * markContaining kernel over the field's folded text held in kernel memory, with room for the folded needle,
 * its search table and the values' marks.
 */
export class ContainsSearch {
  private readonly texts: Record<SearchField, FoldedText>;
  private readonly needle: Uint8Array;
  private readonly fail: Uint32Array;
  private readonly allowed: Uint8Array;

  /** The kernel memory a ContainsSearch over these folded texts takes. */
  static room(texts: Record<SearchField, FoldedText>): number {
    const largest = Math.max(...SEARCH_FIELDS.map((field) => texts[field].starts.length - 1));
    return roomFor(...SEARCH_FIELDS.flatMap((field) => [texts[field].bytes, texts[field].starts]), [1, NEEDLE_BYTES], [4, NEEDLE_BYTES], [1, largest]);
  }

  constructor(
    private readonly kernels: KernelMemory,
    private readonly forms: ValueForms,
    texts: Record<SearchField, FoldedText>,
  ) {
    const held = <T>(make: (field: SearchField) => T) => Object.fromEntries(SEARCH_FIELDS.map((field) => [field, make(field)])) as Record<SearchField, T>;
    this.texts = held((field) => ({ bytes: kernels.hold(texts[field].bytes), starts: kernels.hold(texts[field].starts) }));
    this.needle = kernels.alloc(Uint8Array, NEEDLE_BYTES);
    this.fail = kernels.alloc(Uint32Array, NEEDLE_BYTES);
    this.allowed = kernels.alloc(Uint8Array, Math.max(...SEARCH_FIELDS.map((field) => texts[field].starts.length - 1)));
  }

  /** The folded texts as held in kernel memory (packed with the prepared columns). */
  held(): Record<SearchField, FoldedText> {
    return this.texts;
  }

  /** Per code of `field`, 1 when its folded value contains the text, else 0 (a copy of its own). */
  codes(field: SearchField, text: string): Uint8Array {
    const needle = fold(text.trim());
    if (needle.includes('\u0000')) {
      // A NUL in the needle could span two values of the joined text: each value is tested on its own.
      const folded = this.forms.folded.get(field);
      const allowed = new Uint8Array(folded.length);
      for (let code = 0; code < folded.length; code++) allowed[code] = folded[code].includes(needle) ? 1 : 0;
      return allowed;
    }
    const { kernels, needle: room, fail, texts } = this;
    const { read, written } = UTF8.encodeInto(needle, room);
    if (read < needle.length) throw new RangeError(`a folded text of ${needle.length} units is beyond the needle's room`);
    const { bytes, starts } = texts[field];
    const n = starts.length - 1;
    const allowed = this.allowed.subarray(0, n).fill(0);
    kernels.run.markContaining(kernels.at(bytes), bytes.length, kernels.at(starts), n, kernels.at(room), written, kernels.at(fail), kernels.at(allowed));
    return allowed.slice();
  }
}
