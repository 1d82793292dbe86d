import type { Database, SqlValue } from 'sql.js';
import { WEBSITE_FIELDS, type FieldKind, type WebsiteRecord } from '../../worker/engine/site-scanning/record.ts';

export const WEBSITES_TABLE = 'websites';

/**
 * Storage-only column (not a record field): the row's position in target_url byte order (rowid breaks
 * ties). The filter indexes end in this small integer instead of the URL text, which keeps them a third
 * of the size while still returning a filtered page already in order. insertWebsites keeps it current.
 */
export const SORT_KEY = 'sort_key';

/** The columns the API filters on; each gets an index that ends in the sort key, so a one-filter page is read in order. */
export const WEBSITES_FILTER_COLUMNS = [
  'target_url_domain',
  'final_url_domain',
  'final_url_live',
  'target_url_redirects',
  'target_url_agency_owner',
  'target_url_bureau_owner',
  'scan_status',
  'dap_detected_final_url',
] as const satisfies readonly (keyof WebsiteRecord)[];

const SQL_TYPE: Record<FieldKind, string> = {
  text: 'TEXT',
  number: 'NUMERIC',
  boolean: 'INTEGER',
  booleanString: 'INTEGER',
  list: 'TEXT',
  object: 'TEXT',
};

/**
 * One row per record, one column per field in record order. Booleans (including the string-typed
 * final_url_same_domain) are 0/1, lists and objects JSON text, and an empty list is stored as NULL
 * because the API answers it as null.
 */
export function createWebsitesSchema(db: Database): void {
  const columns = WEBSITE_FIELDS.map(([name, kind]) =>
    name === 'target_url' ? `"${name}" TEXT NOT NULL` : `"${name}" ${SQL_TYPE[kind]}`,
  );
  db.run(`CREATE TABLE ${WEBSITES_TABLE} (${columns.join(', ')}, ${SORT_KEY} INTEGER)`);
  db.run(`CREATE INDEX websites_by_target_url ON ${WEBSITES_TABLE} (target_url)`);
  db.run(`CREATE INDEX websites_by_${SORT_KEY} ON ${WEBSITES_TABLE} (${SORT_KEY})`);
  for (const column of WEBSITES_FILTER_COLUMNS) {
    db.run(`CREATE INDEX websites_by_${column} ON ${WEBSITES_TABLE} ("${column}", ${SORT_KEY})`);
  }
}

function toSql(kind: FieldKind, value: unknown): SqlValue {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'boolean':
      return value ? 1 : 0;
    case 'booleanString':
      return value === true || value === 'true' ? 1 : 0;
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
 * THE way records enter a websites database (generator and CSV importer alike): one prepared statement in
 * one transaction that also renumbers the sort key, then ANALYZE so the planner picks the most selective
 * index when filters combine.
 */
export function insertWebsites(db: Database, records: readonly WebsiteRecord[]): void {
  const names = WEBSITE_FIELDS.map(([name]) => `"${name}"`).join(', ');
  const marks = WEBSITE_FIELDS.map(() => '?').join(', ');
  const insert = db.prepare(`INSERT INTO ${WEBSITES_TABLE} (${names}) VALUES (${marks})`);
  db.run('BEGIN');
  try {
    for (const record of records) {
      insert.run(WEBSITE_FIELDS.map(([name, kind]) => toSql(kind, record[name])));
    }
    renumberSortKey(db);
    db.run('COMMIT');
  } catch (error) {
    db.run('ROLLBACK');
    throw error;
  } finally {
    insert.free();
  }
  db.run('ANALYZE');
}

/** Only rows whose position changed are rewritten, so appending a batch stays cheap when it sorts last. */
function renumberSortKey(db: Database): void {
  db.run(
    `UPDATE ${WEBSITES_TABLE} SET ${SORT_KEY} = ranked.n
       FROM (SELECT rowid AS id, ROW_NUMBER() OVER (ORDER BY target_url, rowid) AS n FROM ${WEBSITES_TABLE}) AS ranked
      WHERE ${WEBSITES_TABLE}.rowid = ranked.id AND ${WEBSITES_TABLE}.${SORT_KEY} IS NOT ranked.n`,
  );
}

/** Rebuild the file compactly (indexes filled in order); for a finished dataset before it is exported. */
export function compactWebsites(db: Database): void {
  db.run('VACUUM');
}

export function countWebsites(db: Database): number {
  return Number(db.exec(`SELECT COUNT(*) FROM ${WEBSITES_TABLE}`)[0].values[0][0]);
}
