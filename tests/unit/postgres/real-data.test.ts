/**
 * The Postgres door over the real default datasets (the 36,331 sites of 2025-06-09 and GSA's 103,307 price-list
 * rates), as a fresh clone's `load --database` then `serve --database` would hold them: seeded requests from the
 * records' own values answer exactly as the in-memory engine, every kind of stored field value included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bothAnswers, startBackends, type Backends } from './backends.ts';
import { ratesFromDataArb, websitesFromDataArb } from '../../../harness/requests-from-data.ts';
import { NEWEST_WEEK } from '../../../tools/site-scanning-source/shipped-weeks.ts';
import { runs } from '../fuzz/runs.ts';
import type { ApiRequest } from '../../../engine/http/types.ts';

const REQUESTS = 1_500;
let backends: Backends;

beforeAll(async () => {
  backends = await startBackends(NEWEST_WEEK, 'real');
}, 600_000);

afterAll(async () => {
  await backends?.stop();
});

async function expectSame(request: ApiRequest, what: string): Promise<string> {
  const { engine, postgres } = await bothAnswers(backends, request);
  if (JSON.stringify(postgres) !== JSON.stringify(engine)) expect(postgres, `${what}: ${request.url.slice(0, 300)}`).toEqual(engine);
  return engine.body;
}

describe('the Postgres door on the real default data', () => {
  it('answers the pages that held an empty dap_parameters_final_url (they answered 503)', async () => {
    for (const url of [
      '/websites?limit=10',
      '/websites?limit=1&page=9',
      '/websites/cap.gov',
      '/websites/abpdu.lbl.gov',
      '/websites?limit=100&page=50',
      '/analysis',
    ]) {
      const body = await expectSame({ method: 'GET', url }, 'listed');
      expect(body, url).not.toContain('not loaded');
    }
  });

  it(`answers ${REQUESTS} seeded requests from the records' values exactly as the engine, over every kind of field value`, async () => {
    const { seed, numRuns } = runs(42_042, REQUESTS);
    const arb = fc.oneof(websitesFromDataArb(backends.websites), ratesFromDataArb(backends.ceilingrates));
    const kinds = new Set<string>();
    const statuses = new Map<number, number>();
    for (const [i, request] of fc.sample(arb, { seed, numRuns }).entries()) {
      const { engine, postgres } = await bothAnswers(backends, request);
      if (JSON.stringify(postgres) !== JSON.stringify(engine)) {
        expect(postgres, `request ${i} of seed ${seed}: ${request.url.slice(0, 300)}`).toEqual(engine);
      }
      statuses.set(engine.status, (statuses.get(engine.status) ?? 0) + 1);
      if (engine.status !== 200 || (!engine.body.startsWith('{"items"') && !request.url.includes('/websites/'))) continue;
      const body = JSON.parse(engine.body) as { items?: Record<string, unknown>[] } & Record<string, unknown>;
      for (const record of body.items ?? [body]) {
        for (const value of Object.values(record)) {
          kinds.add(value === null ? 'null' : value === '' ? 'empty text' : Array.isArray(value) ? 'list' : typeof value);
        }
      }
    }
    // The real records' every kind of stored value was compared: "" where an object is expected, JSON objects, lists, null.
    expect([...kinds].sort()).toEqual(['boolean', 'empty text', 'list', 'null', 'number', 'object', 'string']);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(REQUESTS * 0.9);
  }, 600_000);
});
