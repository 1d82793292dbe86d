/**
 * Random, hostile and oversized requests over a ceiling-rates dataset imported from a hostile file (imported.ts):
 * the import core's output, with prices near the largest double, must answer like any other dataset: every
 * answer well-formed, the same twice, and no internal error.
 */
import { afterAll, afterEach, beforeAll, expect, it, vi, type MockInstance } from 'vitest';
import fc from 'fast-check';
import { engineOver } from '../../../harness/engine.ts';
import type { Engine } from '../../../engine/index.ts';
import { HOSTILE_PAYLOADS } from '../../../tools/generate/hostile.ts';
import { importedHostileRates } from '../../../harness/fuzz/imported.ts';
import { oversizedRequestArb } from '../../../harness/fuzz/oversized.ts';
import { encode } from '../../../harness/fuzz/payloads.ts';
import { ceilingPathArb, FILTER_NAMES, ORDER_FIELDS, queryArb, SEARCH_FIELDS } from '../../../harness/fuzz/requests.ts';
import { send, tally, timeReport } from '../../../harness/fuzz/well-formed.ts';
import { runs } from './runs.ts';

let engine: Engine;
let consoleError: MockInstance;

beforeAll(async () => {
  engine = engineOver('ceilingrates', await importedHostileRates(400));
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  expect(consoleError).not.toHaveBeenCalled();
});

afterAll(() => {
  consoleError.mockRestore();
  console.log(`fuzz over an imported hostile file: ${tally.requests} requests (and ${tally.repeats} repeats); ${timeReport()}`);
});

const hostileText = fc.constantFrom(...HOSTILE_PAYLOADS.map((p) => p.text)).map(encode);
const hostilePair = fc.oneof(
  fc.tuple(fc.constantFrom('search', 'suggest', 'suggest-contains'), fc.constantFrom(...SEARCH_FIELDS), hostileText).map(([p, f, t]) => `${p}=${f}:${t}`),
  fc.tuple(fc.constantFrom(...FILTER_NAMES), hostileText).map(([f, t]) => `filter=${f}:${t}`),
  hostileText.map((t) => `keyword=${t}`),
  fc.tuple(fc.constantFrom(...ORDER_FIELDS), fc.constantFrom('asc', 'desc')).map(([f, d]) => `ordering=${f}&sort=${d}`),
  fc.constantFrom('export=y', 'page_size=500', 'page=2', 'filter=price_range:1e307,1.7976931348623157e308', 'filter=current_price:1e308'),
);

it('random and hostile query strings, GET and HEAD', () => {
  fc.assert(
    fc.property(
      ceilingPathArb(),
      fc.oneof(
        queryArb('ceiling'),
        fc.array(hostilePair, { minLength: 1, maxLength: 5 }).map((p) => p.join('&')),
      ),
      fc.constantFrom('GET', 'GET', 'HEAD'),
      (path, query, method) => {
        send(engine, method, `${path}?${query}`);
      },
    ),
    runs(7201, 1200),
  );
});

it('oversized requests', () => {
  fc.assert(
    fc.property(
      oversizedRequestArb().filter((url) => url.startsWith('/api/')),
      (url) => {
        send(engine, 'GET', url);
      },
    ),
    runs(7202, 150),
  );
});

it('histogram keys over prices near the largest double are numbers', () => {
  const body = JSON.parse(send(engine, 'GET', '/api/v3/search/ceilingrates/?filter=price_range:1e300,1.7976931348623157e308').body);
  expect(body.hits.total.value).toBeGreaterThan(0);
  for (const bucket of body.aggregations.wage_histogram.buckets) expect(Number.isFinite(bucket.key), JSON.stringify(bucket)).toBe(true);
});
