/**
 * The requests once found slow, or wrong, at 250,000 rates, over small data: each gets its answer (an error in
 * the API's own shape naming the parameter and the limit, or the same result as the request within limits).
 * Behaviour only: times are measured by `npm run fuzz`, never asserted here.
 */
import { wageHistogram } from '../../../engine/ceilingrates/query/histogram.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, emptyDatabase, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { insertCeilingRates } from '../../../engine/ceilingrates/schema.ts';
import { KNOWN } from '../ceilingrates/known-records.ts';
import { parseRatesQuery, ratesHashParams, ratesParams, titlesLeftOut } from '../../../ui/state/rates-query.ts';
import { exportAllCsv } from '../../../engine/ceilingrates/export-all.ts';
import { REPRODUCERS } from '../../../harness/fuzz/oversized.ts';
import { priceFigures } from '../../../engine/ceilingrates/price-figures.ts';
import { refCompare } from '../ceilingrates/reference.ts';
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';

const API = '/api/v3/search/ceilingrates/';
const repeat = (n: number, piece: (i: number) => string, join = '&'): string => Array.from({ length: n }, (_, i) => piece(i)).join(join);
let engine: Engine;

beforeAll(async () => {
  engine = createEngine();
  engine.use('websites', await generatedDatabase('websites', 50));
  engine.use('ceilingrates', await generatedDatabase('ceilingrates', 300));
});

const answer = (name: string) => call(engine, REPRODUCERS.find((r) => r.name === name)!.url);

describe('the reproducers get errors in the API shape, naming the parameter and the limit', () => {
  const rates: [string, string][] = [
    ['ordering=business_size × 1,000', 'Invalid query: at most 200 parameters (got 1000)'],
    ['ordering × 1,000, cycling through the fields', 'Invalid query: at most 200 parameters (got 1000)'],
    ['ordering=business_size × 5,000', 'Invalid query: at most 65536 characters (got 114999)'],
    ['current_price with 400 values', 'Invalid filter: at most 100 alternatives (got 400)'],
    ['current_price with 10,000 values', 'Invalid query: at most 65536 characters (got 69460)'],
    ['price_range with 10,000 ranges', 'Invalid query: at most 65536 characters (got 117798)'],
    ['exclude with 10,000 ids', 'Invalid exclude: at most 1000 ids (got 10000)'],
    ['1,000 filters', 'Invalid query: at most 200 parameters (got 1000)'],
    ['100 KB keyword', 'Invalid query: at most 65536 characters (got 100008)'],
    ['1,000 unknown parameters', 'Invalid query: at most 200 parameters (got 1000)'],
  ];
  for (const [name, detail] of rates) {
    it(`${name}: 406 ${detail}`, () => {
      const r = answer(name);
      expect(r.status).toBe(406);
      expect(r.body).toEqual({ detail });
    });
  }

  it('100 KB path under the ceiling-rates base: its 404', () => {
    expect(answer('100 KB path (ceiling rates)')).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
  });

  it('100 KB /websites/{url}: 400 naming url and its limit', () => {
    const r = answer('100 KB path (/websites/{url})');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: ['url must be shorter than or equal to 10000 characters'], error: 'Bad Request', statusCode: 400 });
  });

  it('Site Scanning page 1e21: 400 naming the largest page', () => {
    expect(answer('Site Scanning page 1e21').body).toEqual({ message: ['page must not be greater than 1000000000'], error: 'Bad Request', statusCode: 400 });
  });
});

describe('each limit, just within and just beyond', () => {
  const status = (query: string) => call(engine, `${API}?${query}`).status;
  const detail = (query: string) => call(engine, `${API}?${query}`).body.detail;

  it('filter alternatives: 100 pass, 101 are a 406', () => {
    expect(status(`filter=current_price:${repeat(100, (i) => String(i), '|')}`)).toBe(200);
    expect(detail(`filter=sin:${repeat(101, (i) => String(i), '|')}`)).toBe('Invalid filter: at most 100 alternatives (got 101)');
  });

  it('filters: 50 pass, 51 are a 406', () => {
    expect(status(repeat(50, () => 'filter=price_range:0,1000'))).toBe(200);
    expect(detail(repeat(51, () => 'filter=price_range:0,1000'))).toBe('Invalid filter: at most 50 values (got 51)');
  });

  it('exclude: 1,000 ids over every repeat pass, 1,001 are a 406', () => {
    expect(status(`exclude=${repeat(500, (i) => String(i), '|')}&exclude=${repeat(500, (i) => String(i), '|')}`)).toBe(200);
    expect(detail(`exclude=${repeat(500, (i) => String(i), '|')}&exclude=${repeat(501, (i) => String(i), '|')}`)).toBe(
      'Invalid exclude: at most 1000 ids (got 1001)',
    );
  });

  it('keyword, search, suggest: 10,000 characters pass (a stored value that long can be found), 10,001 are a 406', () => {
    expect(status(`keyword=${'a'.repeat(10_000)}`)).toBe(200);
    expect(detail(`keyword=${'a'.repeat(10_001)}`)).toBe('Invalid keyword: at most 10000 characters (got 10001)');
    // Of `<field>:<text>`, the text is measured.
    expect(status(`search=vendor_name:${'a'.repeat(10_000)}`)).toBe(200);
    expect(detail(`search=vendor_name:${'a'.repeat(10_001)}`)).toBe('Invalid search: at most 10000 characters (got 10001)');
    expect(detail(`suggest=vendor_name:${'a'.repeat(10_001)}`)).toBe('Invalid suggest: at most 10000 characters (got 10001)');
  });

  it('ordering: 50 values pass, 51 are a 406; the query: 200 parameters pass, 201 are a 406', () => {
    expect(status(repeat(50, () => 'ordering=vendor_name'))).toBe(200);
    expect(detail(repeat(51, () => 'ordering=vendor_name'))).toBe('Invalid ordering: at most 50 values (got 51)');
    expect(status(repeat(200, (i) => `x${i}=1`))).toBe(200);
    expect(detail(repeat(201, (i) => `x${i}=1`))).toBe('Invalid query: at most 200 parameters (got 201)');
  });

  it('Site Scanning: a long filter value and too many parameters, in its own shape', () => {
    const owner = call(engine, `/websites?target_url_agency_owner=${'a'.repeat(10_001)}`);
    expect(owner.body).toEqual({
      message: ['target_url_agency_owner must be shorter than or equal to 10000 characters'],
      error: 'Bad Request',
      statusCode: 400,
    });
    const domain = call(engine, `/websites?final_url_domain=${'a'.repeat(2045)}.gov`);
    expect(domain.body).toEqual({ message: ['final_url_domain must be shorter than or equal to 2048 characters'], error: 'Bad Request', statusCode: 400 });
    const many = call(engine, `/analysis?${repeat(201, (i) => `x${i}=1`)}`);
    expect(many.body).toEqual({ message: ['query must contain no more than 200 parameters'], error: 'Bad Request', statusCode: 400 });
    expect(call(engine, `/websites?target_url_agency_owner=${'a'.repeat(10_000)}`).status).toBe(200);
  });

  it('Site Scanning {url}: the limit is on the target URL looked up, a pasted scheme and trailing slashes aside', () => {
    const long = 'a'.repeat(9996) + '.gov';
    expect(call(engine, `/websites/https:%2F%2F${long}///`).body).toEqual({
      statusCode: 404,
      message: 'No website found for provided target url',
      error: 'Not Found',
    });
    expect(call(engine, `/websites/${long}x`).body.message).toEqual(['url must be shorter than or equal to 10000 characters']);
    // A long run of slashes is stripped in one pass (a trailing-slash regex retried at each slash was quadratic).
    expect(call(engine, `/websites/${'/'.repeat(20_000)}x.gov`).status).toBe(400);
  });
});

describe('redundant and many alternatives give the answers of their plain forms', () => {
  const ids = (query: string): number[] => call(engine, `${API}?page_size=500&${query}`).body.hits.hits.map((h: { _id: string }) => Number(h._id));
  const sorts = (query: string): unknown[] => call(engine, `${API}?page_size=500&${query}`).body.hits.hits.map((h: { sort: unknown[] }) => h.sort);

  it('a repeated ordering field: the first occurrence wins and later repeats (with their sorts) are ignored', () => {
    const once = 'ordering=vendor_name&sort=desc&ordering=current_price&sort=asc';
    const repeated = 'ordering=vendor_name&sort=desc&ordering=vendor_name&sort=asc&ordering=current_price&sort=asc&ordering=vendor_name&sort=asc';
    expect(ids(repeated)).toEqual(ids(once));
    expect(sorts(repeated)).toEqual(sorts(once));
    expect(sorts(repeated)[0]).toHaveLength(2);
  });

  it('a repeated ordering with a bad value is still a 406', () => {
    expect(call(engine, `${API}?ordering=vendor_name&ordering=nope`).body).toEqual({ detail: 'Invalid ordering field: nope' });
  });

  it('price alternatives match the union of each alone (decided per distinct price)', () => {
    const all = call(engine, `${API}?page_size=500`).body.hits.hits.map((h: { _source: { current_price: number } }) => h._source.current_price);
    const prices = [...new Set<number>(all)].slice(0, 60);
    const union = (queries: string[]) => [...new Set(queries.flatMap(ids))].sort((a, b) => a - b);
    expect(ids(`filter=current_price:${prices.join('|')}`).sort((a, b) => a - b)).toEqual(union(prices.map((p) => `filter=current_price:${p}`)));
    const ranges = prices.slice(0, 40).map((p, i) => `${p},${p + (i % 3)}`);
    expect(ids(`filter=price_range:${ranges.join('|')}`).sort((a, b) => a - b)).toEqual(union(ranges.map((r) => `filter=price_range:${r}`)));
    expect(ids('filter=price_range:100,50|0,0')).toEqual([]);
  });
});

describe('ties larger than a sort handles are ordered by the later keys without recursion', () => {
  it('the first page equals the whole order sorted (10,000 rates: ~5,000 share each business size)', async () => {
    const db = await generatedDatabase('ceilingrates', 10_000);
    const big = engineOver('ceilingrates', db);
    const result = db.exec('SELECT * FROM ceilingrates ORDER BY id')[0];
    const records = result.values.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]])) as unknown as CeilingRateRecord);
    const ordering = [
      { field: 'business_size', desc: false },
      { field: 'education_level', desc: true },
      { field: 'next_year_price', desc: true },
      { field: 'vendor_name', desc: false },
    ] as const;
    const query = ordering.map(({ field, desc }) => `ordering=${field}&sort=${desc ? 'desc' : 'asc'}`).join('&');
    for (const page of [1, 2, 19]) {
      const hits = call(big, `${API}?page_size=500&page=${page}&${query}`).body.hits.hits.map((h: { _id: string }) => Number(h._id));
      const expected = [...records]
        .sort(refCompare([...ordering]))
        .slice((page - 1) * 500, page * 500)
        .map((r) => r.id);
      expect(hits, `page ${page}`).toEqual(expected);
    }
  });
});

describe('prices near the largest double', () => {
  /** Each bucket's key is a finite number between its bounds. */
  function expectKeysWithinBuckets(buckets: readonly { key: number; min: number; max: number }[]): void {
    for (const b of buckets) {
      expect(Number.isFinite(b.key), JSON.stringify(b)).toBe(true);
      expect(b.key).toBeGreaterThanOrEqual(b.min);
      expect(b.key).toBeLessThanOrEqual(b.max);
    }
  }

  it('histogram keys stay numbers (sums do not overflow to Infinity)', async () => {
    const db = await emptyDatabase('ceilingrates');
    insertCeilingRates(
      db,
      KNOWN.map((r, i) => ({ ...r, current_price: i < 5 ? 1e308 : 1.5e308 - i * 1e306 })),
    );
    const r = call(engineOver('ceilingrates', db), API);
    expect(r.status).toBe(200);
    const buckets = r.body.aggregations.wage_histogram.buckets as { key: number; min: number; max: number }[];
    expect(buckets.length).toBeGreaterThan(0);
    expectKeysWithinBuckets(buckets);
  });

  it('histogram keys stay numbers at the largest double itself, past twelve distinct prices', () => {
    const values = Float64Array.from({ length: 20 }, (_, i) => Number.MAX_VALUE - (19 - i) * 1e300);
    const buckets = wageHistogram({ values, counts: new Float64Array(20).fill(3), m: 20 });
    expect(buckets.length).toBeGreaterThan(1);
    expectKeysWithinBuckets(buckets);
  });
});

describe('wage_stats over prices near the largest double', () => {
  /** Each statistic, and the workbench's figures of the same records, which must agree with the API. */
  async function statsOf(prices: (i: number) => number) {
    const db = await emptyDatabase('ceilingrates');
    insertCeilingRates(
      db,
      KNOWN.map((r, i) => ({ ...r, current_price: prices(i) })),
    );
    const r = call(engineOver('ceilingrates', db), API);
    expect(r.status).toBe(200);
    expect(r.raw.body).not.toMatch(/Infinity|NaN/);
    const figures = priceFigures(db, new URLSearchParams(''), 'current_price');
    if (!figures.ok) throw new Error(figures.message);
    expect(figures.figures.stats).toEqual(r.body.aggregations.wage_stats);
    return r.body.aggregations.wage_stats;
  }
  const close = (actual: number | null, expected: number): void => {
    expect(actual).not.toBeNull();
    expect(Math.abs(actual! - expected) / Math.abs(expected), `${actual} ≈ ${expected}`).toBeLessThan(1e-12);
  };

  it('the mean, deviations and bounds are numbers; a sum beyond the doubles is null, never Infinity', async () => {
    // Half at 1e308, half at 1.5e308: their sum (about 1.5e309) and squares are beyond the doubles, their mean
    // (1.25e308) and deviation (0.25e308) are not. Before, every statistic came out null.
    const n = KNOWN.length;
    const s = await statsOf((i) => (i % 2 === 0 ? 1e308 : 1.5e308));
    expect(s.count).toBe(n);
    expect(s.min).toBe(1e308);
    expect(s.max).toBe(1.5e308);
    close(s.avg, 1.25e308);
    close(s.std_deviation, 0.25e308);
    close(s.std_deviation_population, 0.25e308);
    close(s.std_deviation_sampling, 0.25e308 * Math.sqrt(n / (n - 1)));
    close(s.std_deviation_bounds.upper, 1.75e308);
    close(s.std_deviation_bounds.lower, 0.75e308);
    close(s.std_deviation_bounds.lower_sampling, 1.25e308 - 0.5e308 * Math.sqrt(n / (n - 1)));
    for (const key of ['sum', 'sum_of_squares', 'variance', 'variance_population', 'variance_sampling'] as const) expect(s[key], key).toBeNull();
  });

  it('opposite huge prices: the mean is 0, bounds beyond the doubles are null', async () => {
    const s = await statsOf((i) => (i % 2 === 0 ? -1e308 : 1e308));
    expect(s.avg).toBe(0);
    expect(s.sum).toBe(0);
    close(s.std_deviation, 1e308);
    expect(s.std_deviation_bounds.upper).toBeNull();
    expect(s.std_deviation_bounds.lower).toBeNull();
    expect(s.variance).toBeNull();
  });

  it('ordinary prices keep their plain sums, bit for bit', async () => {
    const prices = (i: number): number => 10.01 * (i + 1) + 0.07;
    const s = await statsOf(prices);
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < KNOWN.length; i++) {
      sum += prices(i);
      squares += prices(i) ** 2;
    }
    expect(s.sum).toBe(sum);
    expect(s.sum_of_squares).toBe(squares);
    expect(s.avg).toBe(sum / KNOWN.length);
  });
});

describe('a pool of exact titles beyond the limits', () => {
  const titles = (n: number, length = 12): string[] => Array.from({ length: n }, (_, i) => `T${i}`.padEnd(length, '.'));

  it('the worker refuses more than 100 titles, or a title over 10,000 characters, with a 406 naming the limit', async () => {
    const db = await generatedDatabase('ceilingrates', 300);
    for (const [pool, detail] of [
      [titles(101), 'Invalid title: at most 100 values (got 101)'],
      [titles(3, 10_001), 'Invalid title: at most 10000 characters (got 10001)'],
    ] as const) {
      expect(priceFigures(db, new URLSearchParams(''), 'current_price', null, pool)).toEqual({ ok: false, status: 406, message: detail });
      expect(exportAllCsv(db, new URLSearchParams(''), [], undefined, pool)).toEqual({ ok: false, status: 406, message: detail });
    }
    expect(priceFigures(db, new URLSearchParams(''), 'current_price', null, titles(100, 10_000)).ok).toBe(true);
    expect(exportAllCsv(db, new URLSearchParams(''), [], undefined, titles(100)).ok).toBe(true);
  });

  it('a link keeps the first 100 titles (each once, none longer than the worker takes) and counts those left out', () => {
    const link = new URLSearchParams([
      ['search_mode', 'titles'],
      ...[...titles(150), 'T0..........', 'x'.repeat(10_001), ' '].map((t): [string, string] => ['title', t]),
    ]);
    const q = parseRatesQuery(link);
    expect(q.titles).toEqual(titles(100));
    expect(titlesLeftOut(link)).toBe(50);
    expect(titlesLeftOut(new URLSearchParams(titles(100).map((t) => ['title', t])))).toBe(0);
    expect(ratesHashParams(q).getAll('title')).toHaveLength(100);
  });
});

describe('a shared rates link beyond the limits', () => {
  it('the view keeps each ordering field once and what the limits allow, so its request is within them', () => {
    const link = new URLSearchParams(
      `${repeat(3000, (i) => `ordering=${['vendor_name', 'current_price'][i % 2]}&sort=desc`)}&filter=sin:${repeat(500, (i) => `C${i}`, '|')}&exclude=${repeat(5000, (i) => String(i), '|')}&keyword=${'a'.repeat(20_000)}`,
    );
    const q = parseRatesQuery(link);
    expect(q.ordering).toEqual([
      { field: 'vendor_name', dir: 'desc' },
      { field: 'current_price', dir: 'desc' },
    ]);
    expect(q.sin.split('|')).toHaveLength(100);
    expect(q.exclude).toHaveLength(1000);
    expect(q.keyword).toHaveLength(10_000);
    const r = call(engine, `${API}?${ratesParams(q).toString()}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });
});
