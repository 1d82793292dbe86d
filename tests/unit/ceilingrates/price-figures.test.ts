/**
 * Price figures of a query over any contract year's price, and the price check, against the plain
 * reference over the same generated records; over current_price they equal the API's own aggregations.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'sql.js';
import { call, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import type { Engine } from '../../../engine/index.ts';
import { priceFigures, type PriceFigures } from '../../../engine/ceilingrates/price-figures.ts';
import { PRICE_FIELDS } from '../../../engine/ceilingrates/parameters.ts';
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import { refMatches, refPercentile, refStats, type RefQuery } from './reference.ts';

const API = '/api/v3/search/ceilingrates/';
let db: Database;
let engine: Engine;
let records: CeilingRateRecord[];

beforeAll(async () => {
  db = await generatedDatabase('ceilingrates');
  engine = engineOver('ceilingrates', db);
  const result = db.exec('SELECT * FROM ceilingrates ORDER BY id')[0];
  records = result.values.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]])) as unknown as CeilingRateRecord);
});

function figures(query: string, field: (typeof PRICE_FIELDS)[number], proposed: number | null = null): PriceFigures {
  const answer = priceFigures(db, new URLSearchParams(query), field, proposed);
  if (!answer.ok) throw new Error(answer.message);
  return answer.figures;
}

const QUERIES: [string, RefQuery][] = [
  ['', { searches: [], keyword: null, filters: [], exclude: [], ordering: [], page: 1, pageSize: 10 }],
  ['keyword=engineer', { searches: [], keyword: 'engineer', filters: [], exclude: [], ordering: [], page: 1, pageSize: 10 }],
  [
    'keyword=analyst&filter=education_level:BA|MA&filter=experience_range:2,10',
    { searches: [], keyword: 'analyst', filters: ['education_level:BA|MA', 'experience_range:2,10'], exclude: [], ordering: [], page: 1, pageSize: 10 },
  ],
];

describe('price figures', () => {
  it('over current_price are the API answer’s own figures for the same query', () => {
    for (const [query] of QUERIES) {
      const api = call(engine, `${API}?${query}&page_size=1`).body;
      const f = figures(`${query}&page=3&page_size=7&ordering=vendor_name`, 'current_price');
      expect(f.stats).toEqual(api.aggregations.wage_stats);
      expect(f.median).toBe(api.aggregations.median_price.values['50.0']);
      expect(f.percentiles).toEqual(api.aggregations.histogram_percentiles.values);
      expect(f.histogram).toEqual(api.aggregations.wage_histogram.buckets);
      expect(f.matches).toBe(api.hits.total.value);
    }
  });

  it('over each contract year equal the reference over the same matches', () => {
    for (const [query, ref] of QUERIES) {
      const matches = refMatches(records, ref);
      for (const field of PRICE_FIELDS) {
        const prices = matches.map((r) => r[field]).filter((p): p is number => p !== null);
        const sorted = [...prices].sort((a, b) => a - b);
        const f = figures(query, field);
        expect(f.matches).toBe(matches.length);
        const want = refStats(prices);
        expect(f.stats.count).toBe(want.count);
        expect(f.stats.min).toBe(want.min);
        expect(f.stats.max).toBe(want.max);
        expect(f.stats.avg).toBeCloseTo(want.avg as number, 9);
        expect(f.median).toBeCloseTo(refPercentile(sorted, 50)!, 9);
        for (const p of [10, 25, 75, 90]) expect(f.percentiles[p.toFixed(1)]).toBeCloseTo(refPercentile(sorted, p)!, 9);
        expect(f.histogram.reduce((n, b) => n + b.doc_count, 0)).toBe(prices.length);
      }
    }
    // Next year's prices are escalated: their median is above the current one's.
    expect(figures('', 'next_year_price').median!).toBeGreaterThan(figures('', 'current_price').median!);
  });

  it('ranks a proposed price: below plus half the equal, over the count, and its distance from the median', () => {
    const [query, ref] = QUERIES[1];
    const prices = refMatches(records, ref).map((r) => r.current_price);
    const median = refPercentile(
      [...prices].sort((a, b) => a - b),
      50,
    )!;
    for (const proposed of [0, prices[0], median, 123.45, 10_000]) {
      const check = figures(query, 'current_price', proposed).check!;
      const below = prices.filter((p) => p < proposed).length;
      const equal = prices.filter((p) => p === proposed).length;
      expect(check.below).toBe(below);
      expect(check.equal).toBe(equal);
      expect(check.percentileRank).toBeCloseTo(((below + equal / 2) / prices.length) * 100, 9);
      expect(check.difference).toBeCloseTo(proposed - median, 9);
      expect(check.differencePercent).toBeCloseTo(((proposed - median) / median) * 100, 9);
    }
    expect(figures(query, 'current_price').check).toBeNull();
  });

  it('refuses what the API refuses, with its detail', () => {
    const answer = priceFigures(db, new URLSearchParams('keyword=a'), 'current_price');
    expect(answer).toEqual({ ok: false, status: 406, message: call(engine, `${API}?keyword=a`).body.detail });
  });

  it('matches nothing: no figures, no rank', () => {
    const f = figures('keyword=zzzzqqq', 'second_year_price', 100);
    expect(f.stats.count).toBe(0);
    expect(f.median).toBeNull();
    expect(f.histogram).toEqual([]);
    expect(f.check!.percentileRank).toBeNull();
  });
});

describe('a pool of exact titles', () => {
  it('matches any of the titles (whole values, as stored) under the filters, with each title’s count', () => {
    const counts = new Map<string, number>();
    for (const r of records) counts.set(r.labor_category, (counts.get(r.labor_category) ?? 0) + 1);
    const titles = [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)!).slice(0, 3);
    const asked = titles;
    const answer = priceFigures(db, new URLSearchParams('filter=education_level:BA|MA|PHD'), 'current_price', 100, asked);
    if (!answer.ok) throw new Error(answer.message);
    const f = answer.figures;
    const inPool = records.filter((r) => titles.includes(r.labor_category) && ['BA', 'MA', 'PHD'].includes(r.education_level));
    const prices = inPool.map((r) => r.current_price).sort((a, b) => a - b);
    expect(f.stats.count).toBe(inPool.length);
    expect(f.median).toBeCloseTo(refPercentile(prices, 50)!, 9);
    expect(f.check!.below).toBe(prices.filter((p) => p < 100).length);
    expect(f.titles).toEqual(
      asked.map((title, i) => ({
        title,
        count: inPool.filter((r) => r.labor_category === titles[i]).length,
      })),
    );
    // Another case is another title, as for search=.
    const upper = priceFigures(db, new URLSearchParams(''), 'current_price', null, [titles[0].toUpperCase()]);
    if (upper.ok && titles[0].toUpperCase() !== titles[0])
      expect(upper.figures.titles[0].count).toBe(records.filter((r) => r.labor_category === titles[0].toUpperCase()).length);
    // No titles: the query's matches as before, and no per-title counts.
    expect(figures('', 'current_price').titles).toEqual([]);
  });
});
