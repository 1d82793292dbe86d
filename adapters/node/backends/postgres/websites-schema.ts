/**
 * Site Scanning's part of the Postgres schema (schema.ts runs it): every loaded snapshot, keyed by its date.
 * Columns hold the values exactly as the engine's SQLite table holds them (booleans 0/1, lists and objects as
 * JSON text), so the engine's own shaping code turns a row into the API's record. `ord` is a record's place in
 * the engine's listing order (target_url byte order, then insertion order), written at load from the SQLite sort key.
 */
import { WEBSITE_FIELDS, type FieldKind } from '../../../../engine/site-scanning/record.ts';
import { WEBSITE_FILTER_PARAMETERS } from '../../../../engine/site-scanning/parameters.ts';
import { quote } from './quote.ts';
import type { StoreSchema } from './store.ts';

const WEBSITE_TYPE: Record<FieldKind, string> = {
  text: 'text',
  number: 'double precision',
  boolean: 'smallint',
  list: 'text',
  object: 'text',
};

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

export const WEBSITES_SCHEMA: StoreSchema = {
  create: `
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
`,
  // Before version 5 no week had its filter columns apart: written now from the weeks already there.
  upgrades: [{ before: 5, sql: FILL_WEBSITES_FILTERS }],
};
