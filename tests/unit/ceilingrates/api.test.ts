/**
 * The ceiling-rates endpoint over known records: one test per parameter, per error, and per point of the
 * envelope in docs/api/ceiling-rates.md.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, emptyDatabase, engineOver } from '../../../harness/engine.ts';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { insertCeilingRates } from '../../../engine/ceilingrates/schema.ts';
import { KNOWN } from './known-records.ts';
import { RECORD_ORDER_FIELDS } from '../../../harness/fuzz/requests.ts';
import { SOURCE_FIELDS } from '../../../engine/ceilingrates/record.ts';

const API = '/api/v3/search/ceilingrates/';
let engine: Engine;

beforeAll(async () => {
  const db = await emptyDatabase('ceilingrates');
  insertCeilingRates(db, KNOWN);
  engine = engineOver('ceilingrates', db);
});

const get = (query: string, method = 'GET') => call(engine, `${API}?${query}`, method);
const ids = (query: string): number[] => {
  const r = get(query);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.hits.hits.map((h: { _id: string }) => Number(h._id));
};
/** All matching ids, in id order (page large enough for the fixture). */
const matching = (query: string): number[] => ids(`${query}&page_size=100`).sort((a, b) => a - b);

describe('paths, methods and headers', () => {
  it('answers under the app path, the gateway path, and without the trailing slash', () => {
    for (const path of [API, '/acquisition/calc/v3/api/ceilingrates/', '/api/v3/search/ceilingrates']) {
      const r = call(engine, `${path}?page_size=1`);
      expect(r.status).toBe(200);
      expect(r.body.hits.total).toEqual({ value: 10, relation: 'eq' });
    }
  });

  it('ignores api_key and unknown parameters', () => {
    expect(matching('api_key=abc&whatever=1')).toEqual(KNOWN.map((r) => r.id));
  });

  it('sends Allow and Vary on every response, errors included', () => {
    for (const r of [get(''), get('filter=nope:1'), call(engine, `${API}x`), get('', 'POST'), get('', 'OPTIONS')]) {
      expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(r.headers.vary).toBe('Accept');
    }
  });

  it('HEAD gives the GET status and headers with no body', () => {
    const head = get('page_size=1', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.raw.body).toBe('');
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('OPTIONS describes the endpoint', () => {
    const r = get('', 'OPTIONS');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ name: 'Ceiling Rates', renders: ['application/json'], parses: ['application/json'] });
  });

  it('other methods: 405 in the DRF shape naming the method', () => {
    expect(get('', 'POST').status).toBe(405);
    expect(get('', 'POST').body).toEqual({ detail: 'Method "POST" not allowed.' });
    expect(get('', 'DELETE').body).toEqual({ detail: 'Method "DELETE" not allowed.' });
  });

  it('an unknown path under the base: 404 {"detail":"Not found."}', () => {
    const r = call(engine, `${API}nothing/here`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ detail: 'Not found.' });
  });

  it('503 in the DRF shape while no dataset is loaded', () => {
    const r = call(createEngine(), API);
    expect(r.status).toBe(503);
    expect(typeof r.body.detail).toBe('string');
    expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('500 in the DRF shape when the database is broken, and the engine stays usable', async () => {
    const broken = createEngine();
    const db = await emptyDatabase('ceilingrates');
    db.run('DROP TABLE ceilingrates');
    broken.use('ceilingrates', db);
    const errors = console.error;
    console.error = () => {};
    try {
      const r = call(broken, API);
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ detail: 'Internal server error' });
    } finally {
      console.error = errors;
    }
    expect(get('page_size=1').status).toBe(200);
  });
});

describe('envelope', () => {
  it("has the search-engine shape; each hit wraps the full record in production's key order", () => {
    const r = get('page_size=1');
    expect(Object.keys(r.body)).toEqual(['took', 'timed_out', '_shards', 'hits', 'aggregations']);
    expect(Number.isInteger(r.body.took)).toBe(true);
    expect(r.body.timed_out).toBe(false);
    expect(r.body._shards).toEqual({ total: 1, successful: 1, skipped: 0, failed: 0 });
    expect(r.body.hits.max_score).toBeNull();
    const [hit] = r.body.hits.hits;
    expect(hit).toEqual({ _index: 'ceilingrates', _id: '5', _score: null, _source: KNOWN[4], sort: [27] });
    expect(Object.keys(hit._source)).toEqual([...SOURCE_FIELDS]);
    // A whole price is written as a double, in `_source` and in `sort` alike.
    expect(r.raw.body).toContain('"current_price":27.0,');
    expect(r.raw.body).toContain('"sort":[27.0]');
    expect(Object.keys(hit)).toEqual(['_index', '_id', '_score', '_source', 'sort']);
  });

  it('the aggregations come in the documented order', () => {
    expect(Object.keys(get('').body.aggregations)).toEqual([
      'labor_category',
      'security_clearance',
      'worksite',
      'min_years_experience',
      'education_level',
      'current_price',
      'business_size',
      'education_level_counts',
      'wage_histogram',
      'histogram_percentiles',
      'median_price',
      'wage_stats',
    ]);
  });

  it('a request that matches nothing is a 200 with the no-match shape', () => {
    const r = get('keyword=nothing-like-this');
    expect(r.status).toBe(200);
    expect(r.body.hits).toEqual({ total: { value: 0, relation: 'eq' }, max_score: null, hits: [] });
    const a = r.body.aggregations;
    for (const name of ['labor_category', 'security_clearance', 'worksite', 'min_years_experience', 'education_level', 'current_price', 'business_size']) {
      expect(a[name]).toEqual({ doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] });
    }
    // Production leaves education_level_counts out when nothing matches.
    expect(a).not.toHaveProperty('education_level_counts');
    expect(a.wage_histogram).toEqual({ buckets: [] });
    expect(Object.values(a.histogram_percentiles.values)).toEqual(Array(9).fill(null));
    expect(a.median_price).toEqual({ values: { '50.0': null } });
    expect(a.wage_stats.count).toBe(0);
    expect(a.wage_stats.sum).toBe(0);
    for (const k of [
      'min',
      'max',
      'avg',
      'sum_of_squares',
      'variance',
      'variance_population',
      'variance_sampling',
      'std_deviation',
      'std_deviation_population',
      'std_deviation_sampling',
    ]) {
      expect(a.wage_stats[k]).toBeNull();
    }
    expect(Object.values(a.wage_stats.std_deviation_bounds)).toEqual(Array(6).fill(null));
  });
});

describe('search', () => {
  it('matches the whole field exactly: case-sensitive, untrimmed, + as space', () => {
    expect(matching('search=labor_category:Program+Manager')).toEqual([1]);
    expect(matching('search=labor_category:PROGRAM+MANAGER+')).toEqual([2]);
    expect(matching('search=labor_category:program+manager')).toEqual([]);
    expect(matching('search=labor_category:Program')).toEqual([]);
  });
  it('vendor_name and idv_piid', () => {
    expect(matching('search=vendor_name:Beta+Systems+Inc.')).toEqual([3, 4]);
    expect(matching('search=idv_piid:GS-23F-0005D')).toEqual([9, 10]);
  });
  it('the text is everything after the first colon', () => {
    expect(matching('search=vendor_name:=Danger Corp')).toEqual([6]);
  });
  it('an unknown field or a value without a colon: 406', () => {
    expect(get('search=schedule:MAS').status).toBe(406);
    expect(get('search=schedule:MAS').body.detail).toMatch(/search/);
    expect(get('search=nocolon').status).toBe(406);
  });
});

describe('keyword', () => {
  it('is a case-insensitive substring of labor_category, vendor_name or idv_piid', () => {
    expect(matching('keyword=MANAGER')).toEqual([1, 2, 7, 8]);
    expect(matching('keyword=delta')).toEqual([9, 10]);
    expect(matching('keyword=0002b')).toEqual([3, 4]);
    expect(matching('keyword=oftware+eng')).toEqual([3, 4]);
  });
  it('an empty keyword is ignored; one character is a 406', () => {
    expect(matching('keyword=')).toHaveLength(10);
    expect(matching('keyword=++')).toHaveLength(10);
    const r = get('keyword=a');
    expect(r.status).toBe(406);
    expect(r.body.detail).toMatch(/keyword/);
  });
});

describe('filters', () => {
  it('education_level: exact codes with | alternatives', () => {
    expect(matching('filter=education_level:PHD')).toEqual([7, 9]);
    expect(matching('filter=education_level:BA%7CMA')).toEqual([1, 2, 8, 10]);
    expect(matching('filter=education_level:ba')).toEqual([]);
  });
  it('price_range: inclusive', () => {
    expect(matching('filter=price_range:88.1,150')).toEqual([1, 3, 9, 10]);
  });
  it('experience_range: inclusive', () => {
    expect(matching('filter=experience_range:3,5')).toEqual([3, 6, 10]);
  });
  it('current_price and min_years_experience: exact', () => {
    expect(matching('filter=current_price:99.99')).toEqual([3, 9]);
    expect(matching('filter=min_years_experience:0')).toEqual([5]);
  });
  it('a malformed range or number: 406 naming the filter', () => {
    for (const f of ['price_range:10', 'price_range:a,b', 'experience_range:1,2,3', 'price_range:', 'current_price:x', 'min_years_experience:']) {
      const r = get(`filter=${f}`);
      expect(r.status, f).toBe(406);
      expect(r.body.detail).toContain(f.split(':')[0]);
    }
  });
  it('business_size', () => {
    expect(matching('filter=business_size:O')).toEqual([3, 4, 9, 10]);
    expect(matching('filter=business_size:S%7CO')).toHaveLength(10);
  });
  it('site: a case-insensitive word of worksite; worksite: ignored, as production ignores it', () => {
    expect(matching('filter=site:customer')).toEqual([1, 3, 6, 8, 9]);
    expect(matching('filter=site:both')).toEqual([4, 10]);
    expect(matching('filter=site:Facility')).toEqual([1, 2, 8]);
    expect(matching('filter=worksite:Facility')).toHaveLength(10);
    expect(matching('filter=site:custom')).toEqual([]);
  });
  it('security_clearance: yes (Yes, true) and no (No, None, N/A, false); As Required and null neither', () => {
    expect(matching('filter=security_clearance:yes')).toEqual([1, 7, 9]);
    expect(matching('filter=security_clearance:NO')).toEqual([2, 3, 6, 8, 10]);
    expect(matching('filter=security_clearance:yes%7Cno')).toEqual([1, 2, 3, 6, 7, 8, 9, 10]);
  });
  it('sin: one code of the split text equals the value; separators and decimal suffixes', () => {
    expect(matching('filter=sin:874-1')).toEqual([1, 2, 7]);
    expect(matching('filter=sin:874-1RC')).toEqual([1, 2, 7]);
    expect(matching('filter=sin:132-51')).toEqual([3, 4]);
    expect(matching('filter=sin:132-51.0')).toEqual([3, 4]);
    expect(matching('filter=sin:541-4B')).toEqual([3]);
    expect(matching('filter=sin:C871-2')).toEqual([5]);
    expect(matching('filter=sin:871-2')).toEqual([8]);
    expect(matching('filter=sin:874-4RC')).toEqual([6]);
    expect(matching('filter=sin:871-4')).toEqual([9]);
    expect(matching('filter=sin:871-5')).toEqual([10]);
    expect(matching('filter=sin:and')).toEqual([]);
    expect(matching('filter=sin:874')).toEqual([]);
  });
  it('category and subcategory: one element of the list equals the name', () => {
    expect(matching('filter=category:Information%20Technology')).toEqual([3, 4]);
    expect(matching('filter=subcategory:IT%20Professional%20Services')).toEqual([3]);
    expect(matching('filter=subcategory:IT%20Services')).toEqual([3, 4]);
    expect(matching('filter=category:Information')).toEqual([]);
  });
  it('several filters AND together, and with search and keyword', () => {
    expect(matching('filter=business_size:O&filter=education_level:PHD%7CBA')).toEqual([9, 10]);
    expect(matching('keyword=manager&filter=site:customer&filter=price_range:0,160')).toEqual([1, 8]);
    expect(matching('search=vendor_name:Delta+Analytics&filter=min_years_experience:3')).toEqual([10]);
  });
  it('an unknown filter: 406 Unknown filter', () => {
    expect(get('filter=color:red').body).toEqual({ detail: 'Unknown filter: color' });
    expect(get('filter=color:red').status).toBe(406);
    expect(get('filter=nocolon').body).toEqual({ detail: 'Unknown filter: nocolon' });
  });
});

describe('exclude', () => {
  it('leaves the ids out of the hits and every aggregation', () => {
    const r = get('exclude=1%7C2%7C7&page_size=100');
    expect(r.body.hits.hits.map((h: { _id: string }) => Number(h._id)).sort((a: number, b: number) => a - b)).toEqual([3, 4, 5, 6, 8, 9, 10]);
    expect(r.body.hits.total.value).toBe(7);
    expect(r.body.aggregations.wage_stats.count).toBe(7);
    expect(r.body.aggregations.education_level.buckets.find((b: { key: string }) => b.key === 'PHD').doc_count).toBe(1);
  });
  it('ignores ids that are not numbers or not present', () => {
    expect(matching('exclude=x%7C999%7C5')).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10]);
  });
});

describe('ordering, sort and paging', () => {
  it('default: current_price ascending, ties on id, sort holds the price', () => {
    const r = get('page_size=100');
    expect(r.body.hits.hits.map((h: { _id: string }) => Number(h._id))).toEqual([5, 8, 4, 10, 3, 9, 1, 2, 7, 6]);
    expect(r.body.hits.hits.map((h: { sort: unknown[] }) => h.sort)).toEqual([
      [27],
      [27.004],
      [45.5],
      [88.1],
      [99.99],
      [99.99],
      [150],
      [175.25],
      [210.3333],
      [9999],
    ]);
  });
  it('a sort without ordering is ignored', () => {
    expect(ids('sort=desc&page_size=3')).toEqual([5, 8, 4]);
  });
  it('desc, ties still on id ascending', () => {
    expect(ids('ordering=current_price&sort=desc&page_size=100')).toEqual([6, 7, 2, 1, 3, 9, 10, 4, 8, 5]);
  });
  it('pairs by position; a missing sort is asc; sort has one element per ordering', () => {
    const r = get('ordering=vendor_name&ordering=current_price&sort=desc&page_size=4');
    expect(r.body.hits.hits.map((h: { sort: unknown[] }) => h.sort)).toEqual([
      ['Gamma Federal Group', 27],
      ['Gamma Federal Group', 27.004],
      ['Delta Analytics', 88.1],
      ['Delta Analytics', 99.99],
    ]);
  });
  it('text orders by byte order (upper case before lower case)', () => {
    expect(ids('ordering=labor_category&page_size=100')).toEqual([6, 5, 10, 9, 4, 2, 1, 7, 8, 3]);
  });
  it('nulls last in both directions; numbers as numbers in sort', () => {
    const asc = get('ordering=next_year_price&page_size=100').body.hits.hits;
    expect(asc.map((h: { sort: unknown[] }) => h.sort[0])).toEqual([101, 102.5, 154.5, 180, 215, null, null, null, null, null]);
    const desc = get('ordering=next_year_price&sort=desc&page_size=100').body.hits.hits;
    expect(desc.map((h: { sort: unknown[] }) => h.sort[0])).toEqual([215, 180, 154.5, 102.5, 101, null, null, null, null, null]);
    expect(desc.slice(5).map((h: { _id: string }) => Number(h._id))).toEqual([4, 5, 6, 8, 10]);
  });
  it('every documented ordering field is accepted', () => {
    for (const f of RECORD_ORDER_FIELDS) {
      const r = get(`ordering=${f}&sort=desc&page_size=100`);
      expect(r.status, f).toBe(200);
      expect(r.body.hits.hits).toHaveLength(10);
    }
  });
  it('multi-field: education desc then experience asc', () => {
    expect(ids('ordering=education_level&sort=desc&ordering=min_years_experience&sort=asc&page_size=100')).toEqual([9, 7, 6, 5, 2, 8, 3, 10, 1, 4]);
  });
  it('unknown field and bad direction: 406', () => {
    expect(get('ordering=color').body).toEqual({ detail: 'Invalid ordering field: color' });
    expect(get('ordering=color').status).toBe(406);
    expect(get('ordering=current_price&sort=up').status).toBe(406);
  });
  it('page and page_size', () => {
    expect(ids('page_size=3')).toEqual([5, 8, 4]);
    expect(ids('page=2&page_size=3')).toEqual([10, 3, 9]);
    expect(ids('page=4&page_size=3')).toEqual([6]);
    expect(ids('page=5&page_size=3')).toEqual([]);
  });
  it('page_size defaults to 10 and allows up to 500', () => {
    expect(ids('')).toHaveLength(10);
    expect(get('page_size=500').status).toBe(200);
  });
  it('bad page or page_size: 406 naming the parameter', () => {
    for (const [q, name] of [
      ['page=0', 'page'],
      ['page=x', 'page'],
      ['page=1.5', 'page'],
      ['page=-1', 'page'],
      ['page_size=0', 'page_size'],
      ['page_size=501', 'page_size'],
      ['page_size=ten', 'page_size'],
    ]) {
      const r = get(q);
      expect(r.status, q).toBe(406);
      expect(r.body.detail, q).toContain(name);
    }
  });
  it('the result window: page * page_size over 10000 is a 406', () => {
    expect(get('page=20&page_size=500').status).toBe(200);
    expect(get('page=21&page_size=500').status).toBe(406);
    expect(get('page=10001&page_size=1').body.detail).toContain('page');
    expect(get('page=10000&page_size=1').status).toBe(200);
  });
});

describe('aggregations', () => {
  const aggs = () => get('').body.aggregations;
  it('term buckets: doc_count desc then key asc, strings, null is no bucket', () => {
    expect(aggs().security_clearance).toEqual({
      doc_count_error_upper_bound: 0,
      sum_other_doc_count: 0,
      buckets: [
        { key: 'No', doc_count: 2 },
        { key: 'Yes', doc_count: 2 },
        { key: 'As Required', doc_count: 1 },
        { key: 'N/A', doc_count: 1 },
        { key: 'None', doc_count: 1 },
        { key: 'false', doc_count: 1 },
        { key: 'true', doc_count: 1 },
      ],
    });
  });
  it('current_price keys have two decimals and merge equal keys', () => {
    const buckets = aggs().current_price.buckets;
    expect(buckets.slice(0, 2)).toEqual([
      { key: '27.00', doc_count: 2 },
      { key: '99.99', doc_count: 2 },
    ]);
    expect(buckets.map((b: { key: string }) => b.key)).toContain('210.33');
    expect(aggs().current_price.sum_other_doc_count).toBe(0);
  });
  it('experience keys are integers as strings; size 10 leaves the rest in sum_other_doc_count', () => {
    const a = aggs().min_years_experience;
    // Ties order by the key as a string, in byte order: 0, 1, 10, 12 …
    expect(a.buckets.slice(0, 4)).toEqual([
      { key: '3', doc_count: 2 },
      { key: '0', doc_count: 1 },
      { key: '1', doc_count: 1 },
      { key: '10', doc_count: 1 },
    ]);
    expect(a.buckets).toHaveLength(9);
    expect(a.sum_other_doc_count).toBe(0);
    const wide = get('').body.aggregations.labor_category;
    expect(wide.buckets).toHaveLength(10);
    expect(wide.buckets.every((b: { doc_count: number }) => b.doc_count === 1)).toBe(true);
  });
  it('education, worksite, business_size', () => {
    const a = aggs();
    expect(a.education_level.buckets[0]).toEqual({ key: 'BA', doc_count: 2 });
    expect(a.worksite.buckets.slice(0, 3)).toEqual([
      { key: 'Both', doc_count: 2 },
      { key: 'Customer', doc_count: 2 },
      { key: 'Customer Facility', doc_count: 2 },
    ]);
    expect(a.business_size.buckets).toEqual([
      { key: 'S', doc_count: 6 },
      { key: 'O', doc_count: 4 },
    ]);
  });
  it('wage_stats: extended statistics, sampling and population, bounds at 2 sigma', () => {
    const prices = KNOWN.map((r) => r.current_price);
    const s = aggs().wage_stats;
    const sum = prices.reduce((a, b) => a + b, 0);
    const squares = prices.reduce((a, b) => a + b * b, 0);
    const n = prices.length;
    const population = (squares - (sum * sum) / n) / n;
    const sampling = (squares - (sum * sum) / n) / (n - 1);
    expect(s.count).toBe(10);
    expect(s.min).toBe(27);
    expect(s.max).toBe(9999);
    expect(s.sum).toBe(sum);
    expect(s.avg).toBe(sum / n);
    expect(s.sum_of_squares).toBe(squares);
    expect(s.variance).toBe(population);
    expect(s.variance_population).toBe(population);
    expect(s.variance_sampling).toBe(sampling);
    expect(s.std_deviation).toBe(Math.sqrt(population));
    expect(s.std_deviation_sampling).toBe(Math.sqrt(sampling));
    expect(s.std_deviation_bounds.upper).toBe(sum / n + 2 * Math.sqrt(population));
    expect(s.std_deviation_bounds.lower_sampling).toBe(sum / n - 2 * Math.sqrt(sampling));
  });
  it('a single match has no sampling variance: "NaN", as production writes it', () => {
    const s = get('search=labor_category:Data+Scientist').body.aggregations.wage_stats;
    expect(s.count).toBe(1);
    expect(s.variance).toBe(0);
    expect(s.variance_sampling).toBe('NaN');
    expect(s.std_deviation_sampling).toBe('NaN');
    expect(s.std_deviation_bounds.upper_sampling).toBe('NaN');
    expect(s.std_deviation_bounds.lower_sampling).toBe('NaN');
  });
  it('percentiles and median: exact, linear interpolation between closest ranks', () => {
    const a = aggs();
    // Sorted: 27, 27.004, 45.5, 88.1, 99.99, 99.99, 150, 175.25, 210.3333, 9999 (n = 10).
    expect(Object.keys(a.histogram_percentiles.values)).toEqual(['10.0', '25.0', '30.0', '35.0', '50.0', '65.0', '70.0', '75.0', '90.0']);
    expect(a.histogram_percentiles.values['50.0']).toBeCloseTo(99.99, 9);
    expect(a.histogram_percentiles.values['10.0']).toBeCloseTo(27 * 0.1 + 27.004 * 0.9, 9);
    expect(a.histogram_percentiles.values['90.0']).toBeCloseTo(210.3333 * 0.9 + 9999 * 0.1, 9);
    expect(a.histogram_percentiles.values['25.0']).toBeCloseTo(45.5 * 0.75 + 88.1 * 0.25, 9);
    expect(a.median_price.values).toEqual({ '50.0': a.histogram_percentiles.values['50.0'] });
  });
  it('wage_histogram: at most 12 ascending buckets covering every price', () => {
    const buckets = aggs().wage_histogram.buckets;
    expect(buckets.length).toBeLessThanOrEqual(12);
    expect(buckets.reduce((n: number, b: { doc_count: number }) => n + b.doc_count, 0)).toBe(10);
    expect(buckets[0].min).toBe(27);
    expect(buckets.at(-1).max).toBe(9999);
    // Nine distinct prices, twelve buckets allowed: one bucket per price, whose key (the mean inside) is that price.
    for (const b of buckets) expect(b.key).toBe(b.min);
  });
  it('the aggregations cover every match, not just the page', () => {
    expect(get('page_size=1').body.aggregations.wage_stats.count).toBe(10);
  });
});

describe('suggest-contains', () => {
  it('returns no hits, the count, and one aggregation of distinct values containing the text', () => {
    const r = get('suggest-contains=labor_category:manager');
    expect(r.status).toBe(200);
    expect(r.body.hits.hits).toEqual([]);
    expect(r.body.hits.total).toEqual({ value: 4, relation: 'eq' });
    expect(Object.keys(r.body.aggregations)).toEqual(['labor_category']);
    expect(r.body.aggregations.labor_category.buckets).toEqual([
      { key: 'PROGRAM MANAGER ', doc_count: 1 },
      { key: 'Program Manager', doc_count: 1 },
      { key: 'Project Manager', doc_count: 1 },
      { key: 'Senior Project Manager', doc_count: 1 },
    ]);
  });
  it('applies the other conditions; vendor_name and idv_piid', () => {
    const r = get('suggest-contains=vendor_name:ta&filter=business_size:O');
    expect(r.body.aggregations.vendor_name.buckets).toEqual([
      { key: 'Beta Systems Inc.', doc_count: 2 },
      { key: 'Delta Analytics', doc_count: 2 },
    ]);
    expect(get('suggest-contains=idv_piid:gs-35').body.aggregations.idv_piid.buckets).toEqual([{ key: 'GS-35F-0002B', doc_count: 2 }]);
  });
  it('an unknown field: 406', () => {
    expect(get('suggest-contains=schedule:MAS').status).toBe(406);
    expect(get('suggest-contains=schedule:m').status).toBe(406);
  });
});

describe('suggest', () => {
  it('only the <field>-suggestion key: up to 5 distinct values beginning with the text, alphabetical', () => {
    const r = get('suggest=vendor_name:g');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      'vendor_name-suggestion': [
        { text: 'g', offset: 0, length: 1, options: [{ text: 'Gamma Federal Group', _index: 'ceilingrates', _id: '5', _score: 1.0, _source: {} }] },
      ],
    });
  });
  it('case-insensitive, at most 5, repeatable', () => {
    const r = get('suggest=labor_category:P&suggest=vendor_name:DELTA');
    expect(r.body['labor_category-suggestion'][0].options.map((o: { text: string }) => o.text)).toEqual([
      'PROGRAM MANAGER ',
      'Program Manager',
      'Project Manager',
    ]);
    expect(r.body['vendor_name-suggestion'][0].options.map((o: { _id: string }) => o._id)).toEqual(['9']);
    expect(Object.keys(r.body)).toEqual(['labor_category-suggestion', 'vendor_name-suggestion']);
    const many = get('suggest=labor_category:%20');
    expect(many.status).toBe(406);
  });
});

describe('export=y', () => {
  it('CSV: two metadata rows, the Contract # header, one row per match in order, formula guard', () => {
    const r = get('export=y&filter=business_size:S&keyword=an');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/csv/);
    expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
    const lines = (r.body as string).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Search query,an');
    expect(lines[1]).toBe('Filters,business_size:S');
    expect(lines[2].startsWith('Contract #,')).toBe(true);
    // Records 5, 8, 1, 2, 7, 6 (price order) — every S record with "an" somewhere.
    expect(lines.slice(3).map((l) => l.split(',')[0])).toEqual([
      '47QTCA20D0003',
      '47QTCA20D0003',
      'GS-10F-0001A',
      'GS-10F-0001A',
      'GS-10F-0001A',
      'GS-00F-0004C',
    ]);
    const danger = lines.find((l) => l.includes('Danger'))!;
    expect(danger).toContain(",'=Danger Corp,'-Data Analyst,");
    expect(r.body).toContain('"Acme Consulting, LLC"');
    expect(r.body).toContain('"871-1\n871-2"');
  });
});
