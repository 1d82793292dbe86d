/**
 * Site Scanning answered from Postgres: the engine's parser, error bodies and envelope (engine/site-scanning),
 * with the filtering, listing order, paging and counts done in SQL over one snapshot. Rows come back with the
 * values the engine's SQLite table holds, so `recordFromRow` shapes them as it does the engine's.
 */
import type pg from 'pg';
import type { SqlValue } from 'sql.js';
import type { RouteContext } from '../../../../engine/http/routes.ts';
import type { ApiResponse } from '../../../../engine/http/types.ts';
import { json } from '../../../../engine/http/respond.ts';
import { parseWebsiteQuery, sizeMessage, type WebsiteFilters } from '../../../../engine/site-scanning/parse-query.ts';
import { FILTER_NAMES, URL_PARAMETER } from '../../../../engine/site-scanning/parameters.ts';
import { analysisBody, recordFromRow, targetUrlKey, websitePage } from '../../../../engine/site-scanning/shape.ts';
import { badRequest, websiteNotFound } from '../../../../engine/site-scanning/errors.ts';
import { quote } from './quote.ts';
import { WEBSITE_COLUMNS } from './websites-schema.ts';

const SELECT_COLUMNS = WEBSITE_COLUMNS.map(quote).join(', ');

export type SnapshotHandler = (pool: pg.Pool, snapshot: string, ctx: RouteContext) => Promise<ApiResponse>;

/**
 * Postgres text cannot hold U+0000, so no stored value contains one: a value with it matches nothing (as in
 * the engine), and is never sent (Postgres would refuse the statement).
 */
const storable = (text: string): boolean => !text.includes('\u0000');

/** The filters as SQL after `snapshot = $1`: exact, case-sensitive equality with the stored value (booleans 0/1). */
function whereOf(snapshot: string, filters: WebsiteFilters): { sql: string; params: unknown[]; filtered: boolean } {
  const params: unknown[] = [snapshot];
  const parts = ['snapshot = $1'];
  for (const name of FILTER_NAMES) {
    const value = filters[name];
    if (value === undefined) continue;
    if (typeof value === 'string' && !storable(value)) return { sql: 'false', params: [], filtered: true };
    params.push(typeof value === 'boolean' ? (value ? 1 : 0) : value);
    parts.push(`${quote(name)} = $${params.length}`);
  }
  return { sql: parts.join(' AND '), params, filtered: parts.length > 1 };
}

/** pg rows as arrays in WEBSITE_FIELDS order, the engine's WebsiteRow. */
const asRow = (row: unknown[]): SqlValue[] => row as SqlValue[];

/**
 * GET /websites: the count and the page in one statement, so both see the same data even while a load
 * commits. The offset may pass 2^31 (page ≤ 10^9, limit ≤ 100): it travels as bigint text.
 */
export const listWebsites: SnapshotHandler = async (pool, snapshot, ctx) => {
  const parsed = parseWebsiteQuery(ctx.query, ctx.search);
  if (!parsed.ok) return badRequest(parsed.messages);
  const { query } = parsed;
  const where = whereOf(snapshot, query.filters);
  const limit = `$${where.params.length + 1}`;
  const offset = `$${where.params.length + 2}`;
  // Without a filter the count is the snapshot's, written by its load: no scan of every row.
  const count = where.filtered
    ? `SELECT count(*) AS total FROM websites WHERE ${where.sql}`
    : 'SELECT records AS total FROM websites_snapshots WHERE snapshot = $1';
  const result = await pool.query({
    text: `SELECT c.total, p.* FROM (${count}) c
             LEFT JOIN LATERAL (SELECT ord, ${SELECT_COLUMNS} FROM websites WHERE ${where.sql}
                                 ORDER BY ord LIMIT ${limit}::bigint OFFSET ${offset}::bigint) p ON true`,
    values: [...where.params, String(query.limit), String((query.page - 1) * query.limit)],
    rowMode: 'array',
  });
  const total = Number(result.rows[0][0]);
  const rows = result.rows.filter((row) => row[1] !== null).map((row) => asRow(row.slice(2)));
  return json(200, websitePage(rows.map(recordFromRow), total, query, ctx.prefix));
};

export const getWebsite: SnapshotHandler = async (pool, snapshot, ctx) => {
  // The limit is on the target URL looked up: a pasted scheme and trailing slashes do not count.
  const key = targetUrlKey(ctx.params.url);
  if (key.length > URL_PARAMETER.maxLength) {
    return badRequest([sizeMessage({ kind: 'length', parameter: URL_PARAMETER.name, limit: URL_PARAMETER.maxLength, actual: key.length })]);
  }
  if (!storable(key)) return websiteNotFound();
  const result = await pool.query({
    text: `SELECT ${SELECT_COLUMNS} FROM websites WHERE snapshot = $1 AND target_url = $2 ORDER BY ord LIMIT 1`,
    values: [snapshot, key],
    rowMode: 'array',
  });
  return result.rows.length > 0 ? json(200, recordFromRow(asRow(result.rows[0]))) : websiteNotFound();
};

/** GET /analysis: the matches, and the distinct final domains and agencies among them (a null is one value). */
/**
 * The /analysis counts of the rows `where` selects: matches, distinct final domains, distinct agencies, over
 * the week's narrow rows of filter columns (schema.ts `websites_filters`), not its wide ones. Groups,
 * not count(DISTINCT): a null is a group of its own, as the engine counts it, and the groups are hashed
 * instead of every value sorted. `load` runs the same statement once per week for the unfiltered answer.
 */
export function analysisCountsSql(where: string): string {
  const distinct = (column: string): string => `(SELECT count(*) FROM (SELECT 1 FROM matches GROUP BY ${quote(column)}) g)`;
  return `WITH matches AS MATERIALIZED (SELECT final_url_domain, target_url_agency_owner FROM websites_filters WHERE ${where})
          SELECT (SELECT count(*) FROM matches), ${distinct('final_url_domain')}, ${distinct('target_url_agency_owner')}`;
}

export const analysis: SnapshotHandler = async (pool, snapshot, ctx) => {
  const parsed = parseWebsiteQuery(ctx.query, ctx.search);
  if (!parsed.ok) return badRequest(parsed.messages);
  const where = whereOf(snapshot, parsed.query.filters);
  const result = await pool.query({
    text: where.filtered ? analysisCountsSql(where.sql) : 'SELECT records, final_url_domains, agencies FROM websites_snapshots WHERE snapshot = $1',
    values: where.params,
    rowMode: 'array',
  });
  const [total, domains, agencies] = result.rows[0].map(Number);
  return json(200, analysisBody({ total, totalFinalUrlBaseDomains: domains, totalAgencies: agencies }));
};

export const WEBSITE_HANDLERS: Record<string, SnapshotHandler> = { websites: listWebsites, website: getWebsite, analysis };
