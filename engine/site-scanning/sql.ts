import type { Database, SqlValue } from 'sql.js';
import { WEBSITE_FIELDS } from './record.ts';
import { FILTER_NAMES } from './parameters.ts';
import type { WebsiteFilters } from './params.ts';

export interface WhereClause {
  sql: string;
  params: SqlValue[];
}

/** Exact, case-sensitive equality per filter, ANDed; booleans are stored as 0/1. Values are always bound. */
export function whereClause(filters: WebsiteFilters): WhereClause {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  for (const name of FILTER_NAMES) {
    const value = filters[name];
    if (value === undefined) continue;
    // Numbered, so LIMIT and OFFSET can follow at known positions.
    parts.push(`"${name}" = ?${params.length + 1}`);
    params.push(typeof value === 'boolean' ? (value ? 1 : 0) : value);
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

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
export const countSql = (where: WhereClause): string => `SELECT COUNT(*) FROM websites ${where.sql}`;
/** sort_key is the row's rank in target_url byte order (site-scanning/schema.ts). */
export const pageSql = (where: WhereClause): string =>
  `SELECT ${COLUMNS} FROM websites ${where.sql} ORDER BY sort_key LIMIT ?${where.params.length + 1} OFFSET ?${where.params.length + 2}`;
export const BY_TARGET_URL_SQL = `SELECT ${COLUMNS} FROM websites WHERE target_url = ?1 ORDER BY sort_key LIMIT 1`;
/**
 * Unfiltered, each count reads only its own covering index (DISTINCT keeps NULL as one value); filtered,
 * one pass over the matching rows beats three, and NULL is added back to COUNT(DISTINCT) by hand.
 */
export const analysisSql = (where: WhereClause): string =>
  where.params.length === 0
    ? `SELECT (SELECT COUNT(*) FROM websites),
              (SELECT COUNT(*) FROM (SELECT DISTINCT final_url_domain FROM websites)),
              (SELECT COUNT(*) FROM (SELECT DISTINCT target_url_agency_owner FROM websites))`
    : `SELECT COUNT(*),
              COUNT(DISTINCT final_url_domain) + COALESCE(MAX(final_url_domain IS NULL), 0),
              COUNT(DISTINCT target_url_agency_owner) + COALESCE(MAX(target_url_agency_owner IS NULL), 0)
         FROM websites ${where.sql}`;

export function countWebsites(db: Database, where: WhereClause): number {
  return Number(all(db, countSql(where), where.params)[0][0]);
}

/** One page in target_url byte order (rowid breaks ties between duplicate target URLs). */
export function selectWebsitePage(db: Database, where: WhereClause, limit: number, offset: number): WebsiteRow[] {
  return all(db, pageSql(where), [...where.params, limit, offset]);
}

export function selectWebsiteByTargetUrl(db: Database, targetUrl: string): WebsiteRow | null {
  return all(db, BY_TARGET_URL_SQL, [targetUrl])[0] ?? null;
}

export interface AnalysisCounts {
  total: number;
  totalFinalUrlBaseDomains: number;
  totalAgencies: number;
}

/** Counts over the matching records; a null final domain or agency counts as one distinct value. */
export function selectAnalysis(db: Database, where: WhereClause): AnalysisCounts {
  const [row] = all(db, analysisSql(where), where.params);
  return { total: Number(row[0]), totalFinalUrlBaseDomains: Number(row[1]), totalAgencies: Number(row[2]) };
}
