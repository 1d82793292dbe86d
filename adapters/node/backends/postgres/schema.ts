/**
 * The Postgres schema: the version table, then each store's own part (stores.ts; websites-schema.ts,
 * ceilingrates-schema.ts), in the stores' order. One version numbers the whole schema.
 */
import type { PoolClient } from 'pg';
import { POSTGRES_STORES } from './stores.ts';

/** Bumped when the tables change; `migrate` brings an older schema up to it. */
export const SCHEMA_VERSION = 7;

const STORES = Object.values(POSTGRES_STORES);

const SCHEMA = ['\n  CREATE TABLE IF NOT EXISTS offline_gov_schema (version integer NOT NULL);', ...STORES.map(({ schema }) => schema.create)].join('');

/**
 * Create or migrate the schema, inside the caller's transaction (Postgres DDL is transactional, so a failed
 * load leaves no half-made schema). An advisory lock keeps two loads from migrating at once.
 */
export async function migrate(client: PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(774023)');
  await client.query(SCHEMA);
  const { rows } = await client.query<{ version: number }>('SELECT version FROM offline_gov_schema');
  if (rows.length === 0) await client.query('INSERT INTO offline_gov_schema (version) VALUES ($1)', [SCHEMA_VERSION]);
  else if (rows[0].version > SCHEMA_VERSION)
    throw new Error(`the database's schema is version ${rows[0].version}, newer than this offline-gov-api (${SCHEMA_VERSION})`);
  else if (rows[0].version < SCHEMA_VERSION) {
    for (const { schema } of STORES) for (const { before, sql } of schema.upgrades) if (rows[0].version < before) await client.query(sql);
    await client.query('UPDATE offline_gov_schema SET version = $1', [SCHEMA_VERSION]);
  }
}
