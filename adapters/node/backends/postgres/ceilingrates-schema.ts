/**
 * The ceiling rates' part of the Postgres schema (schema.ts runs it): one set of rates, replaced by each load.
 * Columns hold the values exactly as the engine's SQLite table holds them, so the engine's own shaping code
 * turns a row into the API's record; the match tables are ceilingrates-tables.ts's.
 */
import { RECORD_FIELDS, type RecordField } from '../../../../engine/ceilingrates/record.ts';
import { CEILINGRATE_TABLES_SQL, DERIVED_SQL } from './ceilingrates-tables.ts';
import { quote } from './quote.ts';
import type { StoreSchema } from './store.ts';

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

export const CEILINGRATES_SCHEMA: StoreSchema = {
  create: `
  CREATE TABLE IF NOT EXISTS ceilingrates_loads (
    generation bigint NOT NULL,
    loaded_at timestamptz NOT NULL DEFAULT now(),
    origin text NOT NULL,
    records integer NOT NULL
  );
  -- Version 1 stored the engine's SQLite file here; version 2 answers the rates in SQL (ceilingrates-tables.ts).
  ALTER TABLE ceilingrates_loads DROP COLUMN IF EXISTS image;
  CREATE TABLE IF NOT EXISTS ceilingrates (
    ${RECORD_FIELDS.map((field) => `${quote(field)} ${RATE_TYPE[field]}`).join(',\n    ')}
  );
  -- The record's _source JSON as the engine writes it.
  ALTER TABLE ceilingrates ADD COLUMN IF NOT EXISTS source text;
  ${CEILINGRATE_TABLES_SQL}
`,
  upgrades: [
    // Version 1's rates have no match tables, version 2's no stored grouping, version 3's no store order: they
    // must be loaded again, and until then are not served.
    { before: 4, sql: 'DELETE FROM ceilingrates_loads; DELETE FROM ceilingrates' },
    // Before version 7 no load wrote the counted rows and each value's rows: derived now from the rows there
    // (the schema statements above added each rate's place and dropped what the engine computes now).
    { before: 7, sql: DERIVED_SQL },
  ],
};
