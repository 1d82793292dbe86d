import type { Database } from 'sql.js';
import { RECORD_COLUMN, SORT_KEY, WEBSITES_TABLE } from './schema.ts';
import { allRows } from '../sqlite-rows.ts';

/** The statements as text, exported so a test can check their query plans use the indexes. */
export const BY_TARGET_URL_SQL = `SELECT ${RECORD_COLUMN} FROM ${WEBSITES_TABLE} WHERE target_url = ?1 ORDER BY ${SORT_KEY} LIMIT 1`;
/**
 * The stored records of a JSON array of row ids, each with its place in the array: one statement whatever the page
 * size, each row a primary-key search (CROSS JOIN keeps the array as the outer loop). A row per record, placed by
 * its key in JS: measured on the real records (3 KB each), one `group_concat(… ORDER BY …)` cell took 3.1 ms a
 * filtered page and these rows 0.8 ms (decision 0105).
 */
export const BY_ROWIDS_SQL = `SELECT page.key, ${WEBSITES_TABLE}.${RECORD_COLUMN} FROM json_each(?1) AS page CROSS JOIN ${WEBSITES_TABLE} ON ${WEBSITES_TABLE}.rowid = page.value`;

/** The stored record texts (stored-record.ts) of the given rows, in their order. */
export function selectWebsitesByRowid(db: Database, rowids: readonly number[]): string[] {
  if (rowids.length === 0) return [];
  const records = new Array<string>(rowids.length);
  let found = 0;
  for (const [key, stored] of allRows(db, BY_ROWIDS_SQL, [JSON.stringify(rowids)])) {
    records[Number(key)] = String(stored);
    found++;
  }
  // Every row id comes from the filter index of this very database, so each has its row.
  if (found !== rowids.length) throw new Error(`a page asked for ${rowids.length} websites rows and ${found} were found`);
  return records;
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
