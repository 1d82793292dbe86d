/**
 * suggest-contains (distinct values containing a text, with the other conditions applied) and suggest
 * (up to five distinct values beginning with a text, alphabetical, over the whole dataset, as a
 * completion suggester does).
 */
import type { ColumnStore } from '../columns/store.ts';
import type { FieldText, SearchField } from '../parse-query.ts';
import type { ValueForms } from './value-forms.ts';
import type { TermKeys, TermsAggregation, TopTerms } from './terms.ts';
import { Memo } from '../memo.ts';
import { fold } from '../text.ts';

export const SUGGEST_CONTAINS_SIZE = 100;
export const SUGGEST_SIZE = 5;

/** suggest-contains' buckets: the top values of `field` among the matches, from each match's code of it (`codes[rows[i]]`, or `codes[i]`). */
export function containsAggregation(
  { topTerms, dicts }: { topTerms: TopTerms; dicts: { text: Record<SearchField, TermKeys> } },
  field: SearchField,
  codes: ArrayLike<number>,
  rows?: ArrayLike<number>,
): TermsAggregation {
  return topTerms.count(dicts.text[field], codes, SUGGEST_CONTAINS_SIZE, rows);
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

/** The lowest id carrying each distinct value of a search field (-1 for none), computed once per field. */
export class FirstIds extends Memo<SearchField, Float64Array> {
  constructor(store: ColumnStore) {
    super((field) => {
      const { codes, values } = store.text[field];
      const first = new Float64Array(values.length).fill(-1);
      // Rows are in id order: a value's first row holds its lowest id.
      for (let r = store.size - 1; r >= 0; r--) first[codes[r]] = store.ids[r];
      return first;
    });
  }
}

/** What suggestions read: the search fields' values, their folded forms and each value's lowest id. */
export interface SuggestSources {
  dicts: { text: Record<SearchField, TermKeys> };
  forms: ValueForms;
  firstIds(field: SearchField): ArrayLike<number>;
}

/**
 * The entry of one suggest parameter: the distinct values beginning with the (trimmed, case-folded) text, in
 * byte order, at most SUGGEST_SIZE, each with the lowest id carrying it.
 */
function suggestEntry({ dicts, forms, firstIds }: SuggestSources, spec: FieldText): SuggestEntry {
  const dict = dicts.text[spec.field];
  const folded = forms.folded.get(spec.field);
  const prefix = fold(spec.text.trim());
  const hits: number[] = [];
  for (let code = 0; code < folded.length; code++) if (dict.values[code] !== null && folded[code].startsWith(prefix)) hits.push(code);
  hits.sort((a, b) => dict.rank[a] - dict.rank[b]);
  const first = firstIds(spec.field);
  return {
    text: spec.text,
    offset: 0,
    length: spec.text.length,
    options: hits
      .slice(0, SUGGEST_SIZE)
      .map((code) => ({ text: dict.values[code]!, _index: 'ceilingrates', _id: String(first[code]), _score: 1.0, _source: {} })),
  };
}

/** `{"<field>-suggestion": [entry, …]}`, one entry per suggest parameter, in request order. */
export function suggestBody(sources: SuggestSources, specs: readonly FieldText[]): Record<string, SuggestEntry[]> {
  const body: Record<string, SuggestEntry[]> = {};
  for (const spec of specs) (body[`${spec.field}-suggestion`] ??= []).push(suggestEntry(sources, spec));
  return body;
}

/**
 * The suggest body as JSON text: `_score` is production's double, `1.0` (JSON.stringify would write `1`). The
 * pattern cannot match inside a value: a quote in a suggested text is written escaped (`\"_score\":1,`).
 */
export function suggestJson(body: Record<string, SuggestEntry[]>): string {
  return JSON.stringify(body).replaceAll('"_score":1,', '"_score":1.0,');
}
