/**
 * The straightforward implementation the engine is measured against: the same parsed query, answered with
 * one SQL query per piece (count, page, each term aggregation, statistics, the sorted prices for
 * percentiles and histogram), no precomputation. Text rules SQL lacks are registered as SQL functions.
 */
import type { Database, SqlValue } from 'sql.js';
import { parseQuery, RESULT_WINDOW, type CeilingRatesQuery } from '../../engine/ceilingrates/parse-query.ts';
import { whereSql, type Dialect, type Where as WhereOf } from './where-sql.ts';
import { clearanceClass, containsWords, listElements, priceKey, sinCodes } from '../../engine/ceilingrates/text.ts';
import { percentiles, PERCENTILES, TERM_SIZES } from '../../engine/ceilingrates/query/aggregations.ts';
import { statsFrom } from '../../engine/ceilingrates/query/wage-stats.ts';
import { priceCountsOfSorted, wageHistogram } from '../../engine/ceilingrates/query/histogram.ts';
import { allRows } from '../../engine/sqlite-rows.ts';

const T = 'ceilingrates';

export function registerBaselineFunctions(db: Database): void {
  db.create_function('sin_has', (sin: string, code: string) => (sinCodes(sin ?? '').includes(code) ? 1 : 0));
  db.create_function('list_has', (list: string, value: string) => (listElements(list ?? '').includes(value) ? 1 : 0));
  db.create_function('words_has', (value: string, phrase: string) => (value !== null && containsWords(value, phrase) ? 1 : 0));
  db.create_function('clearance_class', (value: string | null) => clearanceClass(value));
  db.create_function('price_key', (value: number | null) => (value === null ? null : priceKey(value)));
}

/** sql.js: the functions registered above; LIKE for the keyword. */
const SQLJS: Dialect<SqlValue> = {
  keyword(text, params) {
    const like = `%${text.toLowerCase()}%`;
    params.push(like, like, like);
    return '(lower(labor_category) LIKE ? OR lower(vendor_name) LIKE ? OR lower(idv_piid) LIKE ?)';
  },
  sin: (code, params) => (params.push(code), 'sin_has(sin, ?)'),
  listHas: (field, value, params) => (params.push(value), `list_has(${field}, ?)`),
  worksiteWords: (phrase, params) => (params.push(phrase), 'words_has(worksite, ?)'),
  clearanceIs: (cls, params) => (params.push(cls), 'clearance_class(security_clearance) = ?'),
};

type Where = WhereOf<SqlValue>;
const where = (query: CeilingRatesQuery, extra: string[] = [], extraParams: SqlValue[] = []): Where => whereSql(query, SQLJS, extra, extraParams);

function terms(db: Database, w: Where, expression: string, size: number): unknown {
  const rows = allRows(
    db,
    `SELECT ${expression} AS k, COUNT(*) AS c FROM ${T} ${w.sql} GROUP BY k HAVING k IS NOT NULL ORDER BY c DESC, CAST(k AS TEXT) LIMIT ${size + 1}`,
    w.params,
  );
  const total = allRows(db, `SELECT COUNT(${expression}) FROM ${T} ${w.sql}`, w.params)[0][0] as number;
  const buckets = rows.slice(0, size).map(([k, c]) => ({ key: String(k), doc_count: c as number }));
  return { doc_count_error_upper_bound: 0, sum_other_doc_count: total - buckets.reduce((n, b) => n + b.doc_count, 0), buckets };
}

/** education_level_counts' key: the level trimmed and upper-cased when it is one of the six codes, else NULL. */
const EDUCATION_CODE_SQL = "CASE WHEN upper(trim(education_level)) IN ('AA', 'BA', 'HS', 'MA', 'PHD', 'TEC') THEN upper(trim(education_level)) END";

/** education_level_counts as production answers it: the six codes in order, zero counts included. */
function educationCounts(db: Database, w: Where): { buckets: { key: string; doc_count: number }[] } {
  const rows = allRows(db, `SELECT ${EDUCATION_CODE_SQL} AS k, COUNT(*) FROM ${T} ${w.sql} GROUP BY k`, w.params);
  const counts = new Map(rows.map(([k, c]) => [String(k), c as number]));
  return { buckets: ['AA', 'BA', 'HS', 'MA', 'PHD', 'TEC'].map((key) => ({ key, doc_count: counts.get(key) ?? 0 })) };
}

const ORDER_SQL = (query: CeilingRatesQuery): string =>
  query.ordering.map(({ field, desc }) => `${field} IS NULL, ${field} ${desc ? 'DESC' : 'ASC'}`).join(', ') + ', id ASC';

/** Answers a request URL; returns the JSON text, as the engine does. */
export function baselineAnswer(db: Database, url: string): string {
  const started = performance.now();
  const query = parseQuery(new URL(url, 'http://localhost').searchParams);
  if (query.suggest.length) {
    const out: Record<string, unknown[]> = {};
    for (const s of query.suggest) {
      const rows = allRows(db, `SELECT ${s.field}, MIN(id) FROM ${T} WHERE lower(${s.field}) LIKE ? GROUP BY ${s.field} ORDER BY ${s.field} LIMIT 5`, [
        `${s.text.trim().toLowerCase()}%`,
      ]);
      (out[`${s.field}-suggestion`] ??= []).push({
        text: s.text,
        offset: 0,
        length: s.text.length,
        options: rows.map(([t, id]) => ({ text: t, _index: T, _id: String(id), _score: 1, _source: {} })),
      });
    }
    return JSON.stringify(out);
  }
  if (query.suggestContains) {
    const { field, text } = query.suggestContains;
    const w = where(query, [`lower(${field}) LIKE ?`], [`%${text.trim().toLowerCase()}%`]);
    const count = allRows(db, `SELECT COUNT(*) FROM ${T} ${w.sql}`, w.params)[0][0] as number;
    return JSON.stringify({
      took: Math.round(performance.now() - started),
      hits: { total: count, hits: [] },
      aggregations: { [field]: terms(db, w, field, 100) },
    });
  }
  const w = where(query);
  const count = allRows(db, `SELECT COUNT(*) FROM ${T} ${w.sql}`, w.params)[0][0] as number;
  const offset = (query.page - 1) * query.pageSize;
  const page = allRows(db, `SELECT * FROM ${T} ${w.sql} ORDER BY ${ORDER_SQL(query)} LIMIT ? OFFSET ?`, [...w.params, query.pageSize, offset]);
  const stats = allRows(
    db,
    `SELECT COUNT(current_price), MIN(current_price), MAX(current_price), SUM(current_price), SUM(current_price * current_price) FROM ${T} ${w.sql}`,
    w.params,
  )[0];
  const priced = where(query, ['current_price IS NOT NULL']);
  const prices = allRows(db, `SELECT current_price FROM ${T} ${priced.sql} ORDER BY current_price`, priced.params);
  const sorted = Float64Array.from(prices, (r) => r[0] as number);
  const priceCounts = priceCountsOfSorted(sorted, sorted.length);
  const [median, ...rest] = percentiles(priceCounts, [50, ...PERCENTILES]);
  const values: Record<string, number | null> = {};
  PERCENTILES.forEach((p, i) => (values[p.toFixed(1)] = rest[i]));
  const aggregations = {
    labor_category: terms(db, w, 'labor_category', TERM_SIZES.labor_category),
    security_clearance: terms(db, w, 'security_clearance', 10),
    worksite: terms(db, w, 'worksite', 10),
    min_years_experience: terms(db, w, 'min_years_experience', TERM_SIZES.min_years_experience),
    education_level: terms(db, w, 'education_level', 10),
    current_price: terms(db, w, 'price_key(current_price)', TERM_SIZES.current_price),
    business_size: terms(db, w, 'business_size', 10),
    education_level_counts: educationCounts(db, w),
    wage_histogram: { buckets: wageHistogram(priceCounts) },
    histogram_percentiles: { values },
    median_price: { values: { '50.0': median } },
    wage_stats: statsFrom({
      count: stats[0] as number,
      sum: (stats[3] as number) ?? 0,
      sumOfSquares: (stats[4] as number) ?? 0,
      min: stats[1] as number,
      max: stats[2] as number,
    }),
  };
  return JSON.stringify({
    took: Math.round(performance.now() - started),
    hits: { total: { value: Math.min(count, RESULT_WINDOW), relation: count > RESULT_WINDOW ? 'gte' : 'eq' }, hits: page },
    aggregations,
  });
}
