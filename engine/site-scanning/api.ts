import type { Database } from 'sql.js';
import type { ApiDefinition, RouteContext } from '../http/routes.ts';
import type { ApiResponse } from '../http/types.ts';
import { json } from '../http/respond.ts';
import { parseWebsiteQuery } from './params.ts';
import { SITE_SCANNING_BASES, SITE_SCANNING_ROUTES } from './parameters.ts';
import { countWebsites, selectAnalysis, selectWebsiteByTargetUrl, selectWebsitePage, whereClause } from './sql.ts';
import { analysisBody, recordFromRow, targetUrlKey, websitePage } from './shape.ts';
import { badRequest, siteScanningErrors, websiteNotFound } from './errors.ts';

/** GET /websites: validate, count, read one page in target_url order, wrap in the envelope. */
function listWebsites(db: Database, ctx: RouteContext): ApiResponse {
  const parsed = parseWebsiteQuery(ctx.query);
  if (!parsed.ok) return badRequest(parsed.messages);
  const { query } = parsed;
  const where = whereClause(query.filters);
  const total = countWebsites(db, where);
  const offset = (query.page - 1) * query.limit;
  // A page past the end reads nothing (and never binds an offset SQLite cannot hold).
  const rows = offset < total ? selectWebsitePage(db, where, query.limit, offset) : [];
  return json(200, websitePage(rows.map(recordFromRow), total, query));
}

function getWebsite(db: Database, ctx: RouteContext): ApiResponse {
  const row = selectWebsiteByTargetUrl(db, targetUrlKey(ctx.params.url));
  return row ? json(200, recordFromRow(row)) : websiteNotFound();
}

/** GET /analysis: the same filters and validation; page and limit are validated and then ignored. */
function analysis(db: Database, ctx: RouteContext): ApiResponse {
  const parsed = parseWebsiteQuery(ctx.query);
  if (!parsed.ok) return badRequest(parsed.messages);
  return json(200, analysisBody(selectAnalysis(db, whereClause(parsed.query.filters))));
}

export const siteScanningApi: ApiDefinition = {
  id: 'site-scanning',
  dataset: 'websites',
  bases: SITE_SCANNING_BASES,
  routes: SITE_SCANNING_ROUTES,
  allow: ['GET'],
  errors: siteScanningErrors,
  bind: (db) => ({
    websites: (ctx) => listWebsites(db, ctx),
    website: (ctx) => getWebsite(db, ctx),
    analysis: (ctx) => analysis(db, ctx),
  }),
};
