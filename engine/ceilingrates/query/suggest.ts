/**
 * suggest-contains (distinct values containing a text, with the other conditions applied) and suggest
 * (up to five distinct values beginning with a text, alphabetical, over the whole dataset, as a
 * completion suggester does).
 */
import type { ColumnStore, TextField } from '../columns/store.ts';
import type { FieldText } from '../parse-query.ts';
import type { ValueForms } from './value-forms.ts';
import type { TermsAggregation, TopTerms } from './terms.ts';
import { Memo } from '../memo.ts';
import { fold } from '../text.ts';

export const SUGGEST_CONTAINS_SIZE = 100;
export const SUGGEST_SIZE = 5;

export function containsAggregation(topTerms: TopTerms, store: ColumnStore, field: TextField, rows: Uint32Array): Record<string, TermsAggregation> {
  return { [field]: topTerms.count(store.text[field], rows, SUGGEST_CONTAINS_SIZE) };
}

export interface SuggestOption {
  text: string;
  _index: 'ceilingrates';
  _id: string;
  _score: number;
  _source: Record<string, never>;
}

export interface SuggestEntry {
  text: string;
  offset: number;
  length: number;
  options: SuggestOption[];
}

/** First row (lowest id) carrying each distinct value of a field, computed once per field. */
export class FirstRows extends Memo<TextField, Int32Array> {
  constructor(store: ColumnStore) {
    super((field) => {
      const { codes, values } = store.text[field];
      const first = new Int32Array(values.length).fill(-1);
      for (let r = 0; r < store.size; r++) if (first[codes[r]] < 0) first[codes[r]] = r;
      return first;
    });
  }
}

/** What suggestions read: the columns, the folded values and each value's first row. */
export interface SuggestSources {
  store: ColumnStore;
  forms: ValueForms;
  firstRows: FirstRows;
}

export function suggestEntry({ store, forms, firstRows }: SuggestSources, spec: FieldText): SuggestEntry {
  const dict = store.text[spec.field];
  const folded = forms.folded.get(spec.field);
  const prefix = fold(spec.text.trim());
  const hits: number[] = [];
  for (let code = 0; code < folded.length; code++) if (dict.values[code] !== null && folded[code].startsWith(prefix)) hits.push(code);
  hits.sort((a, b) => dict.rank[a] - dict.rank[b]);
  const first = firstRows.get(spec.field);
  return suggestEntryOf(
    spec,
    hits.slice(0, SUGGEST_SIZE).map((code) => ({ text: dict.values[code]!, id: store.ids[first[code]] })),
  );
}

/**
 * The entry of one suggest parameter from its options: the distinct values beginning with the (trimmed,
 * case-folded) text, in byte order, at most SUGGEST_SIZE, each with the lowest id carrying it.
 */
export function suggestEntryOf(spec: FieldText, options: readonly { text: string; id: number }[]): SuggestEntry {
  return {
    text: spec.text,
    offset: 0,
    length: spec.text.length,
    options: options.map(({ text, id }) => ({ text, _index: 'ceilingrates', _id: String(id), _score: 1.0, _source: {} })),
  };
}

/** `{"<field>-suggestion": [entry, …]}`, one entry per suggest parameter, in request order. */
export function suggestBody(sources: SuggestSources, specs: readonly FieldText[]): Record<string, SuggestEntry[]> {
  return suggestBodyOf(
    specs,
    specs.map((spec) => suggestEntry(sources, spec)),
  );
}

/** The suggest body of each suggest parameter's entry (`entries[i]` answers `specs[i]`). */
export function suggestBodyOf(specs: readonly FieldText[], entries: readonly SuggestEntry[]): Record<string, SuggestEntry[]> {
  const body: Record<string, SuggestEntry[]> = {};
  specs.forEach((spec, i) => (body[`${spec.field}-suggestion`] ??= []).push(entries[i]));
  return body;
}

/**
 * The suggest body as JSON text: `_score` is production's double, `1.0` (JSON.stringify would write `1`). The
 * pattern cannot match inside a value: a quote in a suggested text is written escaped (`\"_score\":1,`).
 */
export function suggestJson(body: Record<string, SuggestEntry[]>): string {
  return JSON.stringify(body).replaceAll('"_score":1,', '"_score":1.0,');
}
