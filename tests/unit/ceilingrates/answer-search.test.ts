/**
 * answerSearch (engine/ceilingrates/answer-search.ts): one dispatch over any RatesStore. Run over a store that
 * answers later (the in-memory index's calls, each a promise, and no cached searches: a database door's shape)
 * it answers every request as it does over the index answering at once; run at once over a store that
 * answers later, it refuses.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Database } from 'sql.js';
import { generatedDatabase } from '../../../harness/engine.ts';
import { CeilingRatesIndex } from '../../../engine/ceilingrates/ceiling-rates-index.ts';
import { prepareColumns } from '../../../engine/ceilingrates/columns/prepared.ts';
import { answerLater, answerNow, answerSearch, type RatesStore } from '../../../engine/ceilingrates/answer-search.ts';
import type { RouteContext } from '../../../engine/http/routes.ts';
import type { ApiResponse } from '../../../engine/http/types.ts';
import { ratesFromDataArb } from '../../../harness/requests-from-data.ts';
import { queryArb } from '../../../harness/fuzz/requests.ts';
import { runs } from '../fuzz/runs.ts';
import { workload } from '../../../bench/ceilingrates/workload.ts';

let db: Database;

beforeAll(async () => {
  db = await generatedDatabase('ceilingrates');
});

/** The index's store calls, each answered later; no cached searches. */
function later(index: CeilingRatesIndex): RatesStore {
  return {
    tables: () => Promise.resolve(index.tables()),
    find: (query, cached) => Promise.resolve(index.find(query, cached)),
    fieldCodes: (query, contains) => Promise.resolve(index.fieldCodes(query, contains)),
    exportRows: (query, cached) => Promise.resolve(index.exportRows(query, cached)),
  };
}

const contextOf = (url: string): RouteContext => {
  const { search, searchParams } = new URL(url, 'http://localhost');
  return { search, query: searchParams } as unknown as RouteContext;
};

/** A seeded sample (runs.ts: FUZZ_SCALE and FUZZ_SEED widen it by hand). */
function sampled<T>(arb: fc.Arbitrary<T>, seed: number, count: number): T[] {
  const { seed: shifted, numRuns } = runs(seed, count);
  return fc.sample(arb, { seed: shifted, numRuns });
}

const comparable = (response: ApiResponse): ApiResponse => ({ ...response, body: response.body.replace(/^\{"took":\d+,/, '{"took":0,') });

describe('answerSearch', () => {
  it('answers over a store that answers later as over the index answering at once, request for request', async () => {
    const now = new CeilingRatesIndex(db, prepareColumns(db));
    const store = later(new CeilingRatesIndex(db, prepareColumns(db)));
    const urls = [
      ...workload({ vendor: 'Acme', piid: 'GS' }).map((r) => r.url),
      ...sampled(ratesFromDataArb(db), 51_001, 300).map((r) => r.url),
      ...sampled(queryArb('ceiling'), 51_002, 200).map((q) => `/api/v3/search/ceilingrates/?${q}`),
    ];
    const statuses = new Set<number>();
    for (const url of urls) {
      const expected = comparable(answerNow(answerSearch(now, contextOf(url))));
      expect(comparable(await answerLater(answerSearch(store, contextOf(url)))), url).toEqual(expected);
      statuses.add(expected.status);
    }
    // Searches, suggestions and exports (200) and refused parameters (406) alike.
    expect([...statuses].sort()).toEqual([200, 406]);
  });

  it('refuses to answer at once over a store that answers later', () => {
    const store = later(new CeilingRatesIndex(db, prepareColumns(db)));
    expect(() => answerNow(answerSearch(store, contextOf('/api/v3/search/ceilingrates/?keyword=engineer')))).toThrow(/answered later/);
  });
});
