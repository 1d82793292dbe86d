import type { Database, SqlValue } from 'sql.js';
import { WEBSITE_FIELDS, type FieldKind, type WebsiteField, type WebsiteRecord } from './record.ts';
import { FILTER_NAMES } from './parameters.ts';
import { answeredValue, storedRecord } from './stored-record.ts';
import { inTransaction } from '../sqlite-transaction.ts';

export const WEBSITES_TABLE = 'websites';

/**
 * Storage-only column (not a record field): an integer that orders rows like (target_url, rowid), i.e.
 * target_url byte order with ties in insertion order. The engine reads the filter columns once in this
 * order (site-scanning/filter-index.ts) and filters in memory, so no filter column needs an index.
 * insertWebsites keeps it current.
 */
export const SORT_KEY = 'sort_key';

/** Storage-only column: the whole record as its fields' JSON texts (stored-record.ts), what every answer is made of. */
export const RECORD_COLUMN = 'record';

/**
 * The fields also stored as columns of their own, for SQL and the filter index: the record's identity, the API's
 * filters, and what the roll-ups and the snapshot diff count. Every other field lives only in the record text.
 */
export const COLUMN_FIELDS: readonly WebsiteField[] = ['target_url', ...FILTER_NAMES, 'ds_usa_classes', 'ds_banner_heres_how'];

const KIND_OF: ReadonlyMap<WebsiteField, FieldKind> = new Map(WEBSITE_FIELDS);

const SQL_TYPE: Record<FieldKind, string> = {
  text: 'TEXT',
  number: 'NUMERIC',
  boolean: 'INTEGER',
  list: 'TEXT',
  object: 'TEXT',
};

/** The column fields' definitions, for every table that keeps them (the weeks' rows too: weeks-schema.ts). */
export const COLUMN_DEFINITIONS = COLUMN_FIELDS.map((name) =>
  name === 'target_url' ? `"${name}" TEXT NOT NULL` : `"${name}" ${SQL_TYPE[KIND_OF.get(name)!]}`,
).join(', ');

/**
 * One row per record: the column fields (booleans 0/1), the sort key, and the record text. The record text comes
 * last, so a read of the columns alone never touches the pages a long record overflows into.
 */
export function createWebsitesSchema(db: Database): void {
  db.run(`CREATE TABLE ${WEBSITES_TABLE} (${COLUMN_DEFINITIONS}, ${SORT_KEY} INTEGER, ${RECORD_COLUMN} TEXT NOT NULL)`);
  // Covers the sort-key merge of insertWebsites and orders a URL's duplicates for /websites/{url}.
  db.run(`CREATE INDEX websites_by_target_url ON ${WEBSITES_TABLE} (target_url, ${SORT_KEY})`);
}

/** A column field's stored value: as the API answers it, booleans as 0/1. */
function columnValue(kind: FieldKind, value: unknown): SqlValue {
  const answered = answeredValue(kind, value);
  if (typeof answered === 'boolean') return answered ? 1 : 0;
  return answered as SqlValue;
}

/** A record's column fields' stored values, in COLUMN_FIELDS order. */
export function columnValues(record: WebsiteRecord): SqlValue[] {
  return COLUMN_FIELDS.map((name) => columnValue(KIND_OF.get(name)!, record[name]));
}

/**
 * THE way records enter a websites database (generator and CSV importer alike): one prepared statement in one
 * transaction. By default each record gets its sort key among the rows already stored, and the table is then
 * analysed so the planner has statistics. An import of many records into a new table passes `sortKeys: 'later'`
 * for each batch (the keys stay NULL) and calls `placeSortKeys` once at the end: the batches need not be held
 * until then, and the listing order is the same as one call with every record.
 */
export function insertWebsites(db: Database, records: readonly WebsiteRecord[], { sortKeys = 'now' }: { sortKeys?: 'now' | 'later' } = {}): void {
  const names = [...COLUMN_FIELDS.map((name) => `"${name}"`), SORT_KEY, RECORD_COLUMN].join(', ');
  const marks = [...COLUMN_FIELDS, SORT_KEY, RECORD_COLUMN].map(() => '?').join(', ');
  const insert = db.prepare(`INSERT INTO ${WEBSITES_TABLE} (${names}) VALUES (${marks})`);
  try {
    inTransaction(db, () => {
      const keys = sortKeys === 'now' ? sortKeysFor(db, records) : null;
      records.forEach((record, i) => {
        insert.run([...columnValues(record), keys ? keys[i] : null, storedRecord(record)]);
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
 * The records' indices in the engine's listing order: target_url in UTF-8 byte order (SQLite's BINARY
 * collation), then the given order, as the import's sort keys order them.
 */
export function listingOrder(records: readonly Pick<WebsiteRecord, 'target_url'>[]): number[] {
  const urls = records.map((r) => utf8.encode(r.target_url));
  return records.map((_, i) => i).sort((a, b) => compareBytes(urls[a], urls[b]) || a - b);
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
  const order = listingOrder(records);
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

/**
 * Every row renumbered in (target_url, rowid) order, gaps restored: only when a gap has run out. Rows that have a
 * key keep their order (a clustered table's rowids are not its insertion order); rows without one come after them.
 */
function renumberSortKeys(db: Database): void {
  const ids = db.exec(`SELECT rowid FROM ${WEBSITES_TABLE} ORDER BY target_url, ${SORT_KEY} IS NULL, ${SORT_KEY}, rowid`)[0]?.values ?? [];
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

/**
 * The order a shipped table's rows are stored in: sites alike side by side (live or not, then owner, then base
 * domain), so their record texts repeat within gzip's 32 KB window. The real snapshot gzips to 7.8 MB this way,
 * 11.1 MB in listing order. The listing order is the sort key's and does not change.
 */
const CLUSTER_ORDER = ['final_url_live', 'target_url_agency_owner', 'target_url_bureau_owner', 'target_url_domain', 'target_url'];

/** Rewrites the rows in CLUSTER_ORDER: for a finished dataset before it is shipped (then VACUUM it). */
export function clusterWebsites(db: Database): void {
  const columns = [...COLUMN_FIELDS.map((name) => `"${name}"`), SORT_KEY, RECORD_COLUMN].join(', ');
  inTransaction(db, () => {
    db.run(`ALTER TABLE ${WEBSITES_TABLE} RENAME TO ${WEBSITES_TABLE}_unclustered`);
    db.run('DROP INDEX websites_by_target_url');
    createWebsitesSchema(db);
    db.run(
      `INSERT INTO ${WEBSITES_TABLE} (${columns}) SELECT ${columns} FROM ${WEBSITES_TABLE}_unclustered ORDER BY ${CLUSTER_ORDER.map((c) => `"${c}"`).join(', ')}, ${SORT_KEY}`,
    );
    db.run(`DROP TABLE ${WEBSITES_TABLE}_unclustered`);
  });
  db.run('ANALYZE');
}

export function countWebsites(db: Database): number {
  return Number(db.exec(`SELECT COUNT(*) FROM ${WEBSITES_TABLE}`)[0].values[0][0]);
}
