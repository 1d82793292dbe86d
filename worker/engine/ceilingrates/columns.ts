/**
 * The records' columns held in typed arrays, read once per opened database. Requests filter, aggregate and
 * order over these in single passes; only a page's `_source` is read back from SQLite.
 *
 * Row `r` is the r-th record in id order, so walking rows in index order is walking ids ascending (the
 * tie-break of every ordering and the summation order of the statistics).
 */
import type { Database } from 'sql.js';
import { CEILINGRATES_TABLE } from './record.ts';
import { compareBytes, priceKey } from './text.ts';

export const TEXT_FIELDS = [
  'vendor_name',
  'idv_piid',
  'schedule',
  'sin',
  'labor_category',
  'category',
  'subcategory',
  'education_level',
  'worksite',
  'security_clearance',
  'business_size',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export const NUMERIC_FIELDS = ['current_price', 'next_year_price', 'second_year_price', 'min_years_experience'] as const;
export type NumericField = (typeof NUMERIC_FIELDS)[number];

/** Per-record codes in the narrowest array that holds them: less memory, and fewer bytes per pass. */
export type Codes = Uint8Array | Uint16Array | Uint32Array;

export function narrow(codes: Uint32Array, distinct: number): Codes {
  if (distinct <= 0x100) return Uint8Array.from(codes);
  if (distinct <= 0x10000) return Uint16Array.from(codes);
  return codes;
}

/**
 * Distinct values of one column and each record's code into them. `rank` orders the values by key
 * (byte order for text, numeric for numbers) with null after every value.
 */
export interface Dictionary {
  values: readonly (string | null)[];
  codes: Codes;
  rank: Uint32Array;
  /** The inverse of `rank`: the code at each key position. */
  byRank: Uint32Array;
}

export interface ColumnStore {
  size: number;
  ids: Float64Array;
  numbers: Record<NumericField, Float64Array>;
  text: Record<TextField, Dictionary>;
  /** Term-aggregation keys of the numeric fields: `"3"` for experience, `"27.00"` for price. */
  experienceKeys: Dictionary;
  priceKeys: Dictionary;
}

class DictionaryBuilder {
  readonly values: (string | null)[] = [];
  private readonly index = new Map<string | null, number>();
  readonly codes: Uint32Array;

  constructor(size: number) {
    this.codes = new Uint32Array(size);
  }

  add(row: number, value: string | null): void {
    let code = this.index.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.index.set(value, code);
    }
    this.codes[row] = code;
  }

  build(compare: (a: string, b: string) => number): Dictionary {
    const order = this.values.map((_, i) => i);
    order.sort((a, b) => {
      const x = this.values[a];
      const y = this.values[b];
      if (x === null) return y === null ? 0 : 1;
      if (y === null) return -1;
      return compare(x, y);
    });
    const rank = new Uint32Array(this.values.length);
    order.forEach((code, position) => (rank[code] = position));
    return { values: this.values, codes: narrow(this.codes, this.values.length), rank, byRank: Uint32Array.from(order) };
  }
}

const numericKeyOrder = (a: string, b: string): number => Number(a) - Number(b);

/** A column of numbers keyed as strings for term aggregations (NaN, i.e. null, is no bucket). */
function keyDictionary(values: Float64Array, key: (v: number) => string): Dictionary {
  const builder = new DictionaryBuilder(values.length);
  for (let r = 0; r < values.length; r++) {
    const v = values[r];
    builder.add(r, v === v ? key(v) : null);
  }
  return builder.build(numericKeyOrder);
}

export function loadColumns(db: Database): ColumnStore {
  const size = Number(db.exec(`SELECT COUNT(*) FROM ${CEILINGRATES_TABLE}`)[0].values[0][0]);
  const ids = new Float64Array(size);
  const numbers = Object.fromEntries(NUMERIC_FIELDS.map((f) => [f, new Float64Array(size)])) as Record<NumericField, Float64Array>;
  const builders = Object.fromEntries(TEXT_FIELDS.map((f) => [f, new DictionaryBuilder(size)])) as Record<TextField, DictionaryBuilder>;

  const columns = ['id', ...TEXT_FIELDS, ...NUMERIC_FIELDS];
  const statement = db.prepare(`SELECT ${columns.join(', ')} FROM ${CEILINGRATES_TABLE} ORDER BY id`);
  try {
    let r = 0;
    const textCount = TEXT_FIELDS.length;
    while (statement.step() && r < size) {
      const row = statement.get();
      ids[r] = Number(row[0]);
      for (let f = 0; f < textCount; f++) {
        const v = row[1 + f];
        builders[TEXT_FIELDS[f]].add(r, v === null || v === undefined ? null : String(v));
      }
      for (let f = 0; f < NUMERIC_FIELDS.length; f++) {
        const v = row[1 + textCount + f];
        numbers[NUMERIC_FIELDS[f]][r] = v === null || v === undefined || v === '' ? NaN : Number(v);
      }
      r++;
    }
  } finally {
    statement.free();
  }

  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, builders[f].build(compareBytes)])) as Record<TextField, Dictionary>;
  return {
    size,
    ids,
    numbers,
    text,
    experienceKeys: keyDictionary(numbers.min_years_experience, (v) => String(v)),
    priceKeys: keyDictionary(numbers.current_price, priceKey),
  };
}

/** Row of a record id (ids ascending with the rows), or -1. */
export function rowOfId(store: ColumnStore, id: number): number {
  let lo = 0;
  let hi = store.size - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = store.ids[mid];
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
