/**
 * Issue 23: a seeded differential test. 10,000 random requests, valid and invalid (the fuzz suite's request
 * generators: every endpoint under every base, hostile values, odd methods and paths), each sent to the
 * in-memory engine and to the Postgres backend over the same records; every answer must match (`took` aside).
 * FUZZ_SCALE and FUZZ_SEED widen the search by hand, as for the other fuzz tests.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import { startBackends, bothAnswers, type Backends } from './backends.ts';
import { anyPathArb, ceilingPathArb, methodArb, queryArb, siteListPathArb, websiteByUrlPathArb } from '../../../harness/fuzz/requests.ts';
import { ratesFromDataArb } from '../../../harness/requests-from-data.ts';
import { oversizedRequestArb } from '../../../harness/fuzz/oversized.ts';
import { runs } from '../fuzz/runs.ts';
import type { ApiRequest } from '../../../engine/http/types.ts';

const REQUESTS = 10_000;

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
