import type { Database } from 'sql.js';
import type { ApiDefinition, RouteContext } from '../http/routes.ts';
import type { ApiResponse } from '../http/types.ts';
import { json } from '../http/respond.ts';
import { parseWebsiteQuery, sizeMessage } from './parse-query.ts';
import { SITE_SCANNING_BASES, SITE_SCANNING_ROUTES, URL_PARAMETER } from './parameters.ts';
import { selectWebsiteByTargetUrl, selectWebsitesByRowid } from './sql.ts';
import { FilterIndex } from './filter-index.ts';
import { analysisBody, recordFromRow, targetUrlKey, websitePage } from './shape.ts';
import { badRequest, siteScanningErrors, websiteNotFound } from './errors.ts';

/** GET /websites: validate, select the matches in listing order, read one page's rows, wrap in the envelope. */
function listWebsites(db: Database, filterIndex: () => FilterIndex, ctx: RouteContext): ApiResponse {
  const parsed = parseWebsiteQuery(ctx.query, ctx.search);
  if (!parsed.ok) return badRequest(parsed.messages);
  const { query } = parsed;
  const index = filterIndex();
  const { positions } = index.select(query.filters);
  const offset = (query.page - 1) * query.limit;
  // A page past the end reads nothing.
  const rows = offset < positions.length ? selectWebsitesByRowid(db, index.rowidsOf(positions, offset, query.limit)) : [];
  return json(200, websitePage(rows.map(recordFromRow), positions.length, query));
}

function getWebsite(db: Database, ctx: RouteContext): ApiResponse {
  // The limit is on the target URL looked up: a pasted scheme and trailing slashes do not count.
  const key = targetUrlKey(ctx.params.url);
  if (key.length > URL_PARAMETER.maxLength) {
    return badRequest([sizeMessage({ kind: 'length', parameter: URL_PARAMETER.name, limit: URL_PARAMETER.maxLength, actual: key.length })]);
  }
  const row = selectWebsiteByTargetUrl(db, key);
  return row ? json(200, recordFromRow(row)) : websiteNotFound();
}

/** GET /analysis: the same filters and validation; page and limit are validated and then ignored. */
function analysis(filterIndex: () => FilterIndex, ctx: RouteContext): ApiResponse {
  const parsed = parseWebsiteQuery(ctx.query, ctx.search);
  if (!parsed.ok) return badRequest(parsed.messages);
  const index = filterIndex();
  const { positions } = index.select(parsed.query.filters);
  const distinct = index.distinctCounts(positions);
  return json(
    200,
    analysisBody({ total: positions.length, totalFinalUrlBaseDomains: distinct.final_url_domain, totalAgencies: distinct.target_url_agency_owner }),
  );
}

export const siteScanningApi: ApiDefinition = {
  id: 'site-scanning',
  dataset: 'websites',
  snapshots: true,
  bases: SITE_SCANNING_BASES,
  routes: SITE_SCANNING_ROUTES,
  allow: ['GET'],
  errors: siteScanningErrors,
  bind: (db) => {
    // Read by the first valid listing or analysis request, not at bind: /websites/{url} never needs it,
    // and bad input is answered before the database is touched.
    let index: FilterIndex | undefined;
    const filterIndex = (): FilterIndex => (index ??= FilterIndex.load(db));
    return {
      websites: (ctx) => listWebsites(db, filterIndex, ctx),
      website: (ctx) => getWebsite(db, ctx),
      analysis: (ctx) => analysis(filterIndex, ctx),
    };
  },
};
