/**
 * The ceiling rates' Postgres store: a load replaces every rate and bumps their generation; requests are
 * answered by the engine over the rows the tables `load` wrote hand back (ceilingrates.ts, ceilingrates-tables.ts).
 */
import type pg from 'pg';
import { CEILINGRATES_TABLE, RECORD_FIELDS } from '../../../../engine/ceilingrates/record.ts';
import { SOURCE_JSON_SQL } from '../../../../engine/ceilingrates/query/source.ts';
import { writeCeilingRateTables } from './ceilingrates-tables.ts';
import { RatesRemoved, searchCeilingRates } from './ceilingrates.ts';
import { cachedRates } from './ceilingrates-loaded.ts';
import { copyRows } from './copy.ts';
import { quote } from './quote.ts';
import { CEILINGRATES_SCHEMA } from './ceilingrates-schema.ts';
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
  schema: CEILINGRATES_SCHEMA,
  tables: ['ceilingrates', 'ceilingrate_rows', 'ceilingrate_terms', 'ceilingrate_combos', 'ceilingrate_prices', 'ceilingrate_counted'],

  async load(client, { db, origin }) {
    // DELETE, not TRUNCATE: readers keep seeing the old rates until this transaction commits.
    await client.query('DELETE FROM ceilingrates');
    // The page's _source is the engine's JSON text (query/source.ts), stored as written.
    const select = `SELECT ${RECORD_FIELDS.map(quote).join(', ')}, ${SOURCE_JSON_SQL} FROM ${CEILINGRATES_TABLE} ORDER BY id`;
    const records = await copyRows(client, 'ceilingrates', [...RECORD_FIELDS, 'source'], sqliteRows(db, select));
    await writeCeilingRateTables(client, db);
    const { rows } = await client.query<{ generation: string }>('SELECT coalesce(max(generation), 0) + 1 AS generation FROM ceilingrates_loads');
    const generation = Number(rows[0].generation);
    await client.query('DELETE FROM ceilingrates_loads');
    await client.query('INSERT INTO ceilingrates_loads (generation, origin, records) VALUES ($1, $2, $3)', [generation, origin, records]);
    return { records, generation };
  },

  describe: ({ records, generation }, where) => `ceilingrates: ${records} records (load ${generation}) in ${where}`,

  async answer(pool, { api, ctx }) {
    // Asked until a load's tables are cached; from then on the statements find rates removed (RatesRemoved).
    if (!cachedRates(pool) && !(await ratesLoaded(pool))) return api.errors.unavailable();
    try {
      return await searchCeilingRates(pool, ctx);
    } catch (error) {
      if (error instanceof RatesRemoved) return api.errors.unavailable();
      throw error;
    }
  },
};
