import type { Database, SqlValue } from 'sql.js';
import { WEBSITE_FIELDS } from './record.ts';

const COLUMNS = WEBSITE_FIELDS.map(([name]) => `"${name}"`).join(', ');

/** Rows come back as arrays in WEBSITE_FIELDS order. */
export type WebsiteRow = SqlValue[];

/** Run one statement with bound parameters and free it, whatever happens. */
function all(db: Database, sql: string, params: SqlValue[]): SqlValue[][] {
  const statement = db.prepare(sql);
  try {
    statement.bind(params);
    const rows: SqlValue[][] = [];
    while (statement.step()) rows.push(statement.get());
    return rows;
  } finally {
    statement.free();
  }
}

/** The statements as text, exported so a test can check their query plans use the indexes. */
export const BY_TARGET_URL_SQL = `SELECT ${COLUMNS} FROM websites WHERE target_url = ?1 ORDER BY sort_key LIMIT 1`;
/**
 * The rows of a JSON array of row ids, in the array's order: one statement whatever the page size, each row
 * a primary-key search (CROSS JOIN keeps the array as the outer loop).
 */
export const BY_ROWIDS_SQL = `SELECT ${COLUMNS.split(', ').map((c) => `websites.${c}`).join(', ')} FROM json_each(?1) AS page CROSS JOIN websites ON websites.rowid = page.value ORDER BY page.key`;

export function selectWebsitesByRowid(db: Database, rowids: readonly number[]): WebsiteRow[] {
  return rowids.length ? all(db, BY_ROWIDS_SQL, [JSON.stringify(rowids)]) : [];
}

export function selectWebsiteByTargetUrl(db: Database, targetUrl: string): WebsiteRow | null {
  return all(db, BY_TARGET_URL_SQL, [targetUrl])[0] ?? null;
}
