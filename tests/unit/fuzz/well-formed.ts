/**
 * The one rule every fuzzed answer must keep: a well-formed response in its API's own shape. What is
 * expected is worked out from the request alone (path, method, and for CSV the `export` parameter), from
 * semantics.md, independently of the engine's router.
 */
import { expect } from 'vitest';
import Papa from 'papaparse';
import type { Engine } from '../../../worker/engine/index.ts';
import type { ApiResponse } from '../../../worker/engine/http/types.ts';

const ORIGIN = 'http://localhost';
const JSON_TYPE = 'application/json; charset=utf-8';
const CEILING_BASES = ['/api/v3/search/ceilingrates', '/acquisition/calc/v3/api/ceilingrates'];
const SITE_GATEWAY = '/technology/site-scanning/v1';

export type Route =
  | { api: 'site'; route: 'websites' | 'website' | 'analysis' | null }
  | { api: 'ceiling'; route: 'search' | null };

/** Which API and route a path names (null route: a path of that API that names nothing, so 404). */
export function routeOf(pathname: string): Route {
  for (const base of CEILING_BASES) {
    if (pathname === base || pathname === `${base}/`) return { api: 'ceiling', route: 'search' };
    if (pathname.startsWith(`${base}/`)) return { api: 'ceiling', route: null };
  }
  let path = pathname;
  if (path === SITE_GATEWAY || path.startsWith(`${SITE_GATEWAY}/`)) path = path.slice(SITE_GATEWAY.length);
  if (path === '/websites') return { api: 'site', route: 'websites' };
  if (path === '/analysis') return { api: 'site', route: 'analysis' };
  if (path.startsWith('/websites/') && path.length > '/websites/'.length) return { api: 'site', route: 'website' };
  return { api: 'site', route: null };
}

/** Every request the fuzz suites send, counted for the report. */
export const tally = { requests: 0 };

const FORMULA_START = /^[=+\-@|]/;
const CSV_COLUMNS = 17;

function keysOf(value: unknown): string[] {
  expect(value !== null && typeof value === 'object' && !Array.isArray(value), 'an object').toBe(true);
  return Object.keys(value as object);
}

function expectSiteError(status: number, body: any): void {
  expect(keysOf(body)).toEqual(['statusCode', 'message', 'error']);
  expect(body.statusCode).toBe(status);
  expect(typeof body.error).toBe('string');
  if (Array.isArray(body.message)) {
    expect(body.message.length).toBeGreaterThan(0);
    for (const m of body.message) expect(typeof m).toBe('string');
  } else {
    expect(typeof body.message).toBe('string');
  }
}

function expectCeilingError(body: any): void {
  expect(keysOf(body)).toEqual(['detail']);
  expect(typeof body.detail).toBe('string');
}

function expectWebsitesPage(body: any): void {
  expect(keysOf(body)).toEqual(['items', 'meta', 'links']);
  expect(keysOf(body.meta)).toEqual(['totalItems', 'itemCount', 'itemsPerPage', 'totalPages', 'currentPage']);
  expect(keysOf(body.links)).toEqual(['first', 'previous', 'next', 'last']);
  expect(Array.isArray(body.items)).toBe(true);
  expect(body.items.length).toBe(body.meta.itemCount);
  expect(body.items.length).toBeLessThanOrEqual(body.meta.itemsPerPage);
  expect(body.meta.itemsPerPage).toBeGreaterThanOrEqual(1);
  expect(body.meta.itemsPerPage).toBeLessThanOrEqual(100);
  expect(body.meta.currentPage).toBeGreaterThanOrEqual(1);
  for (const link of Object.values(body.links)) expect(typeof link).toBe('string');
  for (const item of body.items) expect(typeof item.target_url).toBe('string');
}

function expectAnalysis(body: any): void {
  expect(keysOf(body)).toEqual(['queueCounts', 'total', 'totalFinalUrlBaseDomains', 'totalAgencies']);
  for (const key of ['total', 'totalFinalUrlBaseDomains', 'totalAgencies']) expect(Number.isInteger(body[key])).toBe(true);
}

function expectCeilingSearch(body: any): void {
  const keys = keysOf(body);
  if (keys.length > 0 && keys.every((k) => k.endsWith('-suggestion'))) {
    for (const key of keys) {
      expect(Array.isArray(body[key])).toBe(true);
      for (const entry of body[key]) expect(keysOf(entry)).toEqual(['text', 'offset', 'length', 'options']);
    }
    return;
  }
  expect(keys).toEqual(['took', 'timed_out', '_shards', 'hits', 'aggregations']);
  expect(keysOf(body.hits)).toEqual(['total', 'max_score', 'hits']);
  expect(body.hits.total.value).toBeGreaterThanOrEqual(0);
  expect(body.hits.total.value).toBeLessThanOrEqual(10_000);
  expect(['eq', 'gte']).toContain(body.hits.total.relation);
  expect(body.hits.hits.length).toBeLessThanOrEqual(500);
  for (const hit of body.hits.hits) {
    expect(keysOf(hit)).toEqual(['_index', '_id', '_score', '_source', 'sort']);
    expect(hit._id).toBe(String(hit._source.id));
  }
  keysOf(body.aggregations);
}

/** CSV: two metadata rows, the header, then 17-column rows; no cell a spreadsheet would run as a formula. */
export function expectGuardedCsv(body: string): string[][] {
  expect(body.endsWith('\r\n')).toBe(true);
  const parsed = Papa.parse<string[]>(body.slice(0, -2), { delimiter: ',', newline: '\r\n' });
  expect(parsed.errors).toEqual([]);
  const rows = parsed.data;
  expect(rows[0][0]).toBe('Search query');
  expect(rows[1][0]).toBe('Filters');
  expect(rows[2][0]).toBe('Contract #');
  expect(rows[0]).toHaveLength(2);
  expect(rows[1]).toHaveLength(2);
  for (const row of rows.slice(2)) expect(row).toHaveLength(CSV_COLUMNS);
  for (const row of rows) for (const cell of row) expect(cell, `cell ${JSON.stringify(cell)}`).not.toMatch(FORMULA_START);
  return rows;
}

/** Statuses a route may answer GET with (semantics.md). */
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

/** Check one answer against what the request calls for. */
export function expectWellFormed(method: string, url: string, response: ApiResponse): void {
  const what = describeRequest(method, url);
  const { status, headers, body } = response;
  expect([200, 400, 404, 405, 406], `${what} → ${status} ${body.slice(0, 300)}`).toContain(status);

  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url, ORIGIN);
  } catch {
    // Only a URL the parser refuses gets the engine's own 400, in the Site Scanning shape.
    expect(status, what).toBe(400);
    if (method.toUpperCase() === 'HEAD') expect(body, what).toBe('');
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
  else expected = [405];
  expect(expected, `${what} → ${status} ${body.slice(0, 300)}`).toContain(status);

  if (target.api === 'ceiling') {
    expect(headers.allow, what).toBe('GET, HEAD, OPTIONS');
    expect(headers.vary, what).toBe('Accept');
  }
  if (isHead) {
    expect(body, what).toBe('');
    return;
  }

  // A suggestion request stays one even with export=y (decision 0600).
  const params = parsedUrl.searchParams;
  const csvWanted = target.api === 'ceiling' && target.route === 'search' && verb === 'GET' && status === 200 &&
    (params.get('export') ?? '').toLowerCase() === 'y' && !params.has('suggest') && !params.has('suggest-contains');
  if (csvWanted) {
    expect(headers['content-type'], what).toBe('text/csv; charset=utf-8');
    expectGuardedCsv(body);
    return;
  }

  expect(headers['content-type'], what).toBe(JSON_TYPE);
  let parsed: unknown;
  expect(() => (parsed = JSON.parse(body)), `${what}: body is JSON`).not.toThrow();
  const json = parsed as any;
  if (target.api === 'site') {
    if (status >= 400) return expectSiteError(status, json);
    if (target.route === 'websites') return expectWebsitesPage(json);
    if (target.route === 'analysis') return expectAnalysis(json);
    expect(typeof json.target_url, what).toBe('string');
    return;
  }
  if (status >= 400) return expectCeilingError(json);
  if (verb === 'OPTIONS') {
    expect(json).toEqual({ name: 'Ceiling Rates', renders: ['application/json'], parses: ['application/json'] });
    return;
  }
  expectCeilingSearch(json);
}

/**
 * Send one request, check it, and for HEAD also check that the GET of the same URL has the same status and
 * headers. Never throws from the engine: a thrown error fails the property that called this.
 */
export function send(engine: Engine, method: string, url: string): ApiResponse {
  tally.requests++;
  const response = engine.handle({ method, url });
  expectWellFormed(method, url, response);
  if (method.toUpperCase() === 'HEAD') {
    tally.requests++;
    const get = engine.handle({ method: 'GET', url });
    expectWellFormed('GET', url, get);
    expect(response.status).toBe(get.status);
    expect(response.headers).toEqual(get.headers);
  }
  return response;
}
