/**
 * Where the ceiling-rates endpoint answers as production does, point by point (docs/api/ceiling-rates.md): a
 * prototype written against production keeps working here, and the reverse. Known records; one test per point.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { importIntoDatabase } from '../../../dataset/import/into-database.ts';
import type { Engine } from '../../../engine/index.ts';
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import { insertCeilingRates } from '../../../engine/ceilingrates/schema.ts';
import { call, emptyDatabase, engineOver } from '../../../harness/engine.ts';
import { KNOWN } from './known-records.ts';

const API = '/api/v3/search/ceilingrates/';
let known: Engine;
let wide: Engine;
let clustered: Engine;
let awkward: Engine;

/**
 * Fourteen records, one each of experience 1–14 and of fourteen prices, so a size-10 term aggregation has to
 * choose among ties, and the histogram has more distinct prices than buckets. Education spelled loosely.
 */
const PRICES = [3, 10, 74.79, 104.09, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15];
const EDUCATION = [' ba ', 'tec', 'Tec', 'ma', 'PHD', 'None', 'OTHER', '', 'Bachelors', 'HS', 'AA', 'BA', 'BA', 'xx'];
const WIDE: CeilingRateRecord[] = PRICES.map((price, i) => ({
  ...KNOWN[0],
  id: i + 1,
  labor_category: `Role ${i + 1}`,
  min_years_experience: i + 1,
  current_price: price,
  education_level: EDUCATION[i],
}));

/** Prices in clusters of unequal weight (five records at 10, one at 11), more distinct prices than buckets. */
const CLUSTERED_PRICES = [10, 10, 10, 10, 10, 11, 30, 31, 32, 40, 50, 60, 70, 80, 90, 100, 110, 120];
const CLUSTERED: CeilingRateRecord[] = CLUSTERED_PRICES.map((price, i) => ({ ...KNOWN[0], id: i + 1, current_price: price }));

/** Text a spreadsheet would run, and negative prices. */
const AWKWARD: CeilingRateRecord[] = [
  {
    ...KNOWN[0],
    id: 1,
    labor_category: '\tTabbed Analyst',
    vendor_name: '\rCarriage Return LLC',
    current_price: -12.5,
    next_year_price: -1,
    second_year_price: 0,
  },
  { ...KNOWN[0], id: 2, labor_category: '|Piped Engineer', vendor_name: '@At Corp', current_price: 40, next_year_price: 41.25, second_year_price: null },
];

async function engineOf(records: CeilingRateRecord[]): Promise<Engine> {
  const db = await emptyDatabase('ceilingrates');
  insertCeilingRates(db, records);
  return engineOver('ceilingrates', db);
}

beforeAll(async () => {
  known = await engineOf(KNOWN);
  wide = await engineOf(WIDE);
  clustered = await engineOf(CLUSTERED);
  awkward = await engineOf(AWKWARD);
});

const get = (engine: Engine, query: string) => call(engine, `${API}?${query}`);
const ids = (engine: Engine, query: string): number[] => {
  const r = get(engine, `${query}&page_size=100`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.hits.hits.map((h: { _id: string }) => Number(h._id));
};
const keys = (buckets: { key: string }[]): string[] => buckets.map((b) => b.key);

describe('fidelity: ceiling rates', () => {
  it('point 6: search=<field>:<text> is exact — case-sensitive, untrimmed equality with the stored value', () => {
    // "Program Manager" (1) and "PROGRAM MANAGER " (2) are two values, as production's keyword buckets are.
    expect(ids(known, 'search=labor_category:Program+Manager')).toEqual([1]);
    expect(ids(known, 'search=labor_category:PROGRAM+MANAGER+')).toEqual([2]);
    expect(ids(known, 'search=labor_category:PROGRAM+MANAGER')).toEqual([]);
    expect(ids(known, 'search=labor_category:program+manager')).toEqual([]);
    expect(ids(known, 'search=labor_category:+Program+Manager')).toEqual([]);
    expect(ids(known, 'search=vendor_name:Beta+Systems+Inc.').sort()).toEqual([3, 4]);
    expect(ids(known, 'search=idv_piid:gs-35f-0002b')).toEqual([]);
  });

  it('point 7: term buckets with equal doc_count order by key in byte order', () => {
    const a = get(wide, '').body.aggregations;
    // Numerically 1–14; as strings, "10" … "14" come before "2".
    expect(keys(a.min_years_experience.buckets)).toEqual(['1', '10', '11', '12', '13', '14', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(a.min_years_experience.sum_other_doc_count).toBe(0);
    // "104.09" before "74.79"; "10.00" before "3.00".
    expect(keys(a.current_price.buckets)).toEqual([
      '10.00',
      '104.09',
      '11.00',
      '12.00',
      '13.00',
      '14.00',
      '15.00',
      '3.00',
      '5.00',
      '6.00',
      '7.00',
      '74.79',
      '8.00',
      '9.00',
    ]);
    expect(a.current_price.sum_other_doc_count).toBe(0);
    // A higher count still comes first.
    const known10 = get(known, '').body.aggregations.min_years_experience.buckets;
    expect(keys(known10)).toEqual(['3', '0', '1', '10', '12', '15', '20', '5', '8']);
  });

  it('point 8: a wage_histogram bucket key is the mean of the prices inside it (the centroid), not (min + max) / 2', () => {
    const buckets: { min: number; key: number; max: number; doc_count: number }[] = get(clustered, '').body.aggregations.wage_histogram.buckets;
    expect(buckets.length).toBeLessThan(new Set(CLUSTERED_PRICES).size);
    for (const b of buckets) {
      const inside = CLUSTERED_PRICES.filter((p) => p >= b.min && p <= b.max);
      expect(inside).toHaveLength(b.doc_count);
      expect(b.key).toBeCloseTo(inside.reduce((sum, p) => sum + p, 0) / inside.length, 9);
    }
    // Five tens and an eleven: the centroid 10.1666…, where (min + max) / 2 would say 10.5.
    expect(buckets[0]).toEqual({ min: 10, key: 61 / 6, max: 11, doc_count: 6 });
    // Two records at one price and one at another, alone in their buckets: the key is the price.
    for (const b of get(known, '').body.aggregations.wage_histogram.buckets) expect(b.key).toBe(b.min);
  });

  it('point 9: education_level_counts, after the seven term aggregations: the six codes in order, buckets only', () => {
    const a = get(known, '').body.aggregations;
    expect(Object.keys(a).indexOf('education_level_counts')).toBe(Object.keys(a).indexOf('business_size') + 1);
    const counts = (aa: number, ba: number, hs: number, ma: number, phd: number, tec: number) => ({
      buckets: [
        { key: 'AA', doc_count: aa },
        { key: 'BA', doc_count: ba },
        { key: 'HS', doc_count: hs },
        { key: 'MA', doc_count: ma },
        { key: 'PHD', doc_count: phd },
        { key: 'TEC', doc_count: tec },
      ],
    });
    // NONE (5) and OTHER (6) are not counted; TEC is kept with 0.
    expect(a.education_level_counts).toEqual(counts(1, 2, 1, 2, 2, 0));
    // Trimmed and upper-cased; None, OTHER, empty text, an unmapped spelling and an unknown code are not counted.
    expect(get(wide, '').body.aggregations.education_level_counts).toEqual(counts(1, 3, 1, 1, 1, 2));
    // Over the matches, like the others; absent when nothing matches.
    expect(get(known, 'filter=business_size:O').body.aggregations.education_level_counts).toEqual(counts(1, 1, 1, 0, 1, 0));
    expect(get(known, 'keyword=nothing-like-this').body.aggregations).not.toHaveProperty('education_level_counts');
  });

  it('point 10: suggest-contains with fewer than 2 characters answers 200 with no buckets and total 0', () => {
    for (const text of ['', 'm', ' m ']) {
      const r = get(known, `suggest-contains=labor_category:${encodeURIComponent(text)}`);
      expect(r.status, JSON.stringify(text)).toBe(200);
      expect(r.body.hits).toEqual({ total: { value: 0, relation: 'eq' }, max_score: null, hits: [] });
      expect(r.body.aggregations).toEqual({ labor_category: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] } });
    }
    // Two characters: the normal answer.
    expect(get(known, 'suggest-contains=labor_category:ma').body.hits.total.value).toBe(4);
    // The field is still checked.
    expect(get(known, 'suggest-contains=schedule:m').status).toBe(406);
  });

  it('point 11: filter=vendor_name:… and filter=labor_category:… are ignored; other unknown filter names stay 406', () => {
    const all = KNOWN.map((r) => r.id);
    expect(ids(known, 'filter=vendor_name:Delta+Analytics').sort((a, b) => a - b)).toEqual(all);
    expect(ids(known, 'filter=labor_category:Data+Scientist').sort((a, b) => a - b)).toEqual(all);
    expect(ids(known, 'filter=vendor_name').sort((a, b) => a - b)).toEqual(all);
    // Beside a real filter, the ignored one changes nothing.
    expect(ids(known, 'filter=vendor_name:nobody&filter=business_size:O').sort((a, b) => a - b)).toEqual([3, 4, 9, 10]);
    expect(get(known, 'filter=colour:red').status).toBe(406);
    expect(get(known, 'filter=Vendor_Name:x').body).toEqual({ detail: 'Unknown filter: Vendor_Name' });
  });

  it('point 12: ordering=keywords and ordering=certifications are accepted; null values leave the order to the tie-break', () => {
    for (const field of ['keywords', 'certifications']) {
      for (const sort of ['asc', 'desc']) {
        const r = get(known, `ordering=${field}&sort=${sort}&page_size=100`);
        expect(r.status).toBe(200);
        expect(r.body.hits.hits.map((h: { _id: string }) => Number(h._id))).toEqual(KNOWN.map((k) => k.id));
        for (const hit of r.body.hits.hits) expect(hit.sort).toEqual([null]);
      }
    }
    // As a first key it ties every record: the next key decides.
    const r = get(known, 'ordering=keywords&ordering=current_price&sort=asc&sort=desc&page_size=3');
    expect(r.body.hits.hits.map((h: { _id: string; sort: unknown[] }) => [h._id, h.sort])).toEqual([
      ['6', [null, 9999]],
      ['7', [null, 210.3333]],
      ['2', [null, 175.25]],
    ]);
  });

  it('point 13: the CSV guard covers = + - @ |, tab and carriage return; numbers are written as numbers and import back', async () => {
    const csv = get(awkward, 'export=y').raw.body;
    const lines = csv.split('\r\n');
    // Text guarded (quoted where it holds a CR); negative and zero prices unguarded.
    expect(lines[3]).toContain(`'\tTabbed Analyst`);
    expect(lines[3]).toContain(`"'\rCarriage Return LLC"`);
    expect(lines[3]).toContain(',-12.5,-1,0,');
    expect(lines[3]).not.toContain(`'-12.5`);
    expect(lines.slice(3).join('\n')).toContain(`'|Piped Engineer`);
    expect(lines.slice(3).join('\n')).toContain(`'@At Corp`);

    const { db, report } = await importIntoDatabase(await loadSqlJs(), csv, { name: 'export.csv' });
    expect(report.rowsRejected).toBe(0);
    const back = db.exec('SELECT labor_category, vendor_name, current_price, next_year_price, second_year_price FROM ceilingrates ORDER BY current_price')[0]
      .values;
    expect(back).toEqual(AWKWARD.map((r) => [r.labor_category, r.vendor_name, r.current_price, r.next_year_price, r.second_year_price]));
    db.close();
  });
});
