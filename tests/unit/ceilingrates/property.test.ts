/**
 * The engine against the plain-TypeScript reference over the same generated records: random searches,
 * keywords, filter combinations, exclusions, orderings and pages. Hits, totals and every aggregation must
 * agree — counts and statistics exactly, percentiles within 1e-9, the histogram by the rules of docs/api/ceiling-rates.md.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Database } from 'sql.js';
import { call, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import type { Engine } from '../../../engine/index.ts';
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import {
  byteOrder,
  refBucketMean,
  refEducationCounts,
  refMatches,
  refPage,
  refPercentile,
  refSortValue,
  refStats,
  refTerms,
  type RefQuery,
} from './reference.ts';
import { ORDER_FIELDS } from '../../../engine/ceilingrates/parameters.ts';

const API = '/api/v3/search/ceilingrates/';
let db: Database;
let engine: Engine;
let records: CeilingRateRecord[];
let vocab: {
  lcats: string[];
  vendors: string[];
  piids: string[];
  prices: number[];
  sins: string[];
  categories: string[];
  subcategories: string[];
};

const distinct = <T>(values: T[]): T[] => [...new Set(values)];

beforeAll(async () => {
  db = await generatedDatabase('ceilingrates');
  engine = engineOver('ceilingrates', db);
  const result = db.exec('SELECT * FROM ceilingrates ORDER BY id')[0];
  records = result.values.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]])) as unknown as CeilingRateRecord);
  vocab = {
    lcats: distinct(records.map((r) => r.labor_category)),
    vendors: distinct(records.map((r) => r.vendor_name)),
    piids: distinct(records.map((r) => r.idv_piid)),
    prices: distinct(records.map((r) => r.current_price)),
    sins: distinct(records.flatMap((r) => r.sin.split(/[,;/\s]+/).filter((t) => /\d/.test(t)))),
    categories: distinct(records.map((r) => r.category)),
    subcategories: distinct(records.flatMap((r) => r.subcategory.split(';').map((s) => s.trim()))),
  };
});

const pickFrom = <T>(list: () => T[]) => fc.nat().map((i) => list()[i % list().length]);
const casing = fc.constantFrom(
  (s: string) => s,
  (s: string) => s.toUpperCase(),
  (s: string) => s.toLowerCase(),
);

/** A piece of a real value, 2–6 characters, in some casing. */
const fragment = fc
  .tuple(
    pickFrom(() => [...vocab.lcats, ...vocab.vendors, ...vocab.piids]),
    fc.nat(),
    fc.integer({ min: 2, max: 6 }),
    casing,
  )
  .map(([value, at, length, change]) => {
    const start = at % Math.max(1, value.length - 1);
    return change(value.slice(start, start + length));
  })
  .filter((s) => s.trim().length >= 2);

const filterArb = fc.oneof(
  // Codes and production's spelled-out levels (both name the same rates).
  fc
    .subarray(['AA', 'BA', 'HS', 'MA', 'PHD', 'NONE', 'OTHER', 'Bachelors', 'High School Equivalent', 'PhD'], { minLength: 1, maxLength: 3 })
    .map((v) => `education_level:${v.join('|')}`),
  fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 })).map(([lo, span]) => `price_range:${lo},${lo + span}`),
  fc.tuple(fc.double({ min: 10, max: 400, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true })).map(([lo, span]) => `price_range:${lo},${lo + span}`),
  fc.tuple(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 15 })).map(([lo, span]) => `experience_range:${lo},${lo + span}`),
  fc.constantFrom('business_size:S', 'business_size:O', 'business_size:S|O'),
  fc.constantFrom('site:customer', 'site:contractor', 'site:both', 'site:facility', 'worksite:Customer Site', 'site:none'),
  fc.constantFrom('security_clearance:yes', 'security_clearance:no', 'security_clearance:YES|no', 'security_clearance:true', 'security_clearance:false'),
  pickFrom(() => vocab.sins).map((s) => `sin:${s}`),
  pickFrom(() => vocab.categories).map((s) => `category:${s}`),
  pickFrom(() => vocab.subcategories).map((s) => `subcategory:${s}`),
  fc.integer({ min: 0, max: 20 }).map((n) => `min_years_experience:${n}`),
  pickFrom(() => vocab.prices).map((p) => `current_price:${p}`),
  // Ignored filter names: they change nothing.
  pickFrom(() => vocab.vendors).map((v) => `vendor_name:${v}`),
  pickFrom(() => vocab.lcats).map((v) => `labor_category:${v}`),
);

const searchArb = fc
  .tuple(
    fc.constantFrom('labor_category', 'vendor_name', 'idv_piid') as fc.Arbitrary<'labor_category' | 'vendor_name' | 'idv_piid'>,
    fc.nat(),
    casing,
    fc.boolean(),
  )
  .map(([field, i, change, pad]) => {
    const list = field === 'labor_category' ? vocab.lcats : field === 'vendor_name' ? vocab.vendors : vocab.piids;
    const value = change(list[i % list.length]);
    return { field, text: pad ? ` ${value} ` : value };
  });

const queryArb: fc.Arbitrary<RefQuery> = fc.record({
  searches: fc.array(searchArb, { maxLength: 1 }),
  keyword: fc.option(fragment, { freq: 3 }),
  filters: fc.array(filterArb, { maxLength: 3 }),
  exclude: fc.array(fc.integer({ min: 1, max: 3000 }), { maxLength: 4 }),
  ordering: fc.array(fc.record({ field: fc.constantFrom(...ORDER_FIELDS), desc: fc.boolean() }), { maxLength: 3 }),
  page: fc.integer({ min: 1, max: 4 }),
  pageSize: fc.integer({ min: 1, max: 40 }),
});

function url(q: RefQuery): string {
  const p = new URLSearchParams();
  for (const s of q.searches) p.append('search', `${s.field}:${s.text}`);
  if (q.keyword !== null) p.append('keyword', q.keyword);
  for (const f of q.filters) p.append('filter', f);
  if (q.exclude.length) p.append('exclude', q.exclude.join('|'));
  for (const o of q.ordering) p.append('ordering', o.field);
  for (const o of q.ordering) p.append('sort', o.desc ? 'desc' : 'asc');
  p.append('page', String(q.page));
  p.append('page_size', String(q.pageSize));
  return `${API}?${p}`;
}

const close = (a: number | null, b: number | null): boolean => (a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)));

interface Bucket {
  min: number;
  key: number;
  max: number;
  doc_count: number;
}

/** The API reference: ≤ 12 buckets, ascending, not overlapping, covering every price; min/max real, key the mean inside. */
function checkHistogram(buckets: Bucket[], sorted: number[]): void {
  expect(buckets.length).toBeLessThanOrEqual(12);
  expect(buckets.reduce((n, b) => n + b.doc_count, 0)).toBe(sorted.length);
  if (sorted.length === 0) return expect(buckets).toEqual([]);
  expect(buckets[0].min).toBe(sorted[0]);
  expect(buckets.at(-1)!.max).toBe(sorted.at(-1));
  buckets.forEach((b, i) => {
    expect(b.min).toBeLessThanOrEqual(b.max);
    expect(b.key).toBeGreaterThanOrEqual(b.min);
    expect(b.key).toBeLessThanOrEqual(b.max);
    expect(close(b.key, refBucketMean(sorted, b.min, b.max)), `key ${b.key} is the mean of its prices`).toBe(true);
    expect(sorted.filter((v) => v >= b.min && v <= b.max)).toHaveLength(b.doc_count);
    expect(sorted.includes(b.min) && sorted.includes(b.max)).toBe(true);
    if (i > 0) expect(buckets[i - 1].max).toBeLessThan(b.min);
  });
}

describe('engine = reference', () => {
  it('hits, totals and every aggregation over random requests', () => {
    fc.assert(
      fc.property(queryArb, (q) => {
        const r = call(engine, url(q));
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        const matches = refMatches(records, q);
        expect(r.body.hits.total).toEqual({ value: Math.min(matches.length, 10000), relation: matches.length > 10000 ? 'gte' : 'eq' });

        const page = refPage(matches, q);
        expect(r.body.hits.hits.map((h: { _id: string }) => Number(h._id))).toEqual(page.map((p) => p.id));
        // A repeated ordering field is skipped (its first occurrence wins), so `sort` holds each field once.
        const given = q.ordering.filter((o, i) => q.ordering.findIndex((p) => p.field === o.field) === i);
        const ordering = given.length ? given : [{ field: 'current_price' as const, desc: false }];
        r.body.hits.hits.forEach((h: { _source: CeilingRateRecord; sort: unknown[] }, i: number) => {
          expect(h._source).toEqual(page[i]);
          expect(h.sort).toEqual(ordering.map((o) => refSortValue(page[i], o.field)));
        });

        const a = r.body.aggregations;
        // Each terms aggregation against the reference over the matches' values, with its bucket limit.
        const terms: [string, (m: (typeof matches)[number]) => string | null, number][] = [
          ['labor_category', (m) => m.labor_category, 500],
          ['security_clearance', (m) => m.security_clearance, 10],
          ['worksite', (m) => m.worksite, 10],
          ['min_years_experience', (m) => String(m.min_years_experience), 500],
          ['education_level', (m) => m.education_level, 10],
          ['current_price', (m) => m.current_price.toFixed(2), 500],
          ['business_size', (m) => m.business_size, 10],
        ];
        for (const [name, value, size] of terms) expect(a[name], name).toEqual(refTerms(matches.map(value), size));
        expect(a.education_level_counts).toEqual(refEducationCounts(matches.map((m) => m.education_level)));

        const prices = matches.map((m) => m.current_price);
        const stats = refStats(prices);
        for (const [k, v] of Object.entries(stats)) expect(a.wage_stats[k], k).toBe(v);
        const sorted = [...prices].sort((x, y) => x - y);
        for (const p of [10, 25, 30, 35, 50, 65, 70, 75, 90]) {
          const key = p.toFixed(1);
          expect(close(a.histogram_percentiles.values[key], refPercentile(sorted, p)), `p${key}`).toBe(true);
        }
        expect(close(a.median_price.values['50.0'], refPercentile(sorted, 50))).toBe(true);
        checkHistogram(a.wage_histogram.buckets, sorted);
      }),
      { numRuns: 1500 },
    );
  });

  it('suggest-contains: count and distinct values with the other conditions applied; under 2 characters, none', () => {
    const field = fc.constantFrom('labor_category', 'vendor_name', 'idv_piid') as fc.Arbitrary<'labor_category' | 'vendor_name' | 'idv_piid'>;
    const short = fc.constantFrom('', 'a', 'E', ' e ');
    fc.assert(
      fc.property(
        field,
        fc.oneof({ arbitrary: fragment, weight: 5 }, { arbitrary: short, weight: 1 }),
        fc.array(filterArb, { maxLength: 2 }),
        (f, text, filters) => {
          const p = new URLSearchParams({ 'suggest-contains': `${f}:${text}` });
          for (const x of filters) p.append('filter', x);
          const r = call(engine, `${API}?${p}`);
          expect(r.status).toBe(200);
          const needle = text.trim().toLowerCase();
          const matches =
            needle.length < 2
              ? []
              : refMatches(records, { searches: [], keyword: null, filters, exclude: [], ordering: [], page: 1, pageSize: 10 }).filter((m) =>
                  m[f].toLowerCase().includes(needle),
                );
          expect(r.body.hits).toEqual({ total: { value: matches.length, relation: 'eq' }, max_score: null, hits: [] });
          expect(r.body.aggregations).toEqual({
            [f]: refTerms(
              matches.map((m) => m[f]),
              100,
            ),
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('suggest: up to five distinct values beginning with the text, alphabetical, with a record carrying each', () => {
    const field = fc.constantFrom('labor_category', 'vendor_name', 'idv_piid') as fc.Arbitrary<'labor_category' | 'vendor_name' | 'idv_piid'>;
    fc.assert(
      fc.property(
        field,
        pickFrom(() => [...vocab.lcats, ...vocab.vendors, ...vocab.piids]),
        fc.integer({ min: 1, max: 5 }),
        casing,
        (f, value, n, change) => {
          const text = change(value.slice(0, n));
          fc.pre(text.trim().length > 0);
          const r = call(engine, `${API}?${new URLSearchParams({ suggest: `${f}:${text}` })}`);
          expect(r.status).toBe(200);
          const prefix = text.trim().toLowerCase();
          const expected = distinct(records.map((m) => m[f]).filter((v) => v.toLowerCase().startsWith(prefix)))
            .sort(byteOrder)
            .slice(0, 5);
          const [entry] = r.body[`${f}-suggestion`];
          expect(entry.text).toBe(text);
          expect(entry.length).toBe(text.length);
          expect(entry.options.map((o: { text: string }) => o.text)).toEqual(expected);
          for (const o of entry.options) expect(records[Number(o._id) - 1][f]).toBe(o.text);
        },
      ),
      { numRuns: 300 },
    );
  });
});
