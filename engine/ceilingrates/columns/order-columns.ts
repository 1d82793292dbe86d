/**
 * Per orderable field: every record's dense rank (nulls after every value) and the rows grouped by rank,
 * built by counting sort. Built lazily, once per field per database: most requests only use current_price.
 */
import { Memo } from '../memo.ts';
import { ABSENT_ORDER_FIELDS, ORDER_FIELDS, type OrderField } from '../parameters.ts';
import type { ColumnStore, NumericField, TextField } from './store.ts';
import { narrow, type Codes } from './dictionary.ts';
import { rankNumbers, type NumberRanks } from './number-ranks.ts';

const NUMERIC_ORDER: ReadonlySet<string> = new Set<NumericField>(['current_price', 'next_year_price', 'second_year_price', 'min_years_experience']);
const ABSENT_ORDER: ReadonlySet<string> = new Set(ABSENT_ORDER_FIELDS);
/** Production's double fields: their `sort` values are written with a decimal point (`[15.0]`, as `_source` has it). */
const DOUBLE_ORDER: ReadonlySet<string> = new Set<NumericField>(['current_price', 'next_year_price', 'second_year_price']);

/** Whether a hit's `sort` value of the field is written as a double (`15.0`): the prices. */
export const isDoubleOrder = (field: OrderField): boolean => DOUBLE_ORDER.has(field);

export function isOrderField(name: string): name is OrderField {
  return (ORDER_FIELDS as readonly string[]).includes(name);
}

/** What an order column holds: arrays and counts only, so it can be packed (prepared.ts). */
export interface OrderColumnData {
  field: OrderField;
  /** Dense rank of each row's value in ascending order; `nullRank` for null. */
  recordRank: Codes;
  /** Number of distinct non-null values, and the rank of null. */
  nullRank: number;
  /** Rows ordered by (rank, row). Group g is perm[groupStart[g] .. groupStart[g + 1]). */
  perm: Uint32Array;
  groupStart: Uint32Array;
  /** Numeric fields: the distinct values ascending, indexed by rank. */
  rankValues: Float64Array | null;
}

export interface OrderColumn extends OrderColumnData {
  /** The hit's `sort` element: a number for numeric fields, the string for text, null for null. */
  sortValue(row: number): number | string | null;
}

/** The order columns every bind builds (the default ordering, the default filter, search and suggest fields). */
export const BOUND_ORDER_FIELDS = [
  'current_price',
  'min_years_experience',
  'labor_category',
  'vendor_name',
  'idv_piid',
] as const satisfies readonly OrderField[];

function groupByRank(recordRank: Codes, groups: number): { perm: Uint32Array; groupStart: Uint32Array } {
  const groupStart = new Uint32Array(groups + 1);
  for (let r = 0; r < recordRank.length; r++) groupStart[recordRank[r] + 1]++;
  for (let g = 0; g < groups; g++) groupStart[g + 1] += groupStart[g];
  const next = groupStart.slice(0, groups);
  const perm = new Uint32Array(recordRank.length);
  for (let r = 0; r < recordRank.length; r++) perm[next[recordRank[r]]++] = r;
  return { perm, groupStart };
}

/** A numeric field's column from its ranks. */
export function numericColumn(field: NumericField, ranks: NumberRanks): OrderColumnData {
  const nullRank = ranks.distinct.length;
  return {
    field,
    recordRank: narrow(ranks.rank, nullRank + 1),
    nullRank,
    ...groupByRank(ranks.rank, nullRank + 1),
    rankValues: ranks.distinct,
  };
}

function textColumn(field: Extract<OrderField, TextField>, store: ColumnStore): OrderColumnData {
  const dict = store.text[field];
  const nullRank = dict.values.filter((v) => v !== null).length;
  const recordRank = new Uint32Array(store.size);
  for (let r = 0; r < store.size; r++) recordRank[r] = dict.rank[dict.codes[r]];
  return {
    field,
    recordRank: narrow(recordRank, nullRank + 1),
    nullRank,
    ...groupByRank(recordRank, nullRank + 1),
    rankValues: null,
  };
}

/** A field no record holds: one group of nulls (rank 0 = nullRank) in row order, so the next key decides. */
export function absentColumn(field: OrderField, size: number): OrderColumnData {
  const recordRank = new Uint8Array(size);
  return { field, recordRank, nullRank: 0, ...groupByRank(recordRank, 1), rankValues: null };
}

/** The column with its `sort` element, read from the store (a prepared column gets it the same way). */
export function orderColumn(data: OrderColumnData, store: ColumnStore): OrderColumn {
  const { field } = data;
  if (ABSENT_ORDER.has(field)) return { ...data, sortValue: () => null };
  if (NUMERIC_ORDER.has(field)) {
    const values = store.numbers[field as NumericField];
    return {
      ...data,
      sortValue: (row) => {
        const v = values[row];
        return v === v ? v : null;
      },
    };
  }
  const dict = store.text[field as TextField];
  return { ...data, sortValue: (row) => dict.values[dict.codes[row]] };
}

function buildColumn(field: OrderField, store: ColumnStore): OrderColumnData {
  if (ABSENT_ORDER.has(field)) return absentColumn(field, store.size);
  if (!NUMERIC_ORDER.has(field)) return textColumn(field as Extract<OrderField, TextField>, store);
  const numeric = field as NumericField;
  return numericColumn(numeric, store.numberRanks[numeric] ?? rankNumbers(store.numbers[numeric]));
}

/** Each orderable field's column, built the first time a request uses it (or given, prepared by an earlier bind). */
export class OrderColumns extends Memo<OrderField, OrderColumn> {
  constructor(store: ColumnStore, prepared: readonly OrderColumnData[] = []) {
    super(
      (field) => orderColumn(buildColumn(field, store), store),
      prepared.map((data) => [data.field, orderColumn(data, store)]),
    );
  }
}
