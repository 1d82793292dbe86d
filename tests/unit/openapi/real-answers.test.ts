/**
 * The OpenAPI documents describe what the default (real) data answers, not only the generated data: a seeded
 * sample of requests built from the real records' own values (both APIs), every record of the real snapshot
 * (the whole listing, page by page), and each documented error status, validated against the document of its
 * API, status by status. A schema that says object-or-null where 13,997 real records hold `""` fails here.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createEngine, type Engine } from '../../../engine/index.ts';
import type { ApiRequest, ApiResponse } from '../../../engine/http/types.ts';
import { ceilingRatesApi } from '../../../engine/ceilingrates/api.ts';
import { siteScanningApi } from '../../../engine/site-scanning/api.ts';
import { ceilingRatesDocument, siteScanningDocument, type OpenApiDocument } from '../../../engine/openapi/documents.ts';
import { inProductionDialect } from '../../../engine/openapi/production.ts';
import type { Dialect } from '../../../engine/dialect/dialect.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { NEWEST_WEEK } from '../../../tools/site-scanning-source/shipped-weeks.ts';
import { realRates, realWeek } from '../../../harness/real-fixtures.ts';
import { ratesFromDataArb, websitesFromDataArb } from '../../../harness/requests-from-data.ts';
import { ceilingPathArb, queryArb, siteListPathArb, websiteByUrlPathArb } from '../../../harness/fuzz/requests.ts';
import { runs } from '../fuzz/runs.ts';

const SEED = 20_250_609;
const SAMPLED = 400;
const HOSTILE = 300;
const RATES = '/api/v3/search/ceilingrates/';

type Api = 'site-scanning' | 'ceiling-rates';
/** Each dialect's documents: the production dialect's are the interface's with its answers' schemas (engine/openapi/production.ts). */
const DOCUMENTS: Record<Dialect, Record<Api, OpenApiDocument>> = {
  interface: { 'site-scanning': siteScanningDocument(), 'ceiling-rates': ceilingRatesDocument() },
  production: { 'site-scanning': inProductionDialect(siteScanningDocument()), 'ceiling-rates': inProductionDialect(ceilingRatesDocument()) },
};

interface Responses {
  [status: string]: { content?: Record<string, unknown>; headers?: Record<string, unknown> };
}

/** One compiled validator per document path, status and media type. */
class Checker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly id: string;
  constructor(
    private readonly api: Api,
    private readonly dialect: Dialect = 'interface',
  ) {
    this.id = `https://offline-gov-api.local/${dialect}/${api}.json`;
    addFormats.default(this.ajv);
    this.ajv.addSchema({ ...DOCUMENTS[dialect][api], $id: this.id });
  }

  /**
   * The document's path of a request's URL (below its server), or null for a path the document does not describe
   * (a hostile `/websites/../x` is the path `/x`, which no API has).
   */
  path(url: string): string | null {
    const { pathname } = new URL(url, 'http://localhost');
    if (this.api === 'ceiling-rates') {
      return /^\/(api\/v3\/search|acquisition\/calc\/v3\/api)\/ceilingrates(\/|$)/.test(pathname) ? '/acquisition/calc/v3/api/ceilingrates' : null;
    }
    const below = pathname.replace(/^\/technology\/site-scanning\/v1(?=\/)/, '');
    if (/^\/websites\/?$/i.test(below)) return '/websites';
    if (/^\/analysis\/?$/i.test(below)) return '/analysis';
    return /^\/websites\/.+/i.test(below) ? '/websites/{url}' : null;
  }

  /** Problems of one answer against the document; empty when it conforms. */
  check(url: string, method: string, answer: ApiResponse): string[] {
    const path = this.path(url);
    if (path === null) return [`${url}: not a path of the document`];
    const operation = DOCUMENTS[this.dialect][this.api].paths[path]?.get as { responses: Responses } | undefined;
    if (!operation) return [`${path}: not in the document`];
    const response = operation.responses[String(answer.status)];
    if (!response) return [`${method} ${path}: status ${answer.status} is not documented`];
    const problems: string[] = [];
    for (const header of Object.keys(response.headers ?? {})) {
      if (answer.headers[header.toLowerCase()] === undefined) problems.push(`${path} ${answer.status}: header ${header} is missing`);
    }
    if (answer.status === 503 && !response.headers?.['Retry-After']) problems.push(`${path} 503: Retry-After is not declared`);
    const type = (answer.headers['content-type'] ?? '').split(';')[0];
    if (!response.content?.[type]) return [...problems, `${path} ${answer.status}: ${type} is not documented`];
    if (type !== 'application/json') return problems;
    const key = `${path} ${answer.status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const pointer = ['paths', path, 'get', 'responses', String(answer.status), 'content', type, 'schema']
        .map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1'))
        .join('/');
      validate = this.ajv.compile({ $ref: `${this.id}#/${pointer}` });
      this.compiled.set(key, validate);
    }
    if (validate(JSON.parse(answer.body))) return problems;
    return [...problems, ...(validate.errors ?? []).map((e) => `${key}: ${e.instancePath.replace(/\/\d+\//g, '/*/')} ${e.message}`)];
  }
}

let engine: Engine;
let samples: { api: Api; request: ApiRequest }[];
let checkers: Record<Api, Checker>;
let productionCheckers: Record<Api, Checker>;
let total: number;
/** Price bounds that cut the real rates into ranges of at most 10,000 (the deepest a search pages). */
let priceBounds: number[];

beforeAll(async () => {
  const SQL = await loadSqlJs();
  const websites = (await realWeek(SQL, NEWEST_WEEK)).db;
  const rates = (await realRates(SQL)).db;
  engine = createEngine();
  engine.use('websites', websites);
  engine.use('ceilingrates', rates);
  total = Number(websites.exec('SELECT count(*) FROM websites')[0].values[0][0]);
  const prices = rates.exec('SELECT current_price FROM ceilingrates ORDER BY current_price')[0].values.map((row) => Number(row[0]));
  priceBounds = [...prices.filter((_, i) => i % 9_000 === 0), prices.at(-1)!];
  samples = [
    ...fc.sample(websitesFromDataArb(websites), { seed: SEED, numRuns: SAMPLED }).map((request) => ({ api: 'site-scanning' as const, request })),
    ...fc.sample(ratesFromDataArb(rates), { seed: SEED, numRuns: SAMPLED }).map((request) => ({ api: 'ceiling-rates' as const, request })),
  ];
  checkers = { 'site-scanning': new Checker('site-scanning'), 'ceiling-rates': new Checker('ceiling-rates') };
  productionCheckers = { 'site-scanning': new Checker('site-scanning', 'production'), 'ceiling-rates': new Checker('ceiling-rates', 'production') };
});

/** Every problem, counted by kind, so one run names every mismatch at once (and how many answers have it). */
function problemsOf(
  requests: readonly { api: Api; request: ApiRequest }[],
  statuses: Map<string, number>,
  dialect: Dialect = 'interface',
): Map<string, number> {
  const problems = new Map<string, number>();
  const checking = dialect === 'interface' ? checkers : productionCheckers;
  for (const { api, request } of requests) {
    // Outside the documents' paths (dot segments leading out of the API): nothing to check against.
    if (checking[api].path(request.url) === null) continue;
    const answer = engine.handle(dialect === 'interface' ? request : { ...request, dialect });
    const key = `${api} ${answer.status}`;
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
    for (const problem of new Set(checking[api].check(request.url, request.method, answer))) problems.set(problem, (problems.get(problem) ?? 0) + 1);
  }
  return problems;
}

const call = (url: string) => JSON.parse(engine.handle({ method: 'GET', url }).body);
const get = (api: Api, url: string, method = 'GET'): { api: Api; request: ApiRequest } => ({ api, request: { method, url } });

describe("the real data's answers satisfy the documents, status by status", () => {
  it(`a seeded sample of ${SAMPLED} requests per API from the real records' values`, () => {
    const statuses = new Map<string, number>();
    expect(Object.fromEntries(problemsOf(samples, statuses))).toEqual({});
    // The sample reaches hits, records by URL and pages of both APIs (not only errors).
    expect(statuses.get('site-scanning 200')).toBeGreaterThan(SAMPLED / 2);
    expect(statuses.get('ceiling-rates 200')).toBeGreaterThan(SAMPLED / 2);
  });

  it(`${HOSTILE} seeded hostile requests (the fuzz suite's values): the 400s and 406s of many shapes`, () => {
    type Sample = { api: Api; request: ApiRequest };
    const site = (url: string): Sample => ({ api: 'site-scanning', request: { method: 'GET', url } });
    const rates = (url: string): Sample => ({ api: 'ceiling-rates', request: { method: 'GET', url } });
    const arb = fc.oneof<fc.Arbitrary<Sample>[]>(
      fc.tuple(siteListPathArb(), queryArb('site')).map(([p, q]) => site(`${p}?${q}`)),
      websiteByUrlPathArb().map(site),
      fc.tuple(ceilingPathArb(), queryArb('ceiling')).map(([p, q]) => rates(`${p}?${q}`)),
    );
    const statuses = new Map<string, number>();
    expect(Object.fromEntries(problemsOf(fc.sample(arb, runs(SEED, HOSTILE) as fc.Parameters<Sample>), statuses))).toEqual({});
    for (const status of ['site-scanning 200', 'site-scanning 400', 'site-scanning 404', 'ceiling-rates 200', 'ceiling-rates 406']) {
      expect(statuses.get(status), `${status} in ${JSON.stringify(Object.fromEntries(statuses))}`).toBeGreaterThan(0);
    }
  });

  it('every record of the real snapshot, through the whole listing', () => {
    const pages = Math.ceil(total / 100);
    const requests = Array.from({ length: pages }, (_, i) => get('site-scanning', `/websites?limit=100&page=${i + 1}`));
    const statuses = new Map<string, number>();
    expect(Object.fromEntries(problemsOf(requests, statuses))).toEqual({});
    expect(statuses.get('site-scanning 200')).toBe(pages);
    // The figure the schema's and docs' note on `""` gives.
    const empty = requests.flatMap(({ request }) =>
      (JSON.parse(engine.handle(request).body).items as Record<string, unknown>[]).filter((r) => r.dap_parameters_final_url === ''),
    );
    expect(empty).toHaveLength(13_997);
  });

  it('every real ceiling rate, through price ranges of at most 10,000 rates, page by page', () => {
    const requests: { api: Api; request: ApiRequest }[] = [];
    for (let i = 0; i + 1 < priceBounds.length; i++) {
      const range = `${RATES}?filter=price_range:${priceBounds[i]},${priceBounds[i + 1]}&ordering=current_price&page_size=500`;
      const matching = call(range).hits.total.value as number;
      expect(matching, range).toBeLessThanOrEqual(10_000);
      for (let page = 1; page <= Math.ceil(matching / 500); page++) requests.push(get('ceiling-rates', `${range}&page=${page}`));
    }
    const statuses = new Map<string, number>();
    expect(Object.fromEntries(problemsOf(requests, statuses))).toEqual({});
    expect(statuses.get('ceiling-rates 200')).toBe(requests.length);
    // The ranges (inclusive, so a bound's rates come twice) reach every rate.
    const seen = new Set(requests.flatMap(({ request }) => (call(request.url).hits.hits as { _id: string }[]).map((hit) => hit._id)));
    expect(seen.size).toBe(103_307);
  });

  it("each documented error: 400, 404 (Site Scanning's other methods too), 405, 406, and api_key accepted and ignored", () => {
    const statuses = new Map<string, number>();
    const requests = [
      get('site-scanning', '/websites?final_url_live=maybe&limit=500'),
      get('site-scanning', '/analysis?scan_status=nope'),
      get('site-scanning', '/websites/no-such-site.example'),
      get('site-scanning', `/websites/${'a'.repeat(10_001)}.gov`),
      get('site-scanning', '/websites?api_key=DEMO_KEY&limit=2'),
      get('site-scanning', '/technology/site-scanning/v1/analysis?api_key=DEMO_KEY'),
      get('site-scanning', '/websites', 'POST'),
      get('site-scanning', '/analysis', 'DELETE'),
      get('site-scanning', '/technology/site-scanning/v1/websites/gsa.gov', 'PUT'),
      get('ceiling-rates', `${RATES}?filter=nonsense:1`),
      get('ceiling-rates', `${RATES}?page=0`),
      get('ceiling-rates', `${RATES}no-such-route`),
      get('ceiling-rates', RATES, 'POST'),
      get('ceiling-rates', RATES, 'DELETE'),
      get('ceiling-rates', `${RATES}?api_key=DEMO_KEY&page_size=2`),
    ];
    expect(Object.fromEntries(problemsOf(requests, statuses))).toEqual({});
    expect(Object.fromEntries(statuses)).toEqual({
      'site-scanning 200': 2,
      'site-scanning 400': 3,
      'site-scanning 404': 4,
      'ceiling-rates 200': 1,
      'ceiling-rates 404': 1,
      'ceiling-rates 405': 2,
      'ceiling-rates 406': 2,
    });
    // Ignored, as the security schemes' description says: the answer is the one without a key.
    expect(call('/websites?api_key=DEMO_KEY&limit=2')).toEqual(call('/websites?limit=2'));
    expect(call(`${RATES}?api_key=DEMO_KEY&page_size=2`).hits).toEqual(call(`${RATES}?page_size=2`).hits);
  });

  it('500 and 503 (with Retry-After) of both APIs', () => {
    const empty = createEngine();
    const statuses = new Map<string, number>();
    const answers: [Api, string, ApiResponse][] = [
      ['site-scanning', '/websites', siteScanningApi.errors.internal()],
      ['site-scanning', '/analysis', siteScanningApi.errors.internal()],
      ['ceiling-rates', RATES, ceilingRatesApi.errors.internal()],
      ['site-scanning', '/websites?limit=1', empty.handle({ method: 'GET', url: '/websites?limit=1' })],
      ['site-scanning', '/websites/gsa.gov', empty.handle({ method: 'GET', url: '/websites/gsa.gov' })],
      ['ceiling-rates', RATES, empty.handle({ method: 'GET', url: RATES })],
    ];
    for (const [api, url, answer] of answers) {
      statuses.set(`${api} ${answer.status}`, (statuses.get(`${api} ${answer.status}`) ?? 0) + 1);
      expect(checkers[api].check(url, 'GET', answer), url).toEqual([]);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 'site-scanning 500': 2, 'site-scanning 503': 2, 'ceiling-rates 500': 1, 'ceiling-rates 503': 1 });
  });

  it('a wrong schema fails: a real record whose field breaks its type is reported', () => {
    const answer = engine.handle({ method: 'GET', url: '/websites?limit=1' });
    const page = JSON.parse(answer.body);
    page.items[0].final_url_live = 'yes';
    const broken = { ...answer, body: JSON.stringify(page) };
    expect(checkers['site-scanning'].check('/websites?limit=1', 'GET', broken).join('\n')).toContain('/items/*/final_url_live must be boolean,null');
  });
});

describe("the production dialect's answers satisfy the production dialect's documents", () => {
  it(`the same seeded sample of ${SAMPLED} requests per API`, () => {
    const statuses = new Map<string, number>();
    expect(Object.fromEntries(problemsOf(samples, statuses, 'production'))).toEqual({});
    expect(statuses.get('site-scanning 200')).toBeGreaterThan(SAMPLED / 2);
    expect(statuses.get('ceiling-rates 200')).toBeGreaterThan(SAMPLED / 2);
  });

  it('every record of the real snapshot, through the whole listing, and the first 500 rates of every price range', () => {
    const pages = Math.ceil(total / 100);
    const requests = Array.from({ length: pages }, (_, i) => get('site-scanning', `/websites?limit=100&page=${i + 1}`));
    for (let i = 0; i + 1 < priceBounds.length; i++) {
      requests.push(get('ceiling-rates', `${RATES}?filter=price_range:${priceBounds[i]},${priceBounds[i + 1]}&ordering=current_price&page_size=500`));
    }
    const statuses = new Map<string, number>();
    expect(Object.fromEntries(problemsOf(requests, statuses, 'production'))).toEqual({});
    expect(statuses.get('site-scanning 200')).toBe(pages);
  });

  it('the documented errors are the same in both dialects', () => {
    const requests = [
      get('site-scanning', '/websites?final_url_live=maybe&limit=500'),
      get('site-scanning', '/websites/no-such-site.example'),
      get('ceiling-rates', `${RATES}?filter=nonsense:1`),
      get('ceiling-rates', RATES, 'POST'),
    ];
    const statuses = new Map<string, number>();
    expect(Object.fromEntries(problemsOf(requests, statuses, 'production'))).toEqual({});
    for (const { request } of requests) expect(engine.handle({ ...request, dialect: 'production' })).toEqual(engine.handle(request));
  });

  it("a wrong schema fails: the interface's names, or the interface's clearance, break the production documents", () => {
    const page = engine.handle({ method: 'GET', url: '/websites?limit=1' });
    expect(productionCheckers['site-scanning'].check('/websites?limit=1', 'GET', page).join('\n')).toContain('must NOT have additional properties');
    const search = engine.handle({ method: 'GET', url: `${RATES}?page_size=1` });
    expect(productionCheckers['ceiling-rates'].check(`${RATES}?page_size=1`, 'GET', search).length).toBeGreaterThan(0);
  });
});
