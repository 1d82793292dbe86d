/**
 * What answering a ceiling-rates search needs beside finding its rows, the same for every store: each planned
 * and bucketed field's values, their derived forms and the keyword's search (the plan, query/match-plan.ts),
 * the counting of match sets (query/aggregator.ts, query/terms.ts) in their buffers, the price order (a page in
 * price order) and each search field's value's lowest id (suggest). The in-memory index builds it from its
 * columns (ceiling-rates-index.ts); a database's door from what a load wrote.
 */
import { COMBO_FIELDS, comboDictionary, type Combos } from './columns/combos.ts';
import type { OrderColumnData } from './columns/order-columns.ts';
import { SEARCH_FIELDS, type SearchField } from './parameters.ts';
import { KernelMemory } from './kernels/kernels.ts';
import { Lazy } from './memo.ts';
import { aggregationsJson } from './json.ts';
import { LARGEST_TERMS } from './query/aggregations.ts';
import { Aggregator, countedRowsRoom, type CountedRows } from './query/aggregator.ts';
import { matchBuffers, matchBuffersRoom, type MatchBuffers } from './query/match-set.ts';
import type { PlanSources } from './query/match-plan.ts';
import { TopTerms, type TermKeys } from './query/terms.ts';
import { ContainsSearch, foldedText, ValueForms, type FoldedText, type PlannedField } from './query/value-forms.ts';

/** Each planned field's values by code with their byte order, and the numeric fields' term keys. */
export interface RatesDictionaries {
  text: Record<PlannedField, TermKeys>;
  experienceKeys: TermKeys;
  priceKeys: TermKeys;
}

export interface RatesTables extends PlanSources {
  /** Rows: row r is the r-th record in id order. */
  readonly size: number;
  readonly dicts: RatesDictionaries;
  readonly aggregator: Aggregator;
  /** Term buckets of the aggregations' and the search fields' dictionaries. */
  readonly topTerms: TopTerms;
  /** The match buffers every request's match set is made in. */
  readonly buffers: MatchBuffers;
  readonly priceOrder: OrderColumnData;
  /** The lowest id holding each value of a search field, by code (-1 for none). */
  firstIds(field: SearchField): ArrayLike<number>;
  /** The aggregations' JSON of a match of every row (one for every search that matches every row), made once. */
  everyRowAggregations(): string;
}

/** What the tables are built from. */
export interface RatesColumns {
  size: number;
  dicts: RatesDictionaries;
  combos: Pick<Combos, 'fieldCodes' | 'count'>;
  priceOrder: OrderColumnData;
  /** Each row's price (NaN for none). */
  prices: Float64Array;
  /** The rows' codes as the aggregator counts them, placed in (or copied into) the kernel memory given. */
  counted: (kernels: KernelMemory) => CountedRows;
  /** The search fields' folded values as UTF-8, when prepared by an earlier bind (else folded now). */
  folded: Record<SearchField, FoldedText> | null;
  firstIds: (field: SearchField) => ArrayLike<number>;
  /** The aggregations' JSON of every row, when prepared by an earlier bind. */
  everyRow?: string;
}

/**
 * The tables of `columns`, in one kernel memory sized once (its match buffers'), with `extraRoom` bytes left
 * there for the caller's own buffers (the in-memory index's groups of rows).
 */
export function ratesTables(columns: RatesColumns, extraRoom = 0): RatesTables {
  const { size, dicts, combos, priceOrder, prices, firstIds } = columns;
  const forms = new ValueForms(dicts);
  const texts =
    columns.folded ?? (Object.fromEntries(SEARCH_FIELDS.map((field) => [field, foldedText(forms.folded.get(field))])) as Record<SearchField, FoldedText>);
  const counted = { labor: dicts.text.labor_category, comboDicts: COMBO_FIELDS.map((field) => comboDictionary(dicts, field)), priceKeys: dicts.priceKeys };
  // The aggregations' and suggest-contains' dictionaries (labor_category is both), each once.
  const termDicts = [...new Set([...Aggregator.termDicts(counted), ...SEARCH_FIELDS.map((field) => dicts.text[field])])];
  const distinct = priceOrder.rankValues!;
  const shape = {
    rows: size,
    distinct: distinct.length,
    labor: counted.labor.values.length,
    comboFields: counted.comboDicts.map((d) => d.values.length),
    combos: combos.count,
    priceKeys: dicts.priceKeys.values.length,
  };
  // One memory for every array a kernel reads, sized once.
  const kernels = new KernelMemory(
    matchBuffersRoom(size) +
      ContainsSearch.room(texts) +
      countedRowsRoom(size, distinct.length) +
      Aggregator.room(shape) +
      TopTerms.room(termDicts, LARGEST_TERMS) +
      extraRoom,
  );
  const buffers = matchBuffers(kernels, size);
  const containing = new ContainsSearch(kernels, forms, texts);
  const topTerms = new TopTerms(kernels, termDicts, LARGEST_TERMS);
  const rows = columns.counted(kernels);
  const aggregator = new Aggregator({ ...counted, comboFields: combos.fieldCodes, distinct, prices, rows, kernels, topTerms, everyRow: buffers.rows });
  // Every row: no row left out, an empty list in the buffers' memory (the buffers themselves are left alone).
  const prepared = columns.everyRow;
  const everyRow = new Lazy(
    () => prepared ?? aggregationsJson(aggregator.aggregate({ mask: buffers.mask, count: size, rows: null, rest: buffers.rows.subarray(0, 0) })),
  );
  return { size, dicts, forms, containing, aggregator, topTerms, buffers, priceOrder, firstIds, everyRowAggregations: () => everyRow.get() };
}
