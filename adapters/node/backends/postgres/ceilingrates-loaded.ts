/**
 * A load's tables as the engine answers with them (engine/ceilingrates/rates-tables.ts): the planned fields'
 * values by code (codes are byte-order ranks), their lowest ids and rows, the combinations, the price ranks,
 * and every rate's counted codes (ceilingrates-tables.ts). Read once per load and cached per database, never an
 * answer: each statement returns the identity of the load it saw, and a search that saw another load plans
 * again with that load's tables.
 */
import type pg from 'pg';
import { COMBO_FIELDS } from '../../../../engine/ceilingrates/columns/combos.ts';
import { absentColumn, numericColumn, type OrderColumnData } from '../../../../engine/ceilingrates/columns/order-columns.ts';
import { SEARCH_FIELDS, type OrderField } from '../../../../engine/ceilingrates/parameters.ts';
import { PLANNED_FIELDS, type PlannedField } from '../../../../engine/ceilingrates/query/value-forms.ts';
import { ratesTables, type RatesTables } from '../../../../engine/ceilingrates/rates-tables.ts';
import { Memo } from '../../../../engine/ceilingrates/memo.ts';
import type { TermField } from './ceilingrates-tables.ts';

export interface LoadedRates {
  /** The load's generation and time: its identity, even across a schema migration that restarts generations. */
  load: string;
  tables: RatesTables;
  /** Each planned field's rates per code: what a condition allowing those codes can match at most. */
  rows: Record<PlannedField, Int32Array>;
  /** The orders a page is picked in by Node (the price's; the absent fields', in id order), built when first asked. */
  orders: Memo<OrderField, OrderColumnData>;
}

/** A load's identity as the statements read it from `ceilingrates_loads l`. */
export const LOAD_IDENTITY = `l.generation || ' ' || l.loaded_at`;

const COMBO_COLUMNS = COMBO_FIELDS.map((f) => `c_${f === 'min_years_experience' ? 'experience_key' : f}`);

const STATEMENT = `SELECT ${LOAD_IDENTITY}, l.records,
  (SELECT json_object_agg(field, t) FROM (SELECT field,
    json_build_array(json_agg(value ORDER BY code), json_agg(first_id ORDER BY code), json_agg(rows ORDER BY code)) AS t FROM ceilingrate_terms GROUP BY field) f),
  (SELECT coalesce(json_agg(json_build_array(${COMBO_COLUMNS.join(', ')}) ORDER BY combo), '[]') FROM ceilingrate_combos),
  (SELECT json_build_array(coalesce(json_agg(price ORDER BY rank), '[]'), coalesce(json_agg(key ORDER BY rank), '[]')) FROM ceilingrate_prices),
  (SELECT string_agg(codes, ''::bytea ORDER BY block) FROM ceilingrate_counted)
  FROM ceilingrates_loads l`;

/** The integers of `int4send` bytes Postgres handed back (codes, or places in the engine's store). */
export function int4sOf(bytes: Uint8Array | null): Uint32Array {
  const values = new Uint32Array((bytes?.byteLength ?? 0) / 4);
  const view = bytes ? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
  for (let i = 0; view && i < values.length; i++) values[i] = view.getUint32(4 * i);
  return values;
}

type Terms = Record<TermField, [values: (string | null)[], firstIds: (number | null)[], rows: (number | null)[]]>;

/** Per database (pool), the last load read. */
const cached = new WeakMap<pg.Pool, LoadedRates>();

/** The last load read from this database (the one served now, or one before it). */
export const cachedRates = (pool: pg.Pool): LoadedRates | undefined => cached.get(pool);

/**
 * The tables to write a statement with: the cached ones, unless a statement saw another load (`seen`); then the
 * database's, read and cached. Null when the database holds no load.
 */
export async function loadedRates(pool: pg.Pool, seen?: string): Promise<LoadedRates | null> {
  const known = cached.get(pool);
  if (known && (seen === undefined || known.load === seen)) return known;
  const { rows } = await pool.query({ text: STATEMENT, rowMode: 'array' });
  if (rows.length === 0) return null;
  const loaded = loadedOf(rows[0] as Parameters<typeof loadedOf>[0]);
  cached.set(pool, loaded);
  return loaded;
}

function loadedOf([load, records, terms, combos, [distinct, keys], bytes]: [
  string,
  number,
  Terms,
  number[][],
  [number[], number[]],
  Uint8Array | null,
]): LoadedRates {
  const dict = (field: TermField) => {
    const values = terms[field]?.[0] ?? [];
    return { values, rank: Uint32Array.from(values, (_, code) => code) };
  };
  const text = Object.fromEntries(PLANNED_FIELDS.map((field) => [field, dict(field)])) as Record<PlannedField, ReturnType<typeof dict>>;
  // Each rate's labor category, combination and price rank, as the load wrote them.
  const counted = int4sOf(bytes);
  if (counted.length !== 3 * records) throw new Error(`load ${load}: ${counted.length / 3} counted rates for ${records} records`);
  const priceRanks = new Uint32Array(records);
  const prices = new Float64Array(records);
  for (let r = 0; r < records; r++) {
    const rank = counted[3 * r + 2];
    priceRanks[r] = rank;
    prices[r] = rank < distinct.length ? distinct[rank] : NaN;
  }
  const priceOrder = numericColumn('current_price', { distinct: Float64Array.from(distinct), rank: priceRanks });
  const firstIds = Object.fromEntries(SEARCH_FIELDS.map((field) => [field, Float64Array.from(terms[field]?.[1] ?? [], (id) => id ?? -1)]));
  const tables = ratesTables({
    size: records,
    dicts: { text, experienceKeys: dict('experience_key'), priceKeys: dict('price_key') },
    combos: { fieldCodes: Uint32Array.from(combos.flat()), count: combos.length },
    priceOrder,
    prices,
    counted: () => ({ packed: counted, priceKeyOfRank: Uint32Array.from(keys) }),
    folded: null,
    firstIds: (field) => firstIds[field],
  });
  return {
    load,
    tables,
    rows: Object.fromEntries(PLANNED_FIELDS.map((field) => [field, Int32Array.from(terms[field]?.[2] ?? [], (n) => n ?? 0)])) as Record<
      PlannedField,
      Int32Array
    >,
    orders: new Memo((field) => (field === 'current_price' ? priceOrder : absentColumn(field, records))),
  };
}
