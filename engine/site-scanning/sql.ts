import type { Database } from 'sql.js';
import { RECORD_COLUMN, SORT_KEY, WEBSITES_TABLE } from './schema.ts';
import { allRows } from '../sqlite-rows.ts';

/** The statements as text, exported so a test can check their query plans use the indexes. */
export const BY_TARGET_URL_SQL = `SELECT ${RECORD_COLUMN} FROM ${WEBSITES_TABLE} WHERE target_url = ?1 ORDER BY ${SORT_KEY} LIMIT 1`;
/** Between two stored records in a page's one cell: a control character, which no stored record holds. */
const PAGE_SEPARATOR = '\u0002';

/**
 * The stored records of a JSON array of row ids, in the array's order, as one text (one cell crosses from sql.js,
 * not a row per record): one statement whatever the page size, each row a primary-key search (CROSS JOIN keeps the
 * array as the outer loop).
 */
export const BY_ROWIDS_SQL = `SELECT group_concat(${WEBSITES_TABLE}.${RECORD_COLUMN}, char(2) ORDER BY page.key) FROM json_each(?1) AS page CROSS JOIN ${WEBSITES_TABLE} ON ${WEBSITES_TABLE}.rowid = page.value`;

/** The stored record texts (stored-record.ts) of the given rows, in their order. */
export function selectWebsitesByRowid(db: Database, rowids: readonly number[]): string[] {
  if (rowids.length === 0) return [];
  const joined = allRows(db, BY_ROWIDS_SQL, [JSON.stringify(rowids)])[0]?.[0] ?? null;
  return joined === null ? [] : String(joined).split(PAGE_SEPARATOR);
}

/** The stored record text of the first record (in listing order) with this target URL. */
export function selectWebsiteByTargetUrl(db: Database, targetUrl: string): string | null {
  const row = allRows(db, BY_TARGET_URL_SQL, [targetUrl])[0];
  return row ? String(row[0]) : null;
}

/** Every stored record text, in listing order. */
export function selectAllWebsites(db: Database): string[] {
  return allRows(db, `SELECT ${RECORD_COLUMN} FROM ${WEBSITES_TABLE} ORDER BY ${SORT_KEY}`, []).map(([stored]) => String(stored));
}
