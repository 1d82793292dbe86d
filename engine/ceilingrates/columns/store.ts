/**
 * The records' columns held in typed arrays, read once per opened database. Requests filter, aggregate and
 * order over these in single passes; only a page's `_source` is read back from SQLite.
 *
 * Row `r` is the r-th record in id order, so walking rows in index order is walking ids ascending (the
 * tie-break of every ordering and the summation order of the statistics).
 */
import { priceKey } from '../text.ts';
import { lowerBound } from '../bounds.ts';
import type { Dictionary } from './dictionary.ts';
import { keyDictionary, rankNumbers, type NumberRanks } from './number-ranks.ts';
import { RECORD_FIELDS, type RecordField } from '../record.ts';

export const NUMERIC_FIELDS = ['current_price', 'next_year_price', 'second_year_price', 'min_years_experience'] as const;
export type NumericField = (typeof NUMERIC_FIELDS)[number];

/**
 * The fields not held as dictionaries: the id and the numbers are typed arrays, and the raw contract dates and the
 * load time only `_source` shows, read back from SQLite.
 */
const NOT_TEXT = ['id', ...NUMERIC_FIELDS, 'cont_beg_dtg', 'cont_end_dtg', 'dt_termg', '_timestamp'] as const satisfies readonly RecordField[];
export type TextField = Exclude<RecordField, (typeof NOT_TEXT)[number]>;

/**
 * Every other field, in the record's order. Only the CSV export reads the contract dates (`contract_start`,
 * `contract_end`); few distinct values, so cheap to hold as dictionaries.
 */
export const TEXT_FIELDS: readonly TextField[] = RECORD_FIELDS.filter((field): field is TextField => !(NOT_TEXT as readonly RecordField[]).includes(field));

export interface ColumnStore {
  size: number;
  ids: Float64Array;
  numbers: Record<NumericField, Float64Array>;
  text: Record<TextField, Dictionary>;
  /** Term-aggregation keys of the numeric fields: `"3"` for experience, `"27.00"` for price. */
  experienceKeys: Dictionary;
  priceKeys: Dictionary;
  /** Ranks the store computed anyway (for the term keys), for the order columns to reuse. */
  numberRanks: Partial<Record<NumericField, NumberRanks>>;
}

/** The store from the columns as read: ranks the price and experience, and adds their term-key dictionaries. */
export function assembleStore(ids: Float64Array, numbers: Record<NumericField, Float64Array>, text: Record<TextField, Dictionary>): ColumnStore {
  const numberRanks = {
    current_price: rankNumbers(numbers.current_price),
    min_years_experience: rankNumbers(numbers.min_years_experience),
  };
  return {
    size: ids.length,
    ids,
    numbers,
    text,
    numberRanks,
    experienceKeys: keyDictionary(numberRanks.min_years_experience, (v) => String(v)),
    priceKeys: keyDictionary(numberRanks.current_price, priceKey),
  };
}

/** Row of a record id (ids ascending with the rows), or -1. */
export function rowOfId(store: ColumnStore, id: number): number {
  const row = lowerBound(store.ids, store.size, id);
  return row < store.size && store.ids[row] === id ? row : -1;
}
