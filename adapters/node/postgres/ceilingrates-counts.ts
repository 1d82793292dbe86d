/**
 * A search's counts, from the codes of its matches Postgres returns (ceilingrates-groups.ts), turned into the
 * engine's aggregation parts: the seven term aggregations (top buckets by count descending, then the value's
 * byte-order rank, which is its code), the education counts, and the distinct prices ascending with their
 * counts. What the groups' codes stand for (each field's values, each combination's five codes, each price
 * rank's price and key) and the counts of every rate are what a load wrote: read once per load generation
 * and kept, never an answer. Each search statement returns the generation it saw, so a search that saw
 * another load reads that load's tables before it counts.
 */
import type pg from 'pg';
import { TERM_SIZES, type PriceSums, type TermAggregations } from '../../../engine/ceilingrates/query/aggregations.ts';
import { bucketsAggregation, type TermBucket, type TermsAggregation } from '../../../engine/ceilingrates/query/terms.ts';
import { EDUCATION_COUNT_CODES } from '../../../engine/ceilingrates/text.ts';
import { SEARCH_FIELDS } from '../../../engine/ceilingrates/parse-query.ts';
import type { Dictionaries } from './ceilingrates-query.ts';
import type { PriceCounts } from '../../../engine/ceilingrates/query/histogram.ts';
import { COMBO_FIELDS, COMBO_SET, LABOR_SET, PRICE_SET } from './ceilingrates-groups.ts';
import type { Counted } from './row-codes.ts';
import { codeColumn, priceColumnOf, type StoredSums, type TermField } from './ceilingrates-tables.ts';

/** Each term aggregation's field in `ceilingrate_terms` (the numeric fields' two-decimal and plain keys). */
export const TERM_AGGREGATIONS: readonly (readonly [keyof TermAggregations, TermField])[] = [
  ['labor_category', 'labor_category'],
  ['security_clearance', 'security_clearance'],
  ['worksite', 'worksite'],
  ['min_years_experience', 'experience_key'],
  ['education_level', 'education_level'],
  ['current_price', 'price_key'],
  ['business_size', 'business_size'],
];

/** Groups as Postgres returns them: sets, codes and counts, one group per index. */
export type Groups = [sets: number[], codes: number[], counts: number[]];

/** What a load wrote that the counts are read with. */
export interface LoadTables {
  /** The load's generation and time: a load's identity, even across a schema migration that restarts generations. */
  load: string;
  /** Each term field's (and search field's: suggest-contains) values by code. */
  values: Record<string, (string | null)[]>;
  /** Each search field's folded values by code (the engine's `fold`, '' for null), which keyword and suggest-contains match. */
  folded: Record<string, string[]>;
  /** The codes a field's folded values containing a text have, by field and text (dictionariesOf). */
  matched: Map<string, number[]>;
  /** Each search field's rates per code (what a keyword matching those codes can match at most). */
  rows: Record<string, Int32Array>;
  /** education_level's code → its education count code (or null). */
  education: (string | null)[];
  /** The five combination fields' codes, per combination (COMBO_FIELDS order). */
  combos: number[][];
  /** Each price rank's price (ascending) and two-decimal key code. */
  prices: Float64Array;
  priceKeys: Int32Array;
  /** The groups of every rate, and per set as counts by code (made when first asked). */
  all: Groups;
  dense: Map<number, Float64Array>;
  /** The parts of every rate (a search with no condition), once made. */
  everyRate?: CountedParts;
  /** Every rate's price in store order (priceColumn), once read. */
  storePrices?: Float64Array;
  records: number;
  /** The price sums of every rate, as the engine added them at load. */
  sums: StoredSums;
}

/** A load's identity as the statements read it from `ceilingrates_loads l`. */
export const LOAD_IDENTITY = `l.generation || ' ' || l.loaded_at`;

const STATEMENT = `SELECT ${LOAD_IDENTITY}, l.records, l.sums,
  (SELECT json_object_agg(field, v) FROM (SELECT field, json_agg(value ORDER BY code) AS v FROM ceilingrate_terms WHERE field = ANY($1) GROUP BY field) t),
  (SELECT json_object_agg(field, f) FROM (SELECT field, json_agg(folded ORDER BY code) AS f FROM ceilingrate_terms WHERE field = ANY($2) GROUP BY field) t),
  (SELECT json_agg(education ORDER BY code) FROM ceilingrate_terms WHERE field = 'education_level'),
  json_build_object(${SEARCH_FIELDS.map((f) => `'${f}', (SELECT coalesce(json_agg(json_build_array(${codeColumn(f)}, n)), '[]') FROM (SELECT ${codeColumn(f)}, count(*)::int4 AS n FROM ceilingrate_rows GROUP BY 1) g)`).join(', ')}),
  (SELECT json_build_array(${COMBO_FIELDS.map((f) => `coalesce(json_agg(c_${f} ORDER BY combo), '[]')`).join(', ')}) FROM ceilingrate_combos),
  (SELECT json_build_array(coalesce(json_agg(price ORDER BY rank), '[]'), coalesce(json_agg(key ORDER BY rank), '[]')) FROM ceilingrate_prices),
  (SELECT json_build_array(coalesce(json_agg(set), '[]'), coalesce(json_agg(code), '[]'), coalesce(json_agg(n), '[]')) FROM ceilingrate_counts)
  FROM ceilingrates_loads l`;

/** Per database (pool), the tables of the last load read. */
const kept = new WeakMap<pg.Pool, LoadTables>();

/** The load tables of the load `load` (null when the database holds another load by now: search again). */
export async function loadTables(pool: pg.Pool, load: string): Promise<LoadTables | null> {
  const known = kept.get(pool);
  if (known?.load === load) return known;
  const tables = await readTables(pool);
  return tables?.load === load ? tables : null;
}

/**
 * The tables a statement is written with (the kept ones, else the database's): a statement that matched text
 * against a dictionary returns the load it saw, and is written again if that is another load.
 */
export async function currentTables(pool: pg.Pool): Promise<LoadTables | null> {
  return kept.get(pool) ?? readTables(pool);
}

/** Read the database's load tables and keep them (null when no load is there). */
async function readTables(pool: pg.Pool): Promise<LoadTables | null> {
  const fields = [...new Set([...TERM_AGGREGATIONS.map(([, f]) => f), ...SEARCH_FIELDS])];
  const { rows } = await pool.query({ text: STATEMENT, values: [fields, SEARCH_FIELDS], rowMode: 'array' });
  if (rows.length === 0) return null;
  const [identity, records, sums, values, folded, education, perCode, combos, [prices, priceKeys], all] = rows[0] as [
    string,
    number,
    StoredSums,
    Record<string, (string | null)[]>,
    Record<string, string[]>,
    (string | null)[],
    Record<string, [number, number][]>,
    number[][],
    [number[], number[]],
    Groups,
  ];
  const tables: LoadTables = {
    load: identity,
    records,
    sums,
    values,
    folded,
    matched: new Map(),
    rows: Object.fromEntries(
      Object.entries(perCode).map(([field, counts]) => {
        const dense = new Int32Array(folded[field]?.length ?? 0);
        for (const [code, n] of counts) dense[code] = n;
        return [field, dense];
      }),
    ),
    education,
    combos,
    prices: Float64Array.from(prices),
    priceKeys: Int32Array.from(priceKeys),
    all,
    dense: new Map(),
  };
  kept.set(pool, tables);
  return tables;
}

/**
 * The load's dictionaries as a statement's text conditions read them: the codes of a search field's values
 * whose folded form contains a folded, non-empty text. The engine's rule over the distinct values, in Node, so
 * the rates are found by their codes; JavaScript's `includes` and Postgres' `strpos` agree (both compare whole
 * characters of valid text).
 */
export const dictionariesOf = (tables: LoadTables): Dictionaries => ({
  containing(field, needle) {
    // A search writes its condition more than once (the planner's estimate, the statement): matched once.
    const key = `${field}\u0000${needle}`;
    const known = tables.matched.get(key);
    if (known) return known;
    const codes: number[] = [];
    const folded = tables.folded[field] ?? [];
    for (let code = 0; code < folded.length; code++) if (folded[code].includes(needle)) codes.push(code);
    if (tables.matched.size >= MATCHED_KEPT) tables.matched.clear();
    tables.matched.set(key, codes);
    return codes;
  },
  size: (field) => tables.folded[field]?.length ?? 0,
});

/** The texts' matched codes kept per load: the last few searches' (a bound, not a cache of answers). */
const MATCHED_KEPT = 32;

/**
 * The load's price column (every rate's price in store order), read once per load and kept with its tables;
 * null when the database holds another load by now (search again).
 */
export async function priceColumn(pool: pg.Pool, tables: LoadTables): Promise<Float64Array | null> {
  if (tables.storePrices === undefined) {
    const { rows } = await pool.query({
      text: `SELECT ${LOAD_IDENTITY}, (SELECT string_agg(prices, ''::bytea ORDER BY block) FROM ceilingrate_price_column) FROM ceilingrates_loads l`,
      rowMode: 'array',
    });
    const [load, bytes] = (rows[0] ?? [null, null]) as [string | null, Uint8Array | null];
    if (load !== tables.load) return null;
    tables.storePrices = priceColumnOf(bytes ?? new Uint8Array(0));
  }
  return tables.storePrices;
}

/** The tables last read from this database (of the load served now, or of one before it). */
export const keptTables = (pool: pg.Pool): LoadTables | undefined => kept.get(pool);

/** Every rate's counts of one set, per code (made once per load). */
function everyRate(tables: LoadTables, set: number, length: number): Float64Array {
  let counts = tables.dense.get(set);
  if (!counts) {
    counts = new Float64Array(length);
    addSet(counts, tables.all, set, 1);
    tables.dense.set(set, counts);
  }
  return counts;
}

/** The counts of one set, per code, added (sign 1) or taken away (sign −1) into `into`. */
function addSet(into: Float64Array, [sets, codes, counts]: Groups, set: number, sign: number): void {
  for (let i = 0; i < sets.length; i++) if (sets[i] === set) into[codes[i]] += sign * counts[i];
}

/** Buckets by count descending then code (the value's byte-order rank), at most `size`; null is no bucket. */
export function terms(counts: Float64Array, values: readonly (string | null)[], size: number): TermsAggregation {
  let total = 0;
  let nonzero = 0;
  for (let code = 0; code < counts.length; code++) {
    if (counts[code] > 0 && values[code] !== null) {
      total += counts[code];
      nonzero++;
    }
  }
  // The size-th largest count, from a histogram of the counts (whole numbers): the codes above it are fewer
  // than `size` and sorted; those holding it follow in code order (the tie's order) until `size`.
  let least = 1;
  if (nonzero > size) {
    let top = 0;
    for (let code = 0; code < counts.length; code++) if (counts[code] > top && values[code] !== null) top = counts[code];
    const histogram = new Int32Array(top + 1);
    for (let code = 0; code < counts.length; code++) if (counts[code] > 0 && values[code] !== null) histogram[counts[code]]++;
    for (let seen = 0, count = top; count > 0; count--) {
      seen += histogram[count];
      if (seen >= size) {
        least = count;
        break;
      }
    }
  }
  const codes: number[] = [];
  for (let code = 0; code < counts.length; code++) if (counts[code] > least && values[code] !== null) codes.push(code);
  codes.sort((a, b) => counts[b] - counts[a] || a - b);
  for (let code = 0; code < counts.length && codes.length < size; code++) if (counts[code] === least && values[code] !== null) codes.push(code);
  const buckets: TermBucket[] = codes.slice(0, size).map((code) => ({ key: values[code]!, doc_count: counts[code] }));
  return bucketsAggregation(buckets, total);
}

export interface CountedParts {
  matches: number;
  terms: TermAggregations;
  educationCounts: number[];
  prices: PriceCounts;
  priced: number;
  /** The smallest and largest matching price (undefined when none has one). */
  min: number;
  max: number;
}

/**
 * The aggregation parts of the matches, from what they count, or (`rest`) from what the rates a search leaves
 * out count, taken from every rate's counts.
 */
export function countedParts(tables: LoadTables, counted: Counted | null, rest: boolean): CountedParts {
  // Every rate's parts are the load's summary: made once per load.
  if (counted === null) return (tables.everyRate ??= countedParts(tables, () => {}, true));
  const sign = rest ? -1 : 1;
  const dense = (set: number, length: number): Float64Array => {
    const counts = rest ? everyRate(tables, set, length).slice() : new Float64Array(length);
    counted(counts, set, sign);
    return counts;
  };
  const combos = dense(COMBO_SET, tables.combos[0]?.length ?? 0);
  const byRank = dense(PRICE_SET, tables.prices.length);
  const labor = dense(LABOR_SET, tables.values.labor_category?.length ?? 0);

  const fieldCounts = new Map<TermField, Float64Array>([['labor_category', labor]]);
  const comboCounts = COMBO_FIELDS.map((field) => new Float64Array(tables.values[field]?.length ?? 0));
  COMBO_FIELDS.forEach((field, i) => fieldCounts.set(field, comboCounts[i]));
  let matches = 0;
  for (let c = 0; c < combos.length; c++) {
    const n = combos[c];
    if (n === 0) continue;
    matches += n;
    for (let i = 0; i < comboCounts.length; i++) comboCounts[i][tables.combos[i][c]] += n;
  }
  const keyCounts = new Float64Array(tables.values.price_key?.length ?? 0);
  let m = 0;
  for (let rank = 0; rank < byRank.length; rank++) if (byRank[rank] !== 0) m++;
  const values = new Float64Array(m);
  const counts = new Float64Array(m);
  let priced = 0;
  for (let rank = 0, k = 0; rank < byRank.length; rank++) {
    const n = byRank[rank];
    if (n === 0) continue;
    keyCounts[tables.priceKeys[rank]] += n;
    values[k] = tables.prices[rank];
    counts[k++] = n;
    priced += n;
  }
  fieldCounts.set('price_key', keyCounts);

  const educationCounts = EDUCATION_COUNT_CODES.map(() => 0);
  const educationLevels = fieldCounts.get('education_level')!;
  educationLevels.forEach((n, code) => {
    const at = tables.education[code] === null ? -1 : EDUCATION_COUNT_CODES.indexOf(tables.education[code] as (typeof EDUCATION_COUNT_CODES)[number]);
    if (n > 0 && at >= 0) educationCounts[at] += n;
  });

  const termAggregations = Object.fromEntries(
    TERM_AGGREGATIONS.map(([name, field]) => [name, terms(fieldCounts.get(field)!, tables.values[field] ?? [], TERM_SIZES[name])]),
  ) as unknown as TermAggregations;
  return {
    matches,
    terms: termAggregations,
    educationCounts,
    prices: { values, counts, m },
    priced,
    min: values[0],
    max: values[m - 1],
  };
}

export type { PriceSums };
