/**
 * The index caches its last searches' match sets and aggregations (query/search-cache.ts): an answer from a
 * cached search equals the answer computed afresh, whatever page, size, ordering or export reads it, and the
 * cache holds no more than its bytes.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { Database } from 'sql.js';
import { call, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import type { Engine } from '../../../engine/index.ts';
import { ceilingRatesIndex } from '../../../engine/ceilingrates/ceiling-rates-index.ts';
import { cachedMatch, matchKey, SearchCache } from '../../../engine/ceilingrates/query/search-cache.ts';
import { parseQuery } from '../../../engine/ceilingrates/parse-query.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';

const API = '/api/v3/search/ceilingrates/';
let cachedDb: Database;
let freshDb: Database;
let cached: Engine;
let fresh: Engine;

beforeAll(async () => {
  cachedDb = await generatedDatabase('ceilingrates');
  freshDb = new (await loadSqlJs()).Database(cachedDb.export());
  cached = engineOver('ceilingrates', cachedDb);
  fresh = engineOver('ceilingrates', freshDb);
});

/** The fresh engine's answer with its index's cache emptied first: computed from the records. */
function computed(url: string) {
  ceilingRatesIndex(freshDb).searches.clear();
  return call(fresh, url);
}

const withoutTook = (body: unknown) => (typeof body === 'object' && body !== null ? { ...body, took: 0 } : body);

const searchArb = fc.constantFrom(
  '',
  'keyword=engineer',
  'keyword=analyst&education_level=BA|MA',
  'price_range=80,140&business_size=S',
  'exclude=1,2,3',
  'search=labor_category:Engineer',
);
const pageArb = fc.record({
  page: fc.integer({ min: 1, max: 4 }),
  size: fc.constantFrom(1, 10, 50),
  ordering: fc.constantFrom(
    '',
    'ordering=current_price&sort=desc',
    'ordering=labor_category&ordering=min_years_experience&sort=asc&sort=desc',
    'ordering=vendor_name',
  ),
  format: fc.constantFrom('', 'export=y'),
});

describe('cached searches', () => {
  it('answer every page, ordering and export exactly as a search computed afresh', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(searchArb, pageArb), { minLength: 1, maxLength: 12 }), (asks) => {
        for (const [search, { page, size, ordering, format }] of asks) {
          const parts = [search, `page=${page}`, `page_size=${size}`, ordering, format].filter(Boolean);
          const url = `${API}?${parts.join('&')}`;
          const got = call(cached, url);
          const want = computed(url);
          expect(got.status).toBe(200);
          expect(want.status).toBe(200);
          expect(withoutTook(got.body)).toEqual(withoutTook(want.body));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('cache one entry per search, however many of its pages are read', () => {
    const index = ceilingRatesIndex(cachedDb);
    index.searches.clear();
    for (let page = 1; page <= 5; page++) call(cached, `${API}?keyword=engineer&page=${page}&ordering=current_price&sort=desc`);
    call(cached, `${API}?keyword=engineer&export=y`);
    expect(index.searches.size().entries).toBe(1);
    call(cached, `${API}?keyword=engineer&exclude=7`);
    expect(index.searches.size().entries).toBe(2);
  });
});

describe('a bind from prepared bytes', () => {
  it('starts with the every-record aggregations prepared, and answers the every-record search as a bind from the records does', async () => {
    const bytes = ceilingRatesIndex(cachedDb).preparedBytes();
    const preparedDb = new (await loadSqlJs()).Database(cachedDb.export());
    const index = ceilingRatesIndex(preparedDb, bytes);
    const aggregate = vi.spyOn(index.ratesTables.aggregator, 'aggregate');
    expect(index.searches.size().entries).toBe(0);
    const bound = engineOver('ceilingrates', preparedDb);
    for (const url of [`${API}?page_size=50`, `${API}?page=3&ordering=vendor_name&sort=desc`, `${API}?export=y`]) {
      expect(withoutTook(call(bound, url).body)).toEqual(withoutTook(computed(url).body));
    }
    // Nothing aggregated: the prepared JSON answered; the search itself is cached from its first page on.
    expect(aggregate).not.toHaveBeenCalled();
    expect(index.searches.size().entries).toBe(1);
  });
});

describe('SearchCache', () => {
  const cached = (bytes: number) => ({
    match: cachedMatch({ mask: new Uint8Array(bytes), count: 0, rows: null, rest: null }),
    aggregationsJson: '{}',
  });

  it('keys a search by what it matches on, not its page, size or ordering', () => {
    const a = parseQuery(new URLSearchParams('keyword=engineer&page=2&page_size=50&ordering=vendor_name&sort=desc'), '');
    const b = parseQuery(new URLSearchParams('keyword=engineer'), '');
    const c = parseQuery(new URLSearchParams('keyword=engineer&exclude=3'), '');
    expect(matchKey(a)).toBe(matchKey(b));
    expect(matchKey(c)).not.toBe(matchKey(b));
  });

  it('lets the least recently used go first when its bytes are full', () => {
    const cache = new SearchCache(2_500);
    cache.set('a', cached(1_000));
    cache.set('b', cached(1_000));
    expect(cache.get('a')).toBeDefined(); // a is now newer than b
    cache.set('c', cached(1_000));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.size().bytes).toBeLessThanOrEqual(2_500);
  });

  it('does not cache a search larger than the whole cache', () => {
    const cache = new SearchCache(500);
    cache.set('big', cached(1_000));
    expect(cache.size()).toEqual({ entries: 0, bytes: 0 });
  });
});
