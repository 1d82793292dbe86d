/**
 * Issue 23: a seeded differential test. 10,000 random requests, valid and invalid (the fuzz suite's request
 * generators: every endpoint under every base, hostile values, odd methods and paths), each sent to the
 * in-memory engine and to the Postgres backend over the same records; every answer must match (`took` aside).
 * FUZZ_SCALE and FUZZ_SEED widen the search by hand, as for the other fuzz tests.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import { startBackends, bothAnswers, type Backends } from './backends.ts';
import { anyPathArb, ceilingPathArb, methodArb, ORDER_FIELDS, queryArb, siteListPathArb, websiteByUrlPathArb } from '../fuzz/requests.ts';
import { oversizedRequestArb } from '../fuzz/oversized.ts';
import { runs } from '../fuzz/runs.ts';
import type { ApiRequest } from '../../../engine/http/types.ts';
import type { Database } from 'sql.js';

const REQUESTS = 10_000;

/**
 * Ceiling-rates requests built from the loaded records' own values, so that matching, ties in the order,
 * paging, term buckets, percentiles and the histogram are reached with many matches, not only with hostile
 * values that match nothing: whole values (search), their pieces in any case (keyword, suggest), real SIN
 * codes, list elements and worksite words, price and experience ranges around real values.
 */
function ratesFromDataArb(db: Database): fc.Arbitrary<ApiRequest> {
  const column = (sql: string): string[] => (db.exec(sql)[0]?.values ?? []).map((row) => String(row[0]));
  const labor = column('SELECT DISTINCT labor_category FROM ceilingrates LIMIT 200');
  const vendors = column('SELECT DISTINCT vendor_name FROM ceilingrates LIMIT 200');
  const piids = column('SELECT DISTINCT idv_piid FROM ceilingrates LIMIT 100');
  const sins = column('SELECT DISTINCT sin FROM ceilingrates LIMIT 100')
    .flatMap((s) => s.split(/[,;/\s]+/))
    .filter(Boolean);
  const categories = column('SELECT DISTINCT category FROM ceilingrates LIMIT 50').flatMap((c) => c.split(';').map((e) => e.trim()));
  const worksites = column('SELECT DISTINCT worksite FROM ceilingrates');
  const prices = column('SELECT DISTINCT current_price FROM ceilingrates WHERE current_price IS NOT NULL LIMIT 300');
  const ids = column('SELECT id FROM ceilingrates LIMIT 300');
  const piece = (values: string[]): fc.Arbitrary<string> =>
    fc.tuple(fc.constantFrom(...values), fc.nat(), fc.integer({ min: 2, max: 8 }), fc.boolean()).map(([v, at, n, upper]) => {
      const text = v.slice(at % Math.max(1, v.length - 1), (at % Math.max(1, v.length - 1)) + n);
      return upper ? text.toUpperCase() : text;
    });
  const field = fc.constantFrom('labor_category', 'vendor_name', 'idv_piid');
  const wholeValue = fc.oneof(
    fc.constantFrom(...labor).map((v) => `labor_category:${v}`),
    fc.constantFrom(...vendors).map((v) => `vendor_name:${v}`),
    fc.constantFrom(...piids).map((v) => `idv_piid:${v}`),
  );
  const range = fc.tuple(fc.constantFrom(...prices), fc.constantFrom(...prices)).map(([a, b]) => `${a},${b}`);
  const filter = fc.oneof(
    fc.array(range, { minLength: 1, maxLength: 3 }).map((r) => `price_range:${r.join('|')}`),
    fc.constantFrom(...prices).map((p) => `current_price:${p}`),
    fc.tuple(fc.nat({ max: 15 }), fc.nat({ max: 15 })).map(([a, b]) => `experience_range:${a},${a + b}`),
    fc.nat({ max: 15 }).map((n) => `min_years_experience:${n}`),
    fc.subarray(['HS', 'AA', 'BA', 'MA', 'PHD', 'NONE', 'OTHER'], { minLength: 1 }).map((l) => `education_level:${l.join('|')}`),
    fc.constantFrom('business_size:S', 'business_size:O', 'security_clearance:yes', 'security_clearance:no|yes'),
    fc.array(fc.constantFrom(...sins), { minLength: 1, maxLength: 3 }).map((l) => `sin:${l.join('|')}`),
    fc.constantFrom(...categories).map((c) => `category:${c}`),
    fc.oneof(piece(worksites), fc.constantFrom(...worksites)).map((w) => `site:${w}`),
  );
  const param = fc.oneof(
    { arbitrary: wholeValue.map((v) => ['search', v]), weight: 2 },
    { arbitrary: fc.oneof(piece(labor), piece(vendors), piece(piids)).map((v) => ['keyword', v]), weight: 3 },
    { arbitrary: filter.map((v) => ['filter', v]), weight: 6 },
    { arbitrary: fc.array(fc.constantFrom(...ids), { minLength: 1, maxLength: 4 }).map((l) => ['exclude', l.join('|')]), weight: 1 },
    { arbitrary: fc.constantFrom(...ORDER_FIELDS).map((f) => ['ordering', f]), weight: 4 },
    { arbitrary: fc.constantFrom('asc', 'desc').map((d) => ['sort', d]), weight: 3 },
    { arbitrary: fc.constantFrom('1', '2', '3', '7', '20').map((p) => ['page', p]), weight: 2 },
    { arbitrary: fc.constantFrom('1', '5', '10', '100', '500').map((p) => ['page_size', p]), weight: 2 },
  );
  const searchQuery = fc.array(param, { minLength: 0, maxLength: 6 });
  const mode = fc.oneof(
    { arbitrary: fc.constant<[string, string][]>([]), weight: 8 },
    { arbitrary: fc.constant<[string, string][]>([['export', 'y']]), weight: 1 },
    {
      arbitrary: fc.tuple(field, fc.oneof(piece(labor), piece(vendors))).map(([f, t]) => [['suggest-contains', `${f}:${t}`]] as [string, string][]),
      weight: 1,
    },
    { arbitrary: fc.tuple(field, fc.oneof(piece(labor), piece(vendors))).map(([f, t]) => [['suggest', `${f}:${t}`]] as [string, string][]), weight: 1 },
  );
  return fc.tuple(ceilingPathArb(), searchQuery, mode).map(([path, params, extra]) => ({
    method: 'GET',
    url: `${path}?${new URLSearchParams([...params, ...extra] as [string, string][]).toString()}`,
  }));
}

/** Dated paths too: the snapshot loaded, and dates no load wrote. */
const datedArb = fc.tuple(
  fc.constantFrom('/snapshots/2025-06-02', '/snapshots/2025-06-03', '/snapshots/2025-02-30', '/snapshots/x'),
  siteListPathArb(),
  queryArb('site'),
);

const requestArb = (fromData: fc.Arbitrary<ApiRequest>): fc.Arbitrary<ApiRequest> =>
  fc.oneof(
    { arbitrary: fromData, weight: 5 },
    { arbitrary: fc.tuple(siteListPathArb(), queryArb('site')).map(([p, q]) => ({ method: 'GET', url: `${p}?${q}` })), weight: 8 },
    { arbitrary: websiteByUrlPathArb().map((url) => ({ method: 'GET', url })), weight: 3 },
    { arbitrary: fc.tuple(ceilingPathArb(), queryArb('ceiling')).map(([p, q]) => ({ method: 'GET', url: `${p}?${q}` })), weight: 4 },
    { arbitrary: fc.tuple(methodArb(), anyPathArb(), queryArb('site')).map(([method, p, q]) => ({ method, url: `${p}?${q}` })), weight: 2 },
    { arbitrary: datedArb.map(([d, p, q]) => ({ method: 'GET', url: `${d}${p}?${q}` })), weight: 1 },
    { arbitrary: oversizedRequestArb().map((url) => ({ method: 'GET', url })), weight: 1 },
  );

let backends: Backends;

beforeAll(async () => {
  backends = await startBackends('2025-06-02');
});

afterAll(async () => {
  await backends?.stop();
});

it(`answers ${REQUESTS} random requests exactly as the engine does`, async () => {
  const { seed, numRuns } = runs(23_023, REQUESTS);
  const requests = fc.sample(requestArb(ratesFromDataArb(backends.ceilingrates)), { seed, numRuns });
  const statuses = new Map<number, number>();
  let ratesWithMatches = 0;
  for (const [i, request] of requests.entries()) {
    const { engine, postgres } = await bothAnswers(backends, request);
    if (JSON.stringify(postgres) !== JSON.stringify(engine)) {
      expect(postgres, `request ${i} of seed ${seed}: ${request.method} ${request.url.slice(0, 300)}`).toEqual(engine);
    }
    statuses.set(engine.status, (statuses.get(engine.status) ?? 0) + 1);
    if (engine.status === 200 && /^\{"took":0,"timed_out":false,.*"hits":\{"total":\{"value":[1-9]/.test(engine.body)) ratesWithMatches++;
  }
  expect(requests.length).toBeGreaterThanOrEqual(REQUESTS);
  // The mix reaches the data (200s) and the checks (400, 404, 406) alike.
  for (const status of [200, 400, 404, 406]) expect(statuses.get(status) ?? 0, `answers with status ${status}`).toBeGreaterThan(50);
  // And the rates are compared where they have matches to order, count and aggregate.
  expect(ratesWithMatches).toBeGreaterThan(1000);
}, 300_000);
