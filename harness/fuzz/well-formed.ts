/**
 * The one rule every fuzzed answer must keep: a well-formed response in its API's own shape. What is
 * expected is worked out from the request alone (path, method, and for CSV the `export` parameter), from
 * the API reference, independently of the engine's router.
 */
import Papa from 'papaparse';
import type { Engine } from '../../engine/index.ts';
import type { ApiResponse } from '../../engine/http/types.ts';

const ORIGIN = 'http://localhost';
const JSON_TYPE = 'application/json; charset=utf-8';
const CEILING_BASES = ['/api/v3/search/ceilingrates', '/acquisition/calc/v3/api/ceilingrates'];
const SITE_GATEWAY = '/technology/site-scanning/v1';

export type Route = { api: 'site'; route: 'websites' | 'website' | 'analysis' | null } | { api: 'ceiling'; route: 'search' | null };

/**
 * Which API and route a path names (null route: a path of that API that names nothing, so 404). Like
 * production's routers, a trailing slash and the letter case of the fixed words do not matter.
 */
export function routeOf(pathname: string): Route {
  const lower = pathname.toLowerCase();
  for (const base of CEILING_BASES) {
    if (lower === base || lower === `${base}/`) return { api: 'ceiling', route: 'search' };
    if (lower.startsWith(`${base}/`)) return { api: 'ceiling', route: null };
  }
  let path = pathname;
  if (lower === SITE_GATEWAY || lower.startsWith(`${SITE_GATEWAY}/`)) path = path.slice(SITE_GATEWAY.length);
  const word = path.toLowerCase();
  if (word === '/websites' || word === '/websites/') return { api: 'site', route: 'websites' };
  if (word === '/analysis' || word === '/analysis/') return { api: 'site', route: 'analysis' };
  if (word.startsWith('/websites/') && path.length > '/websites/'.length) return { api: 'site', route: 'website' };
  return { api: 'site', route: null };
}

/** Every request the fuzz suites send, counted for the report. */
export const tally = { requests: 0, repeats: 0, statuses: new Map<number, number>(), ms: 0, slowest: { ms: 0, url: '' } };

/** The time per request, reported (never asserted: the machine is shared). */
export function timeReport(): string {
  const mean = tally.requests ? tally.ms / tally.requests : 0;
  return `mean ${mean.toFixed(2)} ms a request, slowest ${tally.slowest.ms.toFixed(1)} ms (${describeRequest('GET', tally.slowest.url)})`;
}

/** OWASP's formula starts: `= + - @ |`, tab, carriage return. */
const FORMULA_START = /^[=+\-@|\t\r]/;
const CSV_COLUMNS = 17;
/** The export's numeric columns (experience and the three prices): numbers, written unguarded. */
const NUMERIC_COLUMNS = new Set([10, 11, 12, 13]);
const isNumberCell = (cell: string): boolean => cell.trim() !== '' && Number.isFinite(Number(cell));

/**
 * A failed check. Plain throws, not vitest's `expect`: the checks run ~25 times per request over thousands
 * of requests, where `expect` cost three times the engine's own time. The message names what failed; the
 * caller adds the request.
 */
class Malformed extends Error {}

function must(condition: boolean, what: string): void {
  if (!condition) throw new Malformed(what);
}

function keysOf(value: unknown, what: string): string {
  must(value !== null && typeof value === 'object' && !Array.isArray(value), `${what} is an object`);
  return Object.keys(value as object).join(',');
}

function expectKeys(value: unknown, keys: string, what: string): void {
  const have = keysOf(value, what);
  must(have === keys, `${what} has keys ${keys}, not ${have}`);
}

const isInteger = (value: unknown): boolean => Number.isInteger(value);

function expectSiteError(status: number, body: any): void {
  // Nest ≥ 8 writes message, error, statusCode; the controller's own "no website" 404 is built statusCode first.
  const order = body.message === 'No website found for provided target url' ? 'statusCode,message,error' : 'message,error,statusCode';
  expectKeys(body, order, 'error body');
  must(body.statusCode === status, 'statusCode is the status');
  must(typeof body.error === 'string', 'error is a string');
  const messages = Array.isArray(body.message) ? body.message : [body.message];
  must(messages.length > 0 && messages.every((m: unknown) => typeof m === 'string'), 'message is a string or strings');
}

function expectCeilingError(body: any): void {
  expectKeys(body, 'detail', 'error body');
  must(typeof body.detail === 'string', 'detail is a string');
}

/**
 * The first value of a paging parameter as the API reads it (only called on a 200, so it was valid): Site
 * Scanning floors with a minimum of 1 after validation (`limit=0.5` is 1); ceiling rates take the integer.
 */
function pageParam(params: URLSearchParams, name: string, fallback: number, floor: boolean): number {
  const raw = params.get(name);
  if (raw === null) return fallback;
  return floor ? Math.max(1, Math.floor(Number(raw))) : Number(raw.trim());
}

/** One page of `total` results: how many items page `page` of size `size` holds. */
const pageCount = (total: number, page: number, size: number): number => Math.max(0, Math.min(size, total - (page - 1) * size));

function expectWebsitesPaging(body: any, params: URLSearchParams): void {
  const { meta } = body;
  const page = pageParam(params, 'page', 1, true);
  const limit = pageParam(params, 'limit', 10, true);
  must(meta.currentPage === page, `currentPage ${meta.currentPage} is the page asked for (${page})`);
  must(meta.itemsPerPage === limit, `itemsPerPage ${meta.itemsPerPage} is the limit asked for (${limit})`);
  must(meta.totalPages === Math.ceil(meta.totalItems / limit), 'totalPages = ceil(totalItems / limit)');
  must(meta.itemCount === pageCount(meta.totalItems, page, limit), `itemCount ${meta.itemCount} fits page ${page} of ${meta.totalItems}`);
}

function expectCeilingPaging(body: any, params: URLSearchParams): void {
  if (!body.hits || !body.aggregations?.wage_stats) return;
  const page = pageParam(params, 'page', 1, false);
  const size = pageParam(params, 'page_size', 10, false);
  const { value, relation } = body.hits.total;
  must(relation === 'gte' || body.aggregations.wage_stats.count === value, 'wage_stats.count is the match count');
  must(body.hits.hits.length === pageCount(value, page, size), `${body.hits.hits.length} hits fit page ${page} of size ${size} over ${value}`);
}

function expectWebsitesPage(body: any): void {
  expectKeys(body, 'items,meta,links', 'page');
  expectKeys(body.meta, 'totalItems,itemCount,itemsPerPage,totalPages,currentPage', 'meta');
  expectKeys(body.links, 'first,previous,next,last', 'links');
  const { meta } = body;
  must(Array.isArray(body.items) && body.items.length === meta.itemCount, 'itemCount counts the items');
  must(isInteger(meta.itemsPerPage) && meta.itemsPerPage >= 1 && meta.itemsPerPage <= 100, 'itemsPerPage in 1..100');
  must(body.items.length <= meta.itemsPerPage, 'no more items than itemsPerPage');
  must(meta.currentPage >= 1 && isInteger(meta.totalItems) && isInteger(meta.totalPages), 'page numbers');
  must(
    Object.values(body.links).every((link) => typeof link === 'string'),
    'links are strings',
  );
  must(
    body.items.every((item: any) => typeof item.target_url === 'string'),
    'items are records',
  );
}

function expectAnalysis(body: any): void {
  expectKeys(body, 'queueCounts,total,totalFinalUrlBaseDomains,totalAgencies', 'analysis');
  must(isInteger(body.total) && isInteger(body.totalFinalUrlBaseDomains) && isInteger(body.totalAgencies), 'counts are integers');
}

function expectCeilingSearch(body: any): void {
  const keys = keysOf(body, 'body').split(',');
  if (keys.length > 0 && keys.every((k) => k.endsWith('-suggestion'))) {
    for (const key of keys) {
      must(Array.isArray(body[key]), `${key} is an array`);
      for (const entry of body[key]) expectKeys(entry, 'text,offset,length,options', 'suggestion');
    }
    return;
  }
  expectKeys(body, 'took,timed_out,_shards,hits,aggregations', 'envelope');
  expectKeys(body.hits, 'total,max_score,hits', 'hits');
  const { total, hits } = body.hits;
  must(isInteger(total.value) && total.value >= 0 && total.value <= 10_000, 'hits.total.value in 0..10000');
  must(total.relation === 'eq' || total.relation === 'gte', 'relation eq or gte');
  must(Array.isArray(hits) && hits.length <= 500, 'at most 500 hits');
  for (const hit of hits) {
    expectKeys(hit, '_index,_id,_score,_source,sort', 'hit');
    must(hit._id === String(hit._source.id), '_id is the record id');
  }
  keysOf(body.aggregations, 'aggregations');
}

/** CSV: two metadata rows, the header, then 17-column rows; no cell a spreadsheet would run as a formula. */
export function expectGuardedCsv(body: string): string[][] {
  must(body.endsWith('\r\n'), 'CSV ends with CRLF');
  const parsed = Papa.parse<string[]>(body.slice(0, -2), { delimiter: ',', newline: '\r\n' });
  must(parsed.errors.length === 0, `CSV parses: ${JSON.stringify(parsed.errors.slice(0, 2))}`);
  const rows = parsed.data;
  must(rows[0]?.[0] === 'Search query' && rows[0].length === 2, 'first row: Search query');
  must(rows[1]?.[0] === 'Filters' && rows[1].length === 2, 'second row: Filters');
  must(rows[2]?.[0] === 'Contract #', 'third row: the header');
  for (const row of rows.slice(2)) must(row.length === CSV_COLUMNS, `${CSV_COLUMNS} cells a row`);
  rows.forEach((row, r) =>
    row.forEach((cell, c) => {
      if (r >= 3 && NUMERIC_COLUMNS.has(c) && isNumberCell(cell)) return;
      must(!FORMULA_START.test(cell), `cell ${JSON.stringify(cell.slice(0, 80))} is guarded`);
    }),
  );
  return rows;
}

/** Statuses a route may answer GET with (docs/api). */
const GET_STATUSES: Record<string, readonly number[]> = {
  'site:websites': [200, 400],
  'site:analysis': [200, 400],
  'site:website': [200, 404],
  'ceiling:search': [200, 406],
};

function describeRequest(method: string, url: string): string {
  const shown = url.length > 300 ? `${url.slice(0, 300)}… (${url.length} chars)` : url;
  return `${JSON.stringify(method)} ${JSON.stringify(shown)}`;
}

/** Check one answer against what the request calls for; a failure names the request and the answer. */
export function expectWellFormed(method: string, url: string, response: ApiResponse): void {
  try {
    checkAnswer(method, url, response);
  } catch (error) {
    if (!(error instanceof Malformed)) throw error;
    const { status, body } = response;
    throw new Error(`${describeRequest(method, url)} → ${status} ${body.slice(0, 300)}: ${error.message}`);
  }
}

function checkAnswer(method: string, url: string, response: ApiResponse): void {
  const { status, headers, body } = response;
  must([200, 400, 404, 405, 406].includes(status), 'status is 200, 400, 404, 405 or 406');
  // The service worker copies these into a fetch Response, whose constructor throws on a CR, LF or non-Latin-1 value.
  for (const [name, value] of Object.entries(headers)) {
    must(/^[a-z0-9-]+$/.test(name) && /^[\x20-\x7e]*$/.test(value), `header ${name} is a plain token with a printable ASCII value`);
  }

  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url, ORIGIN);
  } catch {
    // Only a URL the parser refuses gets the engine's own 400, in the Site Scanning shape.
    must(status === 400, 'a URL the parser refuses is a 400');
    if (method.toUpperCase() === 'HEAD') must(body === '', 'HEAD has no body');
    else expectSiteError(400, JSON.parse(body));
    return;
  }
  const target = routeOf(parsedUrl.pathname);
  const verb = method.toUpperCase();
  const isHead = verb === 'HEAD';

  let expected: readonly number[];
  if (target.route === null) expected = [404];
  else if (verb === 'GET' || isHead) expected = GET_STATUSES[`${target.api}:${target.route}`];
  else if (verb === 'OPTIONS' && target.api === 'ceiling') expected = [200];
  // Site Scanning's framework answers another method like a path it has no route for; ceiling rates' says 405.
  else expected = target.api === 'site' ? [404] : [405];
  // Beyond a request size limit (docs/api/limits.md): a {url} over 10,000 characters is a 400; the limit counts
  // it decoded, so only a path longer than that as sent can reach it.
  if (target.api === 'site' && target.route === 'website' && (verb === 'GET' || isHead) && parsedUrl.pathname.length > 10_000) expected = [200, 400, 404];
  must(expected.includes(status), `status is one of ${expected} for ${target.api} ${target.route}`);

  if (target.api === 'ceiling') {
    must(headers.allow === 'GET, HEAD, OPTIONS', 'Allow header');
    must(headers.vary === 'Accept', 'Vary header');
  }
  if (isHead) {
    must(body === '', 'HEAD has no body');
    return;
  }

  // A suggestion request stays one even with export=y (decision 0600).
  const params = parsedUrl.searchParams;
  const csvWanted =
    target.api === 'ceiling' &&
    target.route === 'search' &&
    verb === 'GET' &&
    status === 200 &&
    (params.get('export') ?? '').toLowerCase() === 'y' &&
    !params.has('suggest') &&
    !params.has('suggest-contains');
  if (csvWanted) {
    must(headers['content-type'] === 'text/csv; charset=utf-8', 'CSV content type');
    expectGuardedCsv(body);
    return;
  }

  must(headers['content-type'] === JSON_TYPE, 'JSON content type');
  let json: any;
  try {
    json = JSON.parse(body);
  } catch {
    must(false, 'body is JSON');
  }
  if (target.api === 'site') {
    if (status >= 400) return expectSiteError(status, json);
    if (target.route === 'websites') {
      expectWebsitesPage(json);
      return expectWebsitesPaging(json, params);
    }
    if (target.route === 'analysis') return expectAnalysis(json);
    must(typeof json.target_url === 'string', 'a website record');
    return;
  }
  if (status >= 400) return expectCeilingError(json);
  if (verb === 'OPTIONS') {
    must(body === '{"name":"Ceiling Rates","renders":["application/json"],"parses":["application/json"]}', 'OPTIONS description');
    return;
  }
  expectCeilingSearch(json);
  expectCeilingPaging(json, params);
}

/** A body with its time taken zeroed, the one part of an answer that may differ between two sendings. */
export const withoutTook = (body: string): string => body.replace(/^\{"took":\d+,/, '{"took":0,');

/**
 * Send one request, check it, send a GET again and check it answers the same, and for HEAD also check that the GET of the same URL has the same status and
 * headers. An error thrown by the engine itself propagates and fails the property that called this.
 */
export function send(engine: Engine, method: string, url: string): ApiResponse {
  tally.requests++;
  const started = performance.now();
  const response = engine.handle({ method, url });
  const ms = performance.now() - started;
  tally.ms += ms;
  if (ms > tally.slowest.ms) tally.slowest = { ms, url };
  tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
  expectWellFormed(method, url, response);
  if (method.toUpperCase() === 'GET') {
    // Deterministic: the same request again gives the same answer (`took` aside).
    tally.repeats++;
    const again = engine.handle({ method, url });
    if (again.status !== response.status || withoutTook(again.body) !== withoutTook(response.body)) {
      throw new Error(`${describeRequest(method, url)}: answered ${response.status} then ${again.status}, or with different bodies`);
    }
  }
  if (method.toUpperCase() === 'HEAD') {
    tally.requests++;
    const get = engine.handle({ method: 'GET', url });
    expectWellFormed('GET', url, get);
    const same = get.status === response.status && JSON.stringify(get.headers) === JSON.stringify(response.headers);
    if (!same) throw new Error(`${describeRequest(method, url)}: HEAD ${response.status} differs from GET ${get.status} in status or headers`);
  }
  return response;
}
