/**
 * The previous Site Scanning approach, retained as the benchmark's baseline: every request answered in SQL over
 * the stored table with one `(filter, sort_key)` index per filter column — COUNT(*) for the total,
 * ORDER BY sort_key LIMIT/OFFSET for the page, COUNT(DISTINCT …) for /analysis — and rows shaped as the
 * engine shapes them.
 */
import type { Database } from 'sql.js';
import { FILTER_NAMES } from '../engine/site-scanning/parameters.ts';
import { parseWebsiteQuery } from '../engine/site-scanning/parse-query.ts';
import { whereClause } from '../engine/site-scanning/rollups.ts';
import { analysisBody, websitePageJson } from '../engine/site-scanning/shape.ts';
import { RECORD_COLUMN } from '../engine/site-scanning/schema.ts';
import { allRows } from '../engine/sqlite-rows.ts';

/** The indexes the SQL approach needs (the dataset no longer ships them). */
export function addFilterIndexes(db: Database): void {
  for (const column of FILTER_NAMES) db.run(`CREATE INDEX IF NOT EXISTS websites_by_${column} ON websites ("${column}", sort_key)`);
  db.run('ANALYZE');
}

/** The JSON body for a /websites or /analysis URL. */
export function baselineAnswer(db: Database, url: string): string {
  const parsed = new URL(url, 'http://localhost');
  const result = parseWebsiteQuery(parsed.searchParams);
  if (!result.ok) throw new Error(result.messages.join('; '));
  const { query } = result;
  const w = whereClause(query.filters);
  if (parsed.pathname === '/analysis') {
    const sql =
      w.params.length === 0
        ? `SELECT (SELECT COUNT(*) FROM websites),
                (SELECT COUNT(*) FROM (SELECT DISTINCT final_url_domain FROM websites)),
                (SELECT COUNT(*) FROM (SELECT DISTINCT target_url_agency_owner FROM websites))`
        : `SELECT COUNT(*),
                COUNT(DISTINCT final_url_domain) + COALESCE(MAX(final_url_domain IS NULL), 0),
                COUNT(DISTINCT target_url_agency_owner) + COALESCE(MAX(target_url_agency_owner IS NULL), 0)
           FROM websites ${w.sql}`;
    const [row] = allRows(db, sql, w.params);
    return JSON.stringify(analysisBody({ total: Number(row[0]), totalFinalUrlBaseDomains: Number(row[1]), totalAgencies: Number(row[2]) }));
  }
  const total = Number(allRows(db, `SELECT COUNT(*) FROM websites ${w.sql}`, w.params)[0][0]);
  const offset = (query.page - 1) * query.limit;
  const rows =
    offset < total
      ? allRows(db, `SELECT ${RECORD_COLUMN} FROM websites ${w.sql} ORDER BY sort_key LIMIT ?${w.params.length + 1} OFFSET ?${w.params.length + 2}`, [
          ...w.params,
          query.limit,
          offset,
        ])
      : [];
  return websitePageJson(
    rows.map(([stored]) => String(stored)),
    total,
    query,
    '',
  );
}
