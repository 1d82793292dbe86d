/**
 * Random requests over a database that holds the hostile records (tools/generate/hostile.ts), with parameter
 * values drawn from the hostile texts themselves so that filters, search, suggestions and the export actually
 * match them: every answer stays well-formed and every CSV cell stays guarded.
 */
import { afterAll, afterEach, beforeAll, expect, it, vi, type MockInstance } from 'vitest';
import fc from 'fast-check';
import type { Engine } from '../../../engine/index.ts';
import { HOSTILE_PAYLOADS, HOSTILE_TARGET_URLS } from '../../../tools/generate/hostile.ts';
import { hostileMixedEngine } from '../hostile/fixtures.ts';
import { encode } from '../../../harness/fuzz/payloads.ts';
import { CEILING_BASES, FILTER_NAMES, ORDER_FIELDS, SEARCH_FIELDS, SITE_BASES } from '../../../harness/fuzz/requests.ts';
import { send, tally, timeReport } from '../../../harness/fuzz/well-formed.ts';
import { runs } from './runs.ts';

let engine: Engine;
let consoleError: MockInstance;

beforeAll(async () => {
  engine = await hostileMixedEngine();
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  // An internal error is answered (500, which the checks refuse) and logged: none may have happened.
  expect(consoleError).not.toHaveBeenCalled();
});

afterAll(() => {
  consoleError.mockRestore();
  console.log(`fuzz over hostile records: ${tally.requests} requests; ${timeReport()}`);
});

/** A hostile text, whole or cut (a prefix for suggestions, a piece for keyword), encoded for the URL. */
const hostileText = fc
  .tuple(fc.constantFrom(...HOSTILE_PAYLOADS.map((p) => p.text)), fc.nat({ max: 60 }), fc.boolean())
  .map(([text, cut, whole]) => encode(whole ? text : text.slice(0, Math.max(2, cut))));

const ceilingPair = fc.oneof(
  fc.tuple(fc.constantFrom('search', 'suggest', 'suggest-contains'), fc.constantFrom(...SEARCH_FIELDS), hostileText).map(([p, f, t]) => `${p}=${f}:${t}`),
  fc.tuple(fc.constantFrom(...FILTER_NAMES), hostileText).map(([f, t]) => `filter=${f}:${t}`),
  hostileText.map((t) => `keyword=${t}`),
  fc.constantFrom(...ORDER_FIELDS).map((f) => `ordering=${f}`),
  fc.constantFrom('sort=desc', 'export=y', 'page_size=500', 'page=2'),
);

const sitePair = fc.oneof(
  fc.tuple(fc.constantFrom('target_url_agency_owner', 'target_url_bureau_owner'), hostileText).map(([p, t]) => `${p}=${t}`),
  fc.constantFrom('target_url_domain=hostile.example.gov', 'limit=100', 'page=2', 'scan_status=completed'),
);

it('ceiling rates: hostile search, filter, suggestion and export values over hostile records', () => {
  fc.assert(
    fc.property(fc.constantFrom(...CEILING_BASES), fc.array(ceilingPair, { minLength: 1, maxLength: 5 }), (base, pairs) => {
      send(engine, 'GET', `${base}?${pairs.join('&')}`);
    }),
    runs(7101, 300),
  );
});

it('Site Scanning: hostile owner filters, listing and analysis, and lookups of hostile target URLs', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...SITE_BASES),
      fc.constantFrom('/websites', '/analysis'),
      fc.array(sitePair, { maxLength: 4 }),
      fc.constantFrom(...HOSTILE_TARGET_URLS),
      (base, route, pairs, target) => {
        send(engine, 'GET', `${base}${route}?${pairs.join('&')}`);
        const found = send(engine, 'GET', `${base}/websites/${encode(target)}`);
        expect(JSON.parse(found.body).target_url).toBe(target);
      },
    ),
    runs(7102, 200),
  );
});
