/**
 * `offline-gov-api load --database`: the records of opened datasets (the engine's SQLite tables, as the built
 * files hold them or the app's import core made them from a user's CSV/JSON) copied into Postgres. One
 * transaction per load: until it commits, servers keep answering the data that was there; if it fails or is
 * interrupted, that data is intact. A Site Scanning load replaces the snapshot of the same date and adds any
 * other; a ceiling-rates load replaces the rates and bumps their generation (servers re-read on a new one).
 */
import type pg from 'pg';
import type { Database, SqlValue } from 'sql.js';
import { WEBSITE_FIELDS, type FieldKind } from '../../../engine/site-scanning/record.ts';
import { RECORD_COLUMN, SORT_KEY, WEBSITES_TABLE } from '../../../engine/site-scanning/schema.ts';
import { recordFromStored } from '../../../engine/site-scanning/stored-record.ts';
import { CEILINGRATES_TABLE, RECORD_FIELDS } from '../../../engine/ceilingrates/record.ts';
import { isSnapshotDate } from '../../../engine/http/snapshots.ts';
import { SOURCE_JSON_SQL } from '../../../engine/ceilingrates/query/source.ts';
import { writeCeilingRateTables } from './ceilingrates-tables.ts';
import { TOTALS_SQL } from './ceilingrates.ts';
import { migrate, quote } from './schema.ts';
import { analysisCountsSql } from './websites.ts';

/** Rows per INSERT: each column travels as one array parameter (unnest), so a batch costs a few parameters. */
const BATCH = 5_000;

export interface LoadInput {
  websites?: { db: Database; origin: string };
  ceilingrates?: { db: Database; origin: string };
  /** The Site Scanning snapshot's date; default: the latest scan date among its records, else today (UTC). */
  snapshot?: string;
}

export interface LoadResult {
  websites?: { snapshot: string; records: number; replaced: boolean };
  ceilingrates?: { records: number; generation: number };
}

const PG_ARRAY_TYPE: Record<FieldKind, string> = {
  text: 'text[]',
  number: 'float8[]',
  boolean: 'int2[]',
  list: 'text[]',
  object: 'text[]',
};

/** Step a SQLite statement, handing rows to `flush` in batches. */
async function inBatches(db: Database, sql: string, flush: (rows: SqlValue[][]) => Promise<void>): Promise<number> {
  const statement = db.prepare(sql);
  let batch: SqlValue[][] = [];
  let count = 0;
  try {
    while (statement.step()) {
      batch.push(statement.get());
      count++;
      if (batch.length === BATCH) {
        await flush(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await flush(batch);
  } finally {
    statement.free();
  }
  return count;
}

/** `INSERT … SELECT * FROM unnest($1::t1[], …)`: column arrays in, one row per index. */
function unnestInsert(table: string, columns: readonly string[], types: readonly string[]): string {
  const params = types.map((type, i) => `$${i + 1}::${type}`).join(', ');
  return `INSERT INTO ${table} (${columns.map(quote).join(', ')}) SELECT * FROM unnest(${params})`;
}

function columnsOf(rows: readonly SqlValue[][], width: number): unknown[][] {
  const columns: unknown[][] = Array.from({ length: width }, () => new Array(rows.length));
  rows.forEach((row, r) => {
    for (let c = 0; c < width; c++) columns[c][r] = row[c] instanceof Uint8Array ? new TextDecoder().decode(row[c] as Uint8Array) : row[c];
  });
  return columns;
}

/**
 * A stored record (engine/site-scanning/stored-record.ts) as the PostgreSQL table's columns, in WEBSITE_FIELDS
 * order: booleans 0/1, list and object fields as JSON text whatever the value, so that `recordFromRow` parses
 * back exactly what was stored (the real snapshot's `dap_parameters_final_url` is `""` in 13,997 records: stored
 * as its text, it was parsed as JSON, and every page holding one answered 503).
 */
function websiteColumns(stored: string): SqlValue[] {
  const record = recordFromStored(stored) as unknown as Record<string, unknown>;
  return WEBSITE_FIELDS.map(([name, kind]) => {
    const value = record[name];
    if (value === null) return null;
    if (kind === 'list' || kind === 'object') return JSON.stringify(value);
    if (typeof value === 'boolean') return value ? 1 : 0;
    return value as SqlValue;
  });
}

/** The latest scan date's day among the records, when it is a date. */
function latestScanDate(db: Database): string | null {
  let latest: string | null = null;
  const statement = db.prepare(`SELECT ${RECORD_COLUMN} FROM ${WEBSITES_TABLE}`);
  try {
    while (statement.step()) {
      const day = recordFromStored(String(statement.get()[0])).scan_date?.slice(0, 10) ?? null;
      if (day !== null && (latest === null || day > latest)) latest = day;
    }
  } finally {
    statement.free();
  }
  return latest !== null && isSnapshotDate(latest) ? latest : null;
}

async function loadWebsites(client: pg.PoolClient, db: Database, origin: string, snapshot: string): Promise<NonNullable<LoadResult['websites']>> {
  const deleted = await client.query('DELETE FROM websites_snapshots WHERE snapshot = $1', [snapshot]);
  await client.query('INSERT INTO websites_snapshots (snapshot, origin, records) VALUES ($1, $2, 0)', [snapshot, origin]);
  const columns = ['snapshot', 'ord', ...WEBSITE_FIELDS.map(([name]) => name)];
  const types = ['date[]', 'int4[]', ...WEBSITE_FIELDS.map(([, kind]) => PG_ARRAY_TYPE[kind])];
  const insert = unnestInsert('websites', columns, types);
  let ord = 0;
  // The engine's listing order is the sort key's (target_url byte order, then insertion): kept as `ord`.
  const select = `SELECT ${RECORD_COLUMN} FROM ${WEBSITES_TABLE} ORDER BY ${SORT_KEY}`;
  const records = await inBatches(db, select, async (rows) => {
    const values = columnsOf(
      rows.map(([stored]) => websiteColumns(String(stored))),
      WEBSITE_FIELDS.length,
    );
    const ords = rows.map(() => ord++);
    await client.query(insert, [rows.map(() => snapshot), ords, ...values]);
  });
  const counts = await client.query({ text: analysisCountsSql('snapshot = $1'), values: [snapshot], rowMode: 'array' });
  const [, domains, agencies] = counts.rows[0].map(Number);
  await client.query('UPDATE websites_snapshots SET records = $2, final_url_domains = $3, agencies = $4 WHERE snapshot = $1', [
    snapshot,
    records,
    domains,
    agencies,
  ]);
  return { snapshot, records, replaced: (deleted.rowCount ?? 0) > 0 };
}

const RATE_ARRAY_TYPE = (field: string): string =>
  field === 'id' ? 'int8[]' : ['min_years_experience', 'current_price', 'next_year_price', 'second_year_price'].includes(field) ? 'float8[]' : 'text[]';

async function loadCeilingRates(client: pg.PoolClient, db: Database, origin: string): Promise<NonNullable<LoadResult['ceilingrates']>> {
  // DELETE, not TRUNCATE: readers keep seeing the old rates until this transaction commits.
  await client.query('DELETE FROM ceilingrates');
  const columns = [...RECORD_FIELDS, 'source'];
  const insert = unnestInsert('ceilingrates', columns, [...RECORD_FIELDS.map(RATE_ARRAY_TYPE), 'text[]']);
  // The page's _source is the engine's JSON text (query/source.ts), kept as written.
  const select = `SELECT ${RECORD_FIELDS.map(quote).join(', ')}, ${SOURCE_JSON_SQL} FROM ${CEILINGRATES_TABLE} ORDER BY id`;
  const records = await inBatches(db, select, async (rows) => {
    await client.query(insert, columnsOf(rows, columns.length));
  });
  await writeCeilingRateTables(client, db);
  const { rows } = await client.query<{ generation: string }>('SELECT coalesce(max(generation), 0) + 1 AS generation FROM ceilingrates_loads');
  const generation = Number(rows[0].generation);
  await client.query('DELETE FROM ceilingrates_loads');
  await client.query('INSERT INTO ceilingrates_loads (generation, origin, records) VALUES ($1, $2, $3)', [generation, origin, records]);
  // The aggregations of every rate, once: unless their price sums overflow the doubles (then left null, and
  // each search computes them).
  await client.query('SAVEPOINT totals');
  try {
    await client.query(`UPDATE ceilingrates_loads SET totals = (${TOTALS_SQL})`);
    await client.query('RELEASE SAVEPOINT totals');
  } catch (error) {
    if ((error as { code?: string }).code !== '22003') throw error;
    await client.query('ROLLBACK TO SAVEPOINT totals');
  }
  return { records, generation };
}

/** Migrate the schema and load the given datasets, all in one transaction. */
export async function loadIntoPostgres(pool: pg.Pool, input: LoadInput): Promise<LoadResult> {
  if (input.snapshot !== undefined && !isSnapshotDate(input.snapshot)) throw new Error(`--snapshot must be a date YYYY-MM-DD, not "${input.snapshot}"`);
  const client = await pool.connect();
  const result: LoadResult = {};
  try {
    await client.query('BEGIN');
    // A big load's statements may run longer than a request's timeout.
    await client.query('SET LOCAL statement_timeout = 0');
    await migrate(client);
    if (input.websites) {
      const snapshot = input.snapshot ?? latestScanDate(input.websites.db) ?? new Date().toISOString().slice(0, 10);
      result.websites = await loadWebsites(client, input.websites.db, input.websites.origin, snapshot);
    }
    if (input.ceilingrates) result.ceilingrates = await loadCeilingRates(client, input.ceilingrates.db, input.ceilingrates.origin);
    await client.query('COMMIT');
    await client.query('ANALYZE websites; ANALYZE ceilingrates; ANALYZE ceilingrate_rows; ANALYZE ceilingrate_terms; ANALYZE ceilingrate_tokens');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return result;
}
