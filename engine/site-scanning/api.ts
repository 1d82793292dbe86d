import type { Database } from 'sql.js';
import type { ApiDefinition, RouteContext, RouteHandler } from '../http/routes.ts';
import type { ApiResponse } from '../http/types.ts';
import { json, JSON_TYPE, text } from '../http/respond.ts';
import { parseWebsiteQuery, sizeMessage, type WebsiteFilters } from './parse-query.ts';
import { SITE_SCANNING_BASES, SITE_SCANNING_ROUTES, URL_PARAMETER } from './parameters.ts';
import { selectWebsiteByTargetUrl, selectWebsitesByRowid } from './sql.ts';
import { FilterIndex } from './filter-index.ts';
import { analysisBody, targetUrlKey, websitePageJson } from './shape.ts';
import { recordJson } from './stored-record.ts';
import { badRequest, siteScanningErrors, websiteNotFound } from './errors.ts';
import { productionSiteScanning } from './production.ts';

/**
 * What the routes read: the records of one database's websites table, or of one week of the weeks attachment
 * (weeks-store.ts). Positions are places in the listing order (target_url in UTF-8 byte order, then file order).
 */
export interface WebsiteReader {
  /** The positions of the records equal to every given filter, ascending. */
  select(filters: WebsiteFilters): Uint32Array;
  /** Distinct final URL domains and agencies among the records at these positions, null as one value. */
  distinctCounts(positions: Uint32Array): { final_url_domain: number; target_url_agency_owner: number };
  /** The stored texts (stored-record.ts) of positions[offset, offset + limit). */
  page(positions: Uint32Array, offset: number, limit: number): string[];
  /** The stored text of the first record in listing order with this target URL, or null. */
  byUrl(targetUrl: string): string | null;
}

/** GET /websites: validate, select the matches in listing order, read one page's rows, wrap in the envelope. */
function listWebsites(reader: WebsiteReader, ctx: RouteContext): ApiResponse {
  const parsed = parseWebsiteQuery(ctx.query, ctx.search);
  if (!parsed.ok) return badRequest(parsed.messages);
  const { query } = parsed;
  const positions = reader.select(query.filters);
  const offset = (query.page - 1) * query.limit;
  // A page past the end reads nothing.
  const records = offset < positions.length ? reader.page(positions, offset, query.limit) : [];
  return text(200, websitePageJson(records, positions.length, query, ctx.prefix), JSON_TYPE);
}

function getWebsite(reader: WebsiteReader, ctx: RouteContext): ApiResponse {
  // The limit is on the target URL looked up: a pasted scheme and trailing slashes do not count.
  const key = targetUrlKey(ctx.params.url);
  if (key.length > URL_PARAMETER.maxLength) {
    return badRequest([sizeMessage({ kind: 'length', parameter: URL_PARAMETER.name, limit: URL_PARAMETER.maxLength, actual: key.length })]);
  }
  const stored = reader.byUrl(key);
  return stored !== null ? text(200, recordJson(stored), JSON_TYPE) : websiteNotFound();
}

/** GET /analysis: the same filters and validation; page and limit are validated and then ignored. */
function analysis(reader: WebsiteReader, ctx: RouteContext): ApiResponse {
  const parsed = parseWebsiteQuery(ctx.query, ctx.search);
  if (!parsed.ok) return badRequest(parsed.messages);
  const positions = reader.select(parsed.query.filters);
  const distinct = reader.distinctCounts(positions);
  return json(
    200,
    analysisBody({ total: positions.length, totalFinalUrlBaseDomains: distinct.final_url_domain, totalAgencies: distinct.target_url_agency_owner }),
  );
}

/** The routes over one reader of records. */
export function websiteHandlers(reader: WebsiteReader): Record<string, RouteHandler> {
  return {
    websites: (ctx) => listWebsites(reader, ctx),
    website: (ctx) => getWebsite(reader, ctx),
    analysis: (ctx) => analysis(reader, ctx),
  };
}

/** A database's websites table as the routes read it; `filterIndex` is asked by the first listing or analysis request, not at bind. */
function tableReader(db: Database, filterIndex: () => FilterIndex): WebsiteReader {
  return {
    select: (filters) => filterIndex().select(filters).positions,
    distinctCounts: (positions) => filterIndex().distinctCounts(positions),
    page: (positions, offset, limit) => selectWebsitesByRowid(db, filterIndex().rowidsOf(positions, offset, limit)),
    byUrl: (targetUrl) => selectWebsiteByTargetUrl(db, targetUrl),
  };
}

const handlers = (db: Database, filterIndex: () => FilterIndex): Record<string, RouteHandler> => websiteHandlers(tableReader(db, filterIndex));

/** One filter index per database: the bind's, and the one whose bytes are prepared (`prepared.save`) are the same. */
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
  // The filter index as prepared bytes kept beside the database file: a later opening of the same file maps them instead
  // of reading every record's filter columns (decision 0105).
  prepared: {
    save: (db) => filterIndexOf(db).preparedBytes(),
    bind: (db, prepared) => {
      const index = FilterIndex.fromPrepared(prepared, db);
      indexes.set(db, index);
      return handlers(db, () => index);
    },
  },
};
