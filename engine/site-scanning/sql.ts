import type { Database, SqlValue } from 'sql.js';
import { WEBSITE_FIELDS } from './record.ts';
import { allRows } from '../sqlite-rows.ts';

const COLUMNS = WEBSITE_FIELDS.map(([name]) => `"${name}"`).join(', ');

/** Rows come back as arrays in WEBSITE_FIELDS order. */
export type WebsiteRow = SqlValue[];

/** The statements as text, exported so a test can check their query plans use the indexes. */
export const BY_TARGET_URL_SQL = `SELECT ${COLUMNS} FROM websites WHERE target_url = ?1 ORDER BY sort_key LIMIT 1`;
/**
 * The rows of a JSON array of row ids, in the array's order: one statement whatever the page size, each row
 * a primary-key search (CROSS JOIN keeps the array as the outer loop).
 */
export const BY_ROWIDS_SQL = `SELECT ${COLUMNS.split(', ')
  .map((c) => `websites.${c}`)
  .join(', ')} FROM json_each(?1) AS page CROSS JOIN websites ON websites.rowid = page.value ORDER BY page.key`;

export function selectWebsitesByRowid(db: Database, rowids: readonly number[]): WebsiteRow[] {
  return rowids.length ? allRows(db, BY_ROWIDS_SQL, [JSON.stringify(rowids)]) : [];
}

export function selectWebsiteByTargetUrl(db: Database, targetUrl: string): WebsiteRow | null {
  return allRows(db, BY_TARGET_URL_SQL, [targetUrl])[0] ?? null;
}
