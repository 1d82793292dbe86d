/**
 * The ceiling rates' Postgres store: a load replaces every rate and bumps their generation; requests are
 * answered in SQL over the rows and the match tables the load wrote (ceilingrates.ts, ceilingrates-tables.ts).
 */
import type pg from 'pg';
import { CEILINGRATES_TABLE, RECORD_FIELDS } from '../../../engine/ceilingrates/record.ts';
import { SOURCE_JSON_SQL } from '../../../engine/ceilingrates/query/source.ts';
import { writeCeilingRateTables } from './ceilingrates-tables.ts';
import { RatesRemoved, searchCeilingRates } from './ceilingrates.ts';
import { countsOf } from './ceilingrates-groups.ts';
import { keptTables } from './ceilingrates-counts.ts';
import { copyRows } from './copy.ts';
import { quote } from './schema.ts';
import { sqliteRows } from './sqlite-rows.ts';
import type { PostgresStore } from './store.ts';

export interface CeilingRatesLoaded {
  records: number;
  generation: number;
}

/** Whether a load has written rates (else the API answers 503). */
async function ratesLoaded(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query('SELECT 1 FROM ceilingrates_loads LIMIT 1');
  return rows.length > 0;
}

export const ceilingRatesStore: PostgresStore<CeilingRatesLoaded> = {
  tables: [
    'ceilingrates',
    'ceilingrate_rows',
    'ceilingrate_terms',
    'ceilingrate_tokens',
    'ceilingrate_combos',
    'ceilingrate_prices',
    'ceilingrate_counts',
    'ceilingrate_price_column',
  ],

  async load(client, { db, origin }) {
    // DELETE, not TRUNCATE: readers keep seeing the old rates until this transaction commits.
    await client.query('DELETE FROM ceilingrates');
    // The page's _source is the engine's JSON text (query/source.ts), kept as written.
    const select = `SELECT ${RECORD_FIELDS.map(quote).join(', ')}, ${SOURCE_JSON_SQL} FROM ${CEILINGRATES_TABLE} ORDER BY id`;
    const records = await copyRows(client, 'ceilingrates', [...RECORD_FIELDS, 'source'], sqliteRows(db, select));
    const sums = await writeCeilingRateTables(client, db);
    // The groups of every rate, once: a search matching most rates subtracts the rest's.
    await client.query(
      `DELETE FROM ceilingrate_counts; INSERT INTO ceilingrate_counts SELECT * FROM (${countsOf('ceilingrate_rows')}) g WHERE code IS NOT NULL`,
    );
    const { rows } = await client.query<{ generation: string }>('SELECT coalesce(max(generation), 0) + 1 AS generation FROM ceilingrates_loads');
    const generation = Number(rows[0].generation);
    await client.query('DELETE FROM ceilingrates_loads');
    await client.query('INSERT INTO ceilingrates_loads (generation, origin, records, sums) VALUES ($1, $2, $3, $4)', [
      generation,
      origin,
      records,
      JSON.stringify(sums),
    ]);
    return { records, generation };
  },

  describe: ({ records, generation }, where) => `ceilingrates: ${records} records (load ${generation}) in ${where}`,

  async answer(pool, { api, ctx }) {
    // Asked until a load's tables are kept; from then on the statements find rates removed (RatesRemoved).
    if (!keptTables(pool) && !(await ratesLoaded(pool))) return api.errors.unavailable();
    try {
      return await searchCeilingRates(pool, ctx);
    } catch (error) {
      if (error instanceof RatesRemoved) return api.errors.unavailable();
      throw error;
    }
  },
};
