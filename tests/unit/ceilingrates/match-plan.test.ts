/**
 * The match plan (engine/ceilingrates/query/match-plan.ts), the one place that decides what a query matches:
 * evaluated naively, record by record, it selects what the plain reference selects; the in-memory executor
 * (query/match.ts, with its postings, value orders and combinations) selects exactly what it evaluates to; and
 * a match set made from rows a store found (query/match-set.ts) holds each row once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Database } from 'sql.js';
import { generatedDatabase } from '../../../harness/engine.ts';
import { ceilingRatesIndex, type CeilingRatesIndex } from '../../../engine/ceilingrates/ceiling-rates-index.ts';
import { parseQuery, type CeilingRatesQuery } from '../../../engine/ceilingrates/parse-query.ts';
import { inRanges, matchesEvery, matchPlan, type MatchPlan } from '../../../engine/ceilingrates/query/match-plan.ts';
import { matchedRows, matchSetOfRows } from '../../../engine/ceilingrates/query/match-set.ts';
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import { ratesFromDataArb } from '../../../harness/requests-from-data.ts';
import { runs } from '../fuzz/runs.ts';
import { refMatches, type RefQuery } from './reference.ts';

let db: Database;
let index: CeilingRatesIndex;
let records: CeilingRateRecord[];

beforeAll(async () => {
  db = await generatedDatabase('ceilingrates');
  index = ceilingRatesIndex(db);
  const result = db.exec('SELECT * FROM ceilingrates ORDER BY id')[0];
  records = result.values.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]])) as unknown as CeilingRateRecord);
});

/** The rows a plan selects, decided record by record from its allowed codes, ranges and exclusions. */
function evaluated({ store }: CeilingRatesIndex, plan: MatchPlan): number[] {
  const excluded = new Set(plan.exclude);
  const rows: number[] = [];
  for (let r = 0; r < store.size; r++) {
    const passes =
      plan.codes.every((condition) => condition.some(({ field, allowed }) => allowed[store.text[field].codes[r]] === 1)) &&
      plan.ranges.every(({ field, ranges }) => inRanges(store.numbers[field][r], ranges)) &&
      !excluded.has(store.ids[r]);
    if (passes) rows.push(r);
  }
  return rows;
}

/** A request's query as the reference reads it. */
function refQuery(params: URLSearchParams): RefQuery {
  return {
    searches: params.getAll('search').map((s) => {
      const colon = s.indexOf(':');
      return { field: s.slice(0, colon) as RefQuery['searches'][number]['field'], text: s.slice(colon + 1) };
    }),
    keyword: params.get('keyword')?.trim() || null,
    filters: params.getAll('filter'),
    exclude: params.getAll('exclude').flatMap((e) => e.split('|').map(Number)),
    ordering: [],
    page: 1,
    pageSize: 10,
  };
}

/** Queries from the records' own values: searches, keywords, every filter, exclusions. */
function sampleQueries(count: number, seed: number): { params: URLSearchParams; query: CeilingRatesQuery }[] {
  const { numRuns } = runs(seed, count);
  return fc
    .sample(ratesFromDataArb(db), { seed, numRuns })
    .map((request) => new URL(request.url, 'http://localhost').searchParams)
    .filter((params) => !params.has('export') && !params.has('suggest') && !params.has('suggest-contains'))
    .flatMap((params) => {
      try {
        return [{ params, query: parseQuery(params) }];
      } catch {
        return [];
      }
    });
}

const ids = (rows: readonly number[]): number[] => rows.map((r) => index.store.ids[r]);
const plan = (text: string, contains: CeilingRatesQuery['suggestContains'] = null): MatchPlan =>
  matchPlan(index.ratesTables, parseQuery(new URLSearchParams(text)), contains);
/** The values a plan's one condition allows of its one field. */
const allowedValues = (planned: MatchPlan): (string | null)[] => {
  const [[{ field, allowed }]] = planned.codes;
  return index.store.text[field].values.filter((_, code) => allowed[code] === 1);
};

describe('a match plan', () => {
  it('evaluated record by record, selects what the plain reference selects', () => {
    const sample = sampleQueries(400, 50_001);
    expect(sample.length).toBeGreaterThan(200);
    let reached = 0;
    for (const { params, query } of sample) {
      const expected = refMatches(records, refQuery(params)).map((r) => r.id);
      expect(ids(evaluated(index, matchPlan(index.ratesTables, query))), params.toString()).toEqual(expected);
      if (expected.length > 0) reached++;
    }
    expect(reached).toBeGreaterThan(50);
  });

  it('is executed over the columns exactly as it evaluates, whichever way the executor takes', () => {
    for (const { params, query } of sampleQueries(400, 50_002)) {
      const planned = matchPlan(index.ratesTables, query);
      expect(Array.from(matchedRows(index.match(query))), params.toString()).toEqual(evaluated(index, planned));
    }
  });

  it('has no condition for a query that selects nothing out', () => {
    expect(matchesEvery(plan(''))).toBe(true);
    expect(matchesEvery(plan('page=3&ordering=vendor_name'))).toBe(true);
    expect(matchesEvery(plan('exclude=1'))).toBe(false);
  });

  it('allows a search’s whole value only, case-sensitive and untrimmed', () => {
    const value = index.store.text.vendor_name.values.find((v) => v !== null && /[a-z]/i.test(v))!;
    expect(allowedValues(plan(`search=vendor_name:${encodeURIComponent(value)}`))).toEqual([value]);
    expect(allowedValues(plan(`search=vendor_name:${encodeURIComponent(value.toLowerCase() === value ? value.toUpperCase() : value.toLowerCase())}`))).toEqual(
      [],
    );
    expect(allowedValues(plan(`search=vendor_name:${encodeURIComponent(` ${value}`)}`))).toEqual([]);
  });

  it('allows a keyword’s folded text inside any search field’s folded value, and suggest-contains’ in its one field', () => {
    const keyword = plan('keyword=ENGIN');
    expect(keyword.codes).toHaveLength(1);
    expect(keyword.codes[0].map(({ field }) => field)).toEqual(['labor_category', 'vendor_name', 'idv_piid']);
    for (const { field, allowed } of keyword.codes[0]) {
      index.store.text[field].values.forEach((v, code) => expect(allowed[code], `${field} ${v}`).toBe((v ?? '').toLowerCase().includes('engin') ? 1 : 0));
    }
    const contains = plan('', { field: 'vendor_name', text: ' TEC ', tooShort: false });
    expect(contains.codes).toEqual([[{ field: 'vendor_name', allowed: expect.any(Uint8Array) }]]);
    expect(allowedValues(contains).every((v) => v!.toLowerCase().includes('tec'))).toBe(true);
  });

  it('allows SIN values holding a code whatever its suffix, list values holding an element, worksites holding a phrase’s words', () => {
    for (const value of allowedValues(plan('filter=sin:874-1.0'))) expect(value!.split(/[,;/\s]+/).map((c) => c.replace(/\.\d+$/, ''))).toContain('874-1');
    const category = index.store.text.category.values.find((v) => v !== null && v.includes(';'));
    if (category) {
      const element = category.split(';')[1].trim();
      expect(allowedValues(plan(`filter=category:${encodeURIComponent(element)}`))).toContain(category);
    }
    expect(allowedValues(plan('filter=site:CUSTOMER')).every((v) => /(^|[^a-z])customer([^a-z]|$)/i.test(v!))).toBe(true);
  });

  it('allows clearance values by class and education levels by code or by production’s words', () => {
    expect(new Set(allowedValues(plan('filter=security_clearance:true')).map((v) => v!.trim().toLowerCase()))).toEqual(
      new Set(allowedValues(plan('filter=security_clearance:yes')).map((v) => v!.trim().toLowerCase())),
    );
    expect(allowedValues(plan('filter=education_level:Bachelors'))).toEqual(allowedValues(plan('filter=education_level:BA')));
  });

  it('keeps numeric filters as ranges (exact values as one-value ranges) and exclusions as ids', () => {
    const planned = plan('filter=price_range:500,15|20,30&filter=current_price:40&filter=min_years_experience:3|4&exclude=7|8');
    expect(planned.ranges).toEqual([
      {
        field: 'current_price',
        ranges: [
          [500, 15],
          [20, 30],
        ],
      },
      { field: 'current_price', ranges: [[40, 40]] },
      {
        field: 'min_years_experience',
        ranges: [
          [3, 3],
          [4, 4],
        ],
      },
    ]);
    expect(planned.exclude).toEqual([7, 8]);
    // A range whose low end is above its high end holds nothing.
    expect(evaluated(index, plan('filter=price_range:500,15'))).toEqual([]);
  });
});

describe('a match set of rows a store found', () => {
  it('holds each row once however often it came, listing the matches when they are few', () => {
    const { buffers, size } = index.ratesTables;
    const match = matchSetOfRows(buffers, [5, 3, 5, 9, 3, 3, 0], false);
    expect(match.count).toBe(4);
    expect(Array.from(match.rows!)).toEqual([0, 3, 5, 9]);
    expect(match.rest).toBeNull();
    expect(match.mask.length).toBe(size);
  });

  it('of every row but those, listing the rows left out when the matches are many', () => {
    const { buffers, size } = index.ratesTables;
    const match = matchSetOfRows(buffers, [8, 2, 8], true);
    expect(match.count).toBe(size - 2);
    expect(match.rows).toBeNull();
    expect(Array.from(match.rest!)).toEqual([2, 8]);
    expect(Array.from(matchedRows(match)).slice(0, 4)).toEqual([0, 1, 3, 4]);
    expect(matchSetOfRows(buffers, [], true).count).toBe(size);
  });
});
