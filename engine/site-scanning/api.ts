import type { Database } from 'sql.js';
import type { ApiDefinition, RouteContext, RouteHandler } from '../http/routes.ts';
import type { ApiResponse } from '../http/types.ts';
import { json, JSON_TYPE, text } from '../http/respond.ts';
import { parseWebsiteQuery, sizeMessage } from './parse-query.ts';
import { SITE_SCANNING_BASES, SITE_SCANNING_ROUTES, URL_PARAMETER } from './parameters.ts';
import { selectWebsiteByTargetUrl, selectWebsitesByRowid } from './sql.ts';
import { FilterIndex } from './filter-index.ts';
import { analysisBody, targetUrlKey, websitePageJson } from './shape.ts';
import { recordJson } from './stored-record.ts';
import { badRequest, siteScanningErrors, websiteNotFound } from './errors.ts';
import { productionSiteScanning } from './production.ts';

/** GET /websites: validate, select the matches in listing order, read one page's rows, wrap in the envelope. */
function listWebsites(db: Database, filterIndex: () => FilterIndex, ctx: RouteContext): ApiResponse {
  const parsed = parseWebsiteQuery(ctx.query, ctx.search);
  if (!parsed.ok) return badRequest(parsed.messages);
  const { query } = parsed;
  const index = filterIndex();
  const { positions } = index.select(query.filters);
  const offset = (query.page - 1) * query.limit;
  // A page past the end reads nothing.
  const records = offset < positions.length ? selectWebsitesByRowid(db, index.rowidsOf(positions, offset, query.limit)) : [];
  return text(200, websitePageJson(records, positions.length, query, ctx.prefix), JSON_TYPE);
}

function getWebsite(db: Database, ctx: RouteContext): ApiResponse {
  // The limit is on the target URL looked up: a pasted scheme and trailing slashes do not count.
  const key = targetUrlKey(ctx.params.url);
  if (key.length > URL_PARAMETER.maxLength) {
    return badRequest([sizeMessage({ kind: 'length', parameter: URL_PARAMETER.name, limit: URL_PARAMETER.maxLength, actual: key.length })]);
  }
  const stored = selectWebsiteByTargetUrl(db, key);
  return stored !== null ? text(200, recordJson(stored), JSON_TYPE) : websiteNotFound();
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

/** The routes over one database; `filterIndex` is asked by the first listing or analysis request, not at bind. */
function handlers(db: Database, filterIndex: () => FilterIndex): Record<string, RouteHandler> {
  return {
    websites: (ctx) => listWebsites(db, filterIndex, ctx),
    website: (ctx) => getWebsite(db, ctx),
    analysis: (ctx) => analysis(filterIndex, ctx),
  };
}

/** One filter index per database: the bind's, and the one whose bytes are kept (`prepared.save`) are the same. */
const indexes = new WeakMap<Database, FilterIndex>();
function filterIndexOf(db: Database): FilterIndex {
  let index = indexes.get(db);
  if (!index) indexes.set(db, (index = FilterIndex.load(db)));
  return index;
}

export const siteScanningApi: ApiDefinition = {
  id: 'site-scanning',
  dataset: 'websites',
  snapshots: true,
  bases: SITE_SCANNING_BASES,
  routes: SITE_SCANNING_ROUTES,
  allow: ['GET'],
  errors: siteScanningErrors,
  // Read by the first valid listing or analysis request, not at bind: /websites/{url} never needs it, and bad
  // input is answered before the database is touched.
  bind: (db) => handlers(db, () => filterIndexOf(db)),
  production: productionSiteScanning,
  // The filter index as bytes kept beside the database file: a later opening of the same file maps them instead
  // of reading every record's filter columns (decision 0105).
  prepared: {
    save: (db) => filterIndexOf(db).preparedBytes(),
    bind: (db, kept) => {
      const index = FilterIndex.fromPrepared(kept, db);
      indexes.set(db, index);
      return handlers(db, () => index);
    },
  },
};
