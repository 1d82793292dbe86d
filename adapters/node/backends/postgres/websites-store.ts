/**
 * Site Scanning's Postgres store: a load adds (or replaces) one weekly snapshot, keyed by its date; the API
 * paths answer the newest snapshot, `/snapshots/<date>/…` that week (websites.ts answers within one).
 */
import type pg from 'pg';
import type { Database, SqlValue } from 'sql.js';
import { WEBSITE_FIELDS } from '../../../../engine/site-scanning/record.ts';
import { RECORD_COLUMN, SORT_KEY, WEBSITES_TABLE } from '../../../../engine/site-scanning/schema.ts';
import { recordFromStored } from '../../../../engine/site-scanning/stored-record.ts';
import { isSnapshotDate, SNAPSHOT_LIST_ROUTE } from '../../../../engine/http/snapshots.ts';
import { json } from '../../../../engine/http/respond.ts';
import { noRoute } from '../../../../engine/http/route.ts';
import { copyRows } from './copy.ts';
import { sqliteRows } from './sqlite-rows.ts';
import { analysisCountsSql, WEBSITE_HANDLERS } from './websites.ts';
import { FILL_WEBSITES_FILTERS, WEBSITES_SCHEMA } from './websites-schema.ts';
import type { PostgresStore } from './store.ts';

export interface WebsitesLoaded {
  snapshot: string;
  records: number;
  replaced: boolean;
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
  for (const [stored] of sqliteRows(db, `SELECT ${RECORD_COLUMN} FROM ${WEBSITES_TABLE}`)) {
    const day = recordFromStored(String(stored)).scan_date?.slice(0, 10) ?? null;
    if (day !== null && (latest === null || day > latest)) latest = day;
  }
  return latest !== null && isSnapshotDate(latest) ? latest : null;
}

/** A database's stored records in the engine's listing order: the sort key's (target_url byte order, then insertion). */
function* listedRecords(db: Database): Generator<string> {
  for (const [stored] of sqliteRows(db, `SELECT ${RECORD_COLUMN} FROM ${WEBSITES_TABLE} ORDER BY ${SORT_KEY}`)) yield String(stored);
}

/** The rows to COPY: the snapshot's date, the record's listing place (`ord`), the record's columns. */
function* websiteRows(stored: Iterable<string>, snapshot: string): Generator<SqlValue[]> {
  let ord = 0;
  for (const text of stored) yield [snapshot, ord++, ...websiteColumns(text)];
}

async function newestSnapshot(pool: pg.Pool): Promise<string | null> {
  const { rows } = await pool.query<{ snapshot: string | null }>('SELECT max(snapshot)::text AS snapshot FROM websites_snapshots');
  return rows[0]?.snapshot ?? null;
}

async function snapshotExists(pool: pg.Pool, snapshot: string): Promise<boolean> {
  const { rows } = await pool.query('SELECT 1 FROM websites_snapshots WHERE snapshot = $1', [snapshot]);
  return rows.length > 0;
}

/**
 * One snapshot's records added (or replaced) inside the caller's transaction: `stored` are their stored texts
 * (stored-record.ts) in the engine's listing order, a database's or made without one (load:history).
 */
export async function loadWebsitesSnapshot(client: pg.PoolClient, snapshot: string, origin: string, stored: Iterable<string>): Promise<WebsitesLoaded> {
  const deleted = await client.query('DELETE FROM websites_snapshots WHERE snapshot = $1', [snapshot]);
  await client.query('INSERT INTO websites_snapshots (snapshot, origin, records) VALUES ($1, $2, 0)', [snapshot, origin]);
  const columns = ['snapshot', 'ord', ...WEBSITE_FIELDS.map(([name]) => name)];
  const records = await copyRows(client, 'websites', columns, websiteRows(stored, snapshot));
  await client.query(`${FILL_WEBSITES_FILTERS} WHERE snapshot = $1`, [snapshot]);
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

export const websitesStore: PostgresStore<WebsitesLoaded> = {
  schema: WEBSITES_SCHEMA,
  tables: ['websites', 'websites_filters'],

  load(client, { db, origin }, options) {
    const snapshot = options.snapshot ?? latestScanDate(db) ?? new Date().toISOString().slice(0, 10);
    return loadWebsitesSnapshot(client, snapshot, origin, listedRecords(db));
  },

  describe: ({ snapshot, records, replaced }, where) =>
    `websites: ${records} records as the snapshot of ${snapshot} (${replaced ? 'replaced' : 'added'}) in ${where}`,

  async answer(pool, { api, route, ctx, snapshot: dated, request }) {
    if (route === SNAPSHOT_LIST_ROUTE) {
      const { rows } = await pool.query<{ date: string; count: number }>(
        'SELECT snapshot::text AS date, records AS count FROM websites_snapshots ORDER BY snapshot',
      );
      return json(200, { snapshots: rows });
    }
    if (dated && !(await snapshotExists(pool, dated))) return noRoute(request.method.toUpperCase(), ctx.pathname);
    const snapshot = dated ?? (await newestSnapshot(pool));
    if (!snapshot) return api.errors.unavailable();
    return WEBSITE_HANDLERS[route](pool, snapshot, ctx);
  },
};
