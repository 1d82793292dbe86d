/**
 * The ceiling-rates answer replayed against responses recorded from production (issue 21, points 2–8). Each
 * fixture in tests/fixtures/recorded/ names its public source and date; records like the recorded ones are loaded
 * here, the recorded request is sent, and the answer must have production's shape: key order, JSON types (a double
 * is written `15.0`, a one-price sample statistic is the string "NaN"), bucket sizes, parameter reading.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/index.ts';
import { SOURCE_FIELDS, type CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import { insertCeilingRates } from '../../../engine/ceilingrates/schema.ts';
import { call, emptyDatabase, engineOver } from '../../../harness/engine.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/recorded/${name}`, import.meta.url), 'utf8'));
/** GSA/open-gsa-redesign, _apidocs/dx-calc-api.md @ 9321955c, 2024-05-03. */
const DOCS_2024 = fixture('calc-2024-05-docs-example.json');
/** 1102tools-dev/federal-contracting-mcps, gsa-calc-mcp fixture @ c61839bb, recorded 2026-10-10. */
const REC_2026 = fixture('calc-2026-10-10-gsa-calc-mcp.json');

const API = '/api/v3/search/ceilingrates/';
/** The recorded request's query string, sent to this app. */
const queryOf = (url: string): string => url.slice(url.indexOf('?'));

/**
 * A 2026 production `_source` in the interface's 2024 shape (docs/api/differences.md): the clearance as text, the
 * education code, the worksite words, no termination date as null, no data_source.
 */
function from2026(source: Record<string, unknown>): CeilingRateRecord {
  const education: Record<string, string> = { Bachelors: 'BA', 'High School': 'HS', 'High School Equivalent': 'HS', Masters: 'MA' };
  const { data_source: _2026only, ...rest } = source;
  return {
    ...(rest as unknown as CeilingRateRecord),
    security_clearance: source.security_clearance ? 'Yes' : 'No',
    education_level: education[String(source.education_level)] ?? String(source.education_level),
    worksite: String(source.worksite).replace('_', ' '),
    dt_termg: source.dt_termg === '' ? null : (source.dt_termg as string | null),
  };
}

async function engineOf(records: CeilingRateRecord[]): Promise<Engine> {
  const db = await emptyDatabase('ceilingrates');
  insertCeilingRates(db, records);
  return engineOver('ceilingrates', db);
}

const ONE = from2026(REC_2026.one_hit.hit._source);
const ENGINEER_1 = 'Engineer 1';
/** 91 records like the recorded `Engineer 1` answer: its education counts, its experience buckets, 60 prices. */
function engineerOnes(): CeilingRateRecord[] {
  const educations = [...Array(78).fill('BA'), ...Array(11).fill('HS'), ...Array(2).fill('MA')];
  const experience = REC_2026.second_colon.min_years_experience_buckets.flatMap((b: { key: string; doc_count: number }) =>
    Array(b.doc_count).fill(Number(b.key)),
  );
  return educations.map((education_level, i) => ({
    ...ONE,
    id: 1000 + i,
    labor_category: ENGINEER_1,
    education_level,
    min_years_experience: experience[i],
    // 60 distinct prices: the first 31 records share 30 of them (pairs of equal price), the rest one each.
    current_price: i < 62 ? 50 + Math.floor(i / 2) : 100 + i,
  }));
}

let one: Engine;
let ninetyTwo: Engine;
let docs2024: Engine;
beforeAll(async () => {
  one = await engineOf([ONE]);
  ninetyTwo = await engineOf([ONE, ...engineerOnes()]);
  // Sixty prices whose median is 27, like the 2024 example's aggregations (median 27.0, count 60).
  const example = DOCS_2024.hit._source as CeilingRateRecord;
  docs2024 = await engineOf(
    Array.from({ length: 60 }, (_, i) => ({ ...example, id: example.id + i, current_price: i < 20 ? 17.52 + i / 10 : i < 40 ? 27 : 28 + i / 10 })),
  );
});

describe('replayed against production answers recorded 2024–2026', () => {
  it("point 5: _source keys in production's order (2024 documentation example and 2026 recordings agree)", () => {
    const recorded2024 = Object.keys(DOCS_2024.hit._source);
    const recorded2026 = Object.keys(REC_2026.one_hit.hit._source).filter((k) => k !== 'data_source');
    expect(recorded2026).toEqual(recorded2024);
    expect([...SOURCE_FIELDS]).toEqual(recorded2024);
    const r = call(one, `${API}${queryOf(REC_2026.one_hit.url)}`);
    expect(Object.keys(r.body.hits.hits[0]._source)).toEqual(recorded2024);
    expect(Object.keys(r.body.hits.hits[0])).toEqual(['_index', '_id', '_score', '_source', 'sort']);
  });

  it('point 3: exactly one price: the four sampling statistics are the string "NaN", the rest doubles (variance 0.0)', () => {
    const r = call(one, `${API}${queryOf(REC_2026.one_hit.url)}`);
    const ours = r.body.aggregations.wage_stats;
    const recorded = REC_2026.one_hit.wage_stats;
    expect(ours.count).toBe(1);
    for (const key of ['variance_sampling', 'std_deviation_sampling']) expect(ours[key], key).toBe(recorded[key]);
    for (const key of ['upper_sampling', 'lower_sampling']) expect(ours.std_deviation_bounds[key], key).toBe(recorded.std_deviation_bounds[key]);
    // Every other statistic has the recorded JSON type.
    for (const [key, value] of Object.entries(recorded)) {
      if (key !== 'std_deviation_bounds') expect(typeof ours[key], key).toBe(typeof value);
    }
    expect(r.raw.body).toContain('"variance":0.0,"variance_population":0.0,"variance_sampling":"NaN"');
    expect(r.raw.body).toContain('"std_deviation":0.0,"std_deviation_population":0.0,"std_deviation_sampling":"NaN"');
    expect(r.raw.body).toContain('"upper_sampling":"NaN","lower_sampling":"NaN"');
  });

  it('point 2: education_level_counts is {buckets} only, the six codes in order with zero counts, absent when nothing matches', () => {
    expect(call(one, `${API}${queryOf(REC_2026.one_hit.url)}`).body.aggregations.education_level_counts).toEqual(REC_2026.one_hit.education_level_counts);
    const r = call(ninetyTwo, `${API}?search=labor_category:${ENGINEER_1}`);
    expect(r.body.aggregations.education_level_counts).toEqual(REC_2026.second_colon.education_level_counts);
    expect(Object.keys(r.body.aggregations.education_level_counts)).toEqual(['buckets']);
    expect(call(one, `${API}?keyword=no-such-rate`).body.aggregations).not.toHaveProperty('education_level_counts');
  });

  it('point 4: doubles are written as doubles: median 27.0 (2024 example), whole sort values and statistics', () => {
    const r = call(docs2024, `${API}${queryOf(DOCS_2024.url)}`);
    expect(r.body.aggregations.wage_stats.count).toBe(DOCS_2024.wage_stats_count);
    // The recorded text, whitespace aside.
    const recordedMedian = DOCS_2024.median_price_text.replace(/\s+/g, '');
    expect(r.raw.body).toContain(recordedMedian);
    // A whole price: `_source` and `sort` both 27.0, the histogram edges doubles, counts integers.
    const whole = call(docs2024, `${API}?filter=current_price:27&page_size=1`);
    expect(whole.raw.body).toContain('"current_price":27.0,');
    expect(whole.raw.body).toContain('"sort":[27.0]');
    expect(whole.raw.body).toMatch(/"wage_histogram":\{"buckets":\[\{"min":27\.0,"key":27\.0,"max":27\.0,"doc_count":20\}\]\}/);
    expect(whole.raw.body).toContain('"wage_stats":{"count":20,"min":27.0,"max":27.0,"avg":27.0,"sum":540.0,');
    // Experience is production's integer: its sort value stays 1.
    expect(call(docs2024, `${API}?ordering=min_years_experience&page_size=1`).raw.body).toContain('"sort":[1]');
    // Nothing matches: the sum is 0.0.
    expect(call(docs2024, `${API}?keyword=no-such-rate`).raw.body).toContain('"sum":0.0,');
    // Suggest options score 1.0.
    expect(call(docs2024, `${API}?suggest=vendor_name:alc`).raw.body).toContain('"_score":1.0,');
  });

  it('point 6: current_price and min_years_experience hold every value up to 500 buckets (recorded: 60, 30, and 500 of 5,560)', () => {
    const a = call(ninetyTwo, `${API}?search=labor_category:${ENGINEER_1}`).body.aggregations;
    expect(a.current_price.buckets).toHaveLength(REC_2026.second_colon.current_price.bucket_count);
    expect(a.current_price.sum_other_doc_count).toBe(REC_2026.second_colon.current_price.sum_other_doc_count);
    expect(a.min_years_experience.buckets).toEqual(REC_2026.second_colon.min_years_experience_buckets);
    expect(a.min_years_experience.sum_other_doc_count).toBe(0);
  });

  it('point 6: beyond 500 distinct prices, 500 buckets and the rest in sum_other_doc_count (recorded filter=sin:541330EMI)', async () => {
    const { wide } = REC_2026;
    // 5,560 records: 500 prices held by 3 records each (1,500), 4,060 prices held by one record each.
    const records = Array.from({ length: wide.total.value }, (_, i) => ({
      ...ONE,
      id: i + 1,
      sin: '541330ENG,541330EMI,541380',
      current_price: i < 1500 ? 1000 + Math.floor(i / 3) : 2000 + i,
      min_years_experience: i % wide.min_years_experience.bucket_count,
    }));
    const a = call(await engineOf(records), `${API}${queryOf(wide.url)}`).body.aggregations;
    expect(a.current_price.buckets).toHaveLength(wide.current_price.bucket_count);
    expect(a.current_price.sum_other_doc_count).toBe(wide.total.value - 1500);
    expect(a.min_years_experience.buckets).toHaveLength(wide.min_years_experience.bucket_count);
    expect(a.min_years_experience.sum_other_doc_count).toBe(wide.min_years_experience.sum_other_doc_count);
  });

  it('point 7: search=<field>:<text with a second colon> matches the text before the second colon', () => {
    const r = call(ninetyTwo, `${API}${queryOf(REC_2026.second_colon.url)}`);
    expect(r.body.hits.total).toEqual(REC_2026.second_colon.total);
    expect(r.body.aggregations.labor_category.buckets).toEqual(REC_2026.second_colon.labor_category_buckets);
    // The whole literal title is still found by keyword, as recorded (one hit).
    const literal = call(ninetyTwo, `${API}${queryOf(REC_2026.one_hit.url)}`);
    expect(literal.body.hits.total).toEqual({ value: 1, relation: 'eq' });
    expect(literal.body.hits.hits[0]._source.labor_category).toBe(REC_2026.one_hit.hit._source.labor_category);
  });

  it('point 7: filter=worksite is ignored, as production ignores it; filter=site still narrows', () => {
    const all = call(ninetyTwo, `${API}?page_size=1`).body.hits.total.value;
    for (const value of ['Customer', 'Contractor', 'Both', 'Contractor_Facility', 'nothing-like-this']) {
      expect(call(ninetyTwo, `${API}?filter=worksite:${value}&page_size=1`).body.hits.total.value, value).toBe(all);
    }
    expect(call(ninetyTwo, `${API}?filter=site:customer&page_size=1`).body.hits.total.value).toBe(0);
  });

  it('point 8: the 2024 shape is kept where 2026 production differs (data_source, boolean clearance, dt_termg "")', () => {
    const recorded = REC_2026.one_hit.hit._source;
    expect(recorded.data_source).toBe('ACR');
    expect(typeof recorded.security_clearance).toBe('boolean');
    expect(recorded.dt_termg).toBe('');
    const ours = call(one, `${API}${queryOf(REC_2026.one_hit.url)}`).body.hits.hits[0]._source;
    expect(ours).not.toHaveProperty('data_source');
    expect(ours.security_clearance).toBe('No');
    expect(ours.dt_termg).toBeNull();
    // Each is listed in the differences table with the date it was seen.
    const differences = readFileSync(new URL('../../../docs/api/differences.md', import.meta.url), 'utf8');
    for (const needle of ['`_source.data_source`', '`_source.security_clearance`', '`_source.dt_termg`']) {
      const row = differences.split('\n').find((line) => line.startsWith('|') && line.includes(needle) && line.includes('2026-10-10'));
      expect(row, needle).toBeDefined();
    }
  });
});
