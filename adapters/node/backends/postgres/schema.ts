/**
 * The Postgres schema of both datasets. Site Scanning keeps every loaded snapshot, keyed by its date; the
 * ceiling rates are one set, replaced by each load. Columns hold the values exactly as the engine's SQLite
 * tables hold them (booleans 0/1, lists and objects as JSON text), so the engine's own shaping code turns a
 * row into the API's record whichever store it came from. `ord` is a record's place in the engine's
 * listing order (target_url byte order, then insertion order), written at load from the SQLite sort key.
 */
import type { PoolClient } from 'pg';
import { WEBSITE_FIELDS, type FieldKind } from '../../../../engine/site-scanning/record.ts';
import { WEBSITE_FILTER_PARAMETERS } from '../../../../engine/site-scanning/parameters.ts';
import { RECORD_FIELDS, type RecordField } from '../../../../engine/ceilingrates/record.ts';
import { CEILINGRATE_TABLES_SQL, DERIVED_SQL } from './ceilingrates-tables.ts';
import { quote } from './quote.ts';

/** Bumped when the tables change; `migrate` brings an older schema up to it. */
export const SCHEMA_VERSION = 7;

export { quote };

const WEBSITE_TYPE: Record<FieldKind, string> = {
  text: 'text',
  number: 'double precision',
  boolean: 'smallint',
  list: 'text',
  object: 'text',
};

const RATE_TYPE: Record<RecordField, string> = {
  id: 'bigint PRIMARY KEY',
  vendor_name: 'text NOT NULL',
  idv_piid: 'text NOT NULL',
  schedule: 'text NOT NULL',
  sin: 'text NOT NULL',
  labor_category: 'text NOT NULL',
  category: 'text NOT NULL',
  subcategory: 'text NOT NULL',
  education_level: 'text NOT NULL',
  min_years_experience: 'double precision',
  worksite: 'text NOT NULL',
  security_clearance: 'text',
  business_size: 'text NOT NULL',
  current_price: 'double precision',
  next_year_price: 'double precision',
  second_year_price: 'double precision',
  contract_start: 'text NOT NULL',
  contract_end: 'text NOT NULL',
  cont_beg_dtg: 'text NOT NULL',
  cont_end_dtg: 'text NOT NULL',
  dt_termg: 'text',
  _timestamp: 'text NOT NULL',
};

/** The rate fields no record leaves empty: their order ranks are never null. */
export const notNullRateField = (field: RecordField): boolean => RATE_TYPE[field].includes('NOT NULL');

export const WEBSITE_COLUMNS = WEBSITE_FIELDS.map(([name]) => name);

/**
 * An index per Site Scanning filter, so a filtered count reads the matches' entries, not the week's rows: a
 * week and a value for the few-valued ones (booleans, the scan status); a hash of the value for the texts,
 * which have no length limit a btree entry would impose on a load.
 */
const filterIndexes = (table: string): string =>
  WEBSITE_FILTER_PARAMETERS.map(({ name, kind }) =>
    kind === 'boolean' || kind === 'enum'
      ? `CREATE INDEX IF NOT EXISTS ${table}_by_${name} ON ${table} (snapshot, ${quote(name)});`
      : `CREATE INDEX IF NOT EXISTS ${table}_by_${name} ON ${table} USING hash (${quote(name)});`,
  ).join('\n  ');

const FILTER_COLUMNS = WEBSITE_FILTER_PARAMETERS.map(({ name }) => quote(name)).join(', ');

/**
 * Each week's filter columns beside their row's place (schema 5), written by the load from the week's rows: a
 * filtered /analysis counts over these narrow rows (about a third of the wide rows' pages), and the distinct
 * values it counts (final domain, agency) are filter columns too.
 */
export const FILL_WEBSITES_FILTERS = `INSERT INTO websites_filters (snapshot, ord, ${FILTER_COLUMNS}) SELECT snapshot, ord, ${FILTER_COLUMNS} FROM websites`;

const SCHEMA_V1 = `
  CREATE TABLE IF NOT EXISTS offline_gov_schema (version integer NOT NULL);
  CREATE TABLE IF NOT EXISTS websites_snapshots (
    snapshot date PRIMARY KEY,
    loaded_at timestamptz NOT NULL DEFAULT now(),
    origin text NOT NULL,
    records integer NOT NULL
  );
  CREATE TABLE IF NOT EXISTS websites (
    snapshot date NOT NULL REFERENCES websites_snapshots (snapshot) ON DELETE CASCADE,
    ord integer NOT NULL,
    ${WEBSITE_FIELDS.map(([name, kind]) => `${quote(name)} ${WEBSITE_TYPE[kind]}${name === 'target_url' ? ' NOT NULL' : ''}`).join(',\n    ')},
    PRIMARY KEY (snapshot, ord)
  );
  -- /analysis without a filter, counted once by the load (websites.ts analysisCountsSql).
  ALTER TABLE websites_snapshots ADD COLUMN IF NOT EXISTS final_url_domains integer NOT NULL DEFAULT 0;
  ALTER TABLE websites_snapshots ADD COLUMN IF NOT EXISTS agencies integer NOT NULL DEFAULT 0;
  CREATE INDEX IF NOT EXISTS websites_by_target_url ON websites (snapshot, target_url, ord);
  ${filterIndexes('websites')}
  CREATE TABLE IF NOT EXISTS websites_filters (
    snapshot date NOT NULL REFERENCES websites_snapshots (snapshot) ON DELETE CASCADE,
    ord integer NOT NULL,
    ${WEBSITE_FILTER_PARAMETERS.map(({ name }) => `${quote(name)} ${WEBSITE_TYPE[WEBSITE_FIELDS.find(([field]) => field === name)![1]]}`).join(',\n    ')},
    PRIMARY KEY (snapshot, ord)
  );
  ${filterIndexes('websites_filters')}
  CREATE TABLE IF NOT EXISTS ceilingrates_loads (
    generation bigint NOT NULL,
    loaded_at timestamptz NOT NULL DEFAULT now(),
    origin text NOT NULL,
    records integer NOT NULL
  );
  -- Version 1 kept the engine's SQLite file here; version 2 answers the rates in SQL (ceilingrates-tables.ts).
  ALTER TABLE ceilingrates_loads DROP COLUMN IF EXISTS image;
  CREATE TABLE IF NOT EXISTS ceilingrates (
    ${RECORD_FIELDS.map((field) => `${quote(field)} ${RATE_TYPE[field]}`).join(',\n    ')}
  );
  -- The record's _source JSON as the engine writes it.
  ALTER TABLE ceilingrates ADD COLUMN IF NOT EXISTS source text;
  ${CEILINGRATE_TABLES_SQL}
`;

/**
 * Create or migrate the schema, inside the caller's transaction (Postgres DDL is transactional, so a failed
 * load leaves no half-made schema). An advisory lock keeps two loads from migrating at once.
 */
export async function migrate(client: PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(774023)');
  await client.query(SCHEMA_V1);
  const { rows } = await client.query<{ version: number }>('SELECT version FROM offline_gov_schema');
  if (rows.length === 0) await client.query('INSERT INTO offline_gov_schema (version) VALUES ($1)', [SCHEMA_VERSION]);
  else if (rows[0].version > SCHEMA_VERSION)
    throw new Error(`the database's schema is version ${rows[0].version}, newer than this offline-gov-api (${SCHEMA_VERSION})`);
  else if (rows[0].version < SCHEMA_VERSION) {
    // Version 1's rates have no match tables, version 2's no stored grouping, version 3's no store order: they
    // must be loaded again, and until then are not served.
    if (rows[0].version < 4) await client.query('DELETE FROM ceilingrates_loads; DELETE FROM ceilingrates');
    // Before version 5 no week had its filter columns apart: written now from the weeks already there.
    if (rows[0].version < 5) await client.query(FILL_WEBSITES_FILTERS);
    // Before version 7 no load wrote the counted rows and each value's rows: derived now from the rows there
    // (the schema statements above added each rate's place and dropped what the engine computes now).
    if (rows[0].version < 7) await client.query(DERIVED_SQL);
    await client.query('UPDATE offline_gov_schema SET version = $1', [SCHEMA_VERSION]);
  }
}
