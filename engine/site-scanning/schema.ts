import type { Database, SqlValue } from 'sql.js';
import { WEBSITE_FIELDS, type FieldKind, type WebsiteRecord } from './record.ts';
import { inTransaction } from '../sqlite-transaction.ts';

export const WEBSITES_TABLE = 'websites';

/**
 * Storage-only column (not a record field): an integer that orders rows like (target_url, rowid), i.e.
 * target_url byte order with ties in insertion order. The engine reads the filter columns once in this
 * order (site-scanning/filter-index.ts) and filters in memory, so no filter column needs an index.
 * insertWebsites keeps it current.
 */
export const SORT_KEY = 'sort_key';

const SQL_TYPE: Record<FieldKind, string> = {
  text: 'TEXT',
  number: 'NUMERIC',
  boolean: 'INTEGER',
  list: 'TEXT',
  object: 'TEXT',
};

/**
 * One row per record, one column per field in record order. Booleans are 0/1, lists and objects JSON text, and an empty list is stored as NULL
 * because the API answers it as null.
 */
export function createWebsitesSchema(db: Database): void {
  const columns = WEBSITE_FIELDS.map(([name, kind]) => (name === 'target_url' ? `"${name}" TEXT NOT NULL` : `"${name}" ${SQL_TYPE[kind]}`));
  db.run(`CREATE TABLE ${WEBSITES_TABLE} (${columns.join(', ')}, ${SORT_KEY} INTEGER)`);
  // Covers the sort-key merge of insertWebsites and orders a URL's duplicates for /websites/{url}.
  db.run(`CREATE INDEX websites_by_target_url ON ${WEBSITES_TABLE} (target_url, ${SORT_KEY})`);
  // The filter index's one read of every record, in listing order.
  db.run(`CREATE INDEX websites_by_${SORT_KEY} ON ${WEBSITES_TABLE} (${SORT_KEY})`);
}

function toSql(kind: FieldKind, value: unknown): SqlValue {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'boolean':
      // A record built before final_url_same_domain became a boolean may still say "true"/"false": "false" is
      // truthy, so a string is read by its word.
      return typeof value === 'string' ? (value === 'true' ? 1 : 0) : value ? 1 : 0;
    case 'list':
      return Array.isArray(value) && value.length > 0 ? JSON.stringify(value) : null;
    case 'object':
      return JSON.stringify(value);
    case 'number':
      return Number(value);
    case 'text':
      return String(value);
  }
}

/**
 * THE way records enter a websites database (generator and CSV importer alike): one prepared statement in one
 * transaction. By default each record gets its sort key among the rows already stored, and the table is then
 * analysed so the planner has statistics. An import of many records into a new table passes `sortKeys: 'later'`
 * for each batch (the keys stay NULL) and calls `placeSortKeys` once at the end: the batches need not be held
 * until then, and the listing order is the same as one call with every record.
 */
export function insertWebsites(db: Database, records: readonly WebsiteRecord[], { sortKeys = 'now' }: { sortKeys?: 'now' | 'later' } = {}): void {
  const names = WEBSITE_FIELDS.map(([name]) => `"${name}"`).join(', ');
  const marks = WEBSITE_FIELDS.map(() => '?').join(', ');
  const insert = db.prepare(`INSERT INTO ${WEBSITES_TABLE} (${names}, ${SORT_KEY}) VALUES (${marks}, ?)`);
  try {
    inTransaction(db, () => {
      const keys = sortKeys === 'now' ? sortKeysFor(db, records) : null;
      records.forEach((record, i) => {
        insert.run([...WEBSITE_FIELDS.map(([name, kind]) => toSql(kind, record[name])), keys ? keys[i] : null]);
      });
      if (sortKeys === 'now' && !keys) renumberSortKeys(db);
    });
  } finally {
    insert.free();
  }
  if (sortKeys === 'now') db.run('ANALYZE');
}

/** Every row's sort key by URL (byte order), then insertion order; then ANALYZE. Ends a `sortKeys: 'later'` import. */
export function placeSortKeys(db: Database): void {
  inTransaction(db, () => renumberSortKeys(db));
  db.run('ANALYZE');
}

/** Room left between neighbouring sort keys, so later batches slot in without renumbering the rest. */
const SORT_KEY_GAP = 256;

const utf8 = new TextEncoder();

/** SQLite's BINARY collation: UTF-8 bytes compared in order, a prefix first. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * Sort keys for a batch about to be inserted: each record gets a key between its neighbours among the
 * rows already stored (new rows sort after stored ones with the same URL, and keep batch order among
 * themselves, as their rowids will). Null when some run of new records no longer fits in its gap.
 */
function sortKeysFor(db: Database, records: readonly WebsiteRecord[]): number[] | null {
  const stored = (db.exec(`SELECT target_url, ${SORT_KEY} FROM ${WEBSITES_TABLE} ORDER BY target_url, ${SORT_KEY}`)[0]?.values ?? []).map(([url, key]) => ({
    url: utf8.encode(String(url)),
    key: Number(key),
  }));
  const urls = records.map((r) => utf8.encode(r.target_url));
  const order = records.map((_, i) => i).sort((a, b) => compareBytes(urls[a], urls[b]) || a - b);
  const keys = new Array<number>(records.length);
  let at = 0;
  let previous = 0;
  let run: number[] = [];
  let fits = true;
  const place = (next: number): void => {
    if (next - previous <= run.length) fits = false;
    run.forEach((index, i) => {
      keys[index] = previous + Math.floor(((next - previous) * (i + 1)) / (run.length + 1));
    });
    run = [];
  };
  for (const index of order) {
    while (at < stored.length && compareBytes(stored[at].url, urls[index]) <= 0) {
      if (run.length > 0) place(stored[at].key);
      previous = stored[at++].key;
    }
    run.push(index);
  }
  place(at < stored.length ? stored[at].key : previous + SORT_KEY_GAP * (run.length + 1));
  return fits ? keys : null;
}

/** Every row renumbered in (target_url, rowid) order, gaps restored: only when a gap has run out. */
function renumberSortKeys(db: Database): void {
  const ids = db.exec(`SELECT rowid FROM ${WEBSITES_TABLE} ORDER BY target_url, rowid`)[0]?.values ?? [];
  const update = db.prepare(`UPDATE ${WEBSITES_TABLE} SET ${SORT_KEY} = ? WHERE rowid = ?`);
  try {
    ids.forEach(([id], i) => update.run([(i + 1) * SORT_KEY_GAP, id]));
  } finally {
    update.free();
  }
}

/** Rebuild the file compactly (indexes filled in order); for a finished dataset before it is exported. */
export function compactWebsites(db: Database): void {
  db.run('VACUUM');
}

export function countWebsites(db: Database): number {
  return Number(db.exec(`SELECT COUNT(*) FROM ${WEBSITES_TABLE}`)[0].values[0][0]);
}
