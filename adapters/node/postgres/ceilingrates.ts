/**
 * GET /api/v3/search/ceilingrates/ answered from Postgres: the engine's parser, error bodies, envelope and JSON
 * writing, with matching, ordering, paging, counts, term buckets, the price sums and the distinct prices
 * computed in SQL over the tables `load` wrote with the engine's text analysis (ceilingrates-tables.ts). A
 * search is one statement (one MVCC snapshot even while a load commits). Percentiles, the median and the
 * k-means wage histogram are then the engine's own functions over the distinct prices and their counts, and
 * the statistics the engine's over sums Postgres added in id order, as the engine adds them: one definition.
 */
import type pg from 'pg';
import type { RouteContext } from '../../../engine/http/routes.ts';
import type { ApiResponse } from '../../../engine/http/types.ts';
import { RESULT_WINDOW, type CeilingRatesQuery, type FieldText } from '../../../engine/ceilingrates/parse-query.ts';
import { csv, envelope, envelopeJson, hitJson, parseSearch, respond, respondJson } from '../../../engine/ceilingrates/shape.ts';
import {
  aggregationsFrom,
  educationBuckets,
  priceSums,
  TERM_SIZES,
  type PriceSums,
  type TermAggregations,
} from '../../../engine/ceilingrates/query/aggregations.ts';
import { bucketsAggregation, type TermsAggregation } from '../../../engine/ceilingrates/query/terms.ts';
import { EDUCATION_COUNT_CODES, fold } from '../../../engine/ceilingrates/text.ts';
import { SUGGEST_CONTAINS_SIZE, SUGGEST_SIZE, suggestBodyOf, suggestEntryOf, suggestJson } from '../../../engine/ceilingrates/query/suggest.ts';
import { aggregationsJson } from '../../../engine/ceilingrates/json.ts';
import { csvLine, EXPORT_FIELDS, exportHead } from '../../../engine/ceilingrates/export.ts';
import { codeColumn, rankColumn, type TermField } from './ceilingrates-tables.ts';
import { isRecordOrderField, matchCondition, orderBy, orderFields, Params } from './ceilingrates-query.ts';
import { quote } from './schema.ts';
import { GROUP_PARTS, groupsBut, groupsOf, TERM_AGGREGATIONS, termCounts } from './ceilingrates-groups.ts';

/** Postgres' "numeric value out of range": a sum of huge prices that overflowed the doubles. */
const OUT_OF_RANGE = '22003';

/** Production's double fields: their `sort` values are written with a decimal point. */
const DOUBLE_SORT = new Set(['current_price', 'next_year_price', 'second_year_price']);

/**
 * The term buckets of a field over the matches `m`, as the engine orders them: doc_count descending, then the
 * value's byte-order rank, which is its code; null is no bucket. Only the kept buckets are joined to their values.
 * `[total of every bucket, [[key, count], …]]` as JSON.
 */
function termsCte(name: string, field: TermField, counts = `SELECT ${codeColumn(field)} AS code, count(*)::int4 AS n FROM m GROUP BY 1`): string {
  return `t_${name} AS (SELECT g.code, g.n FROM (${counts}) g
    WHERE g.code NOT IN (SELECT code FROM ceilingrate_terms WHERE field = '${field}' AND value IS NULL))`;
}
function termsColumn(name: string, field: TermField, size: number): string {
  return `(SELECT json_build_array((SELECT coalesce(sum(n), 0) FROM t_${name}),
    (SELECT coalesce(json_agg(json_build_array(t.value, x.n) ORDER BY x.n DESC, x.code), '[]'::json)
       FROM (SELECT code, n FROM t_${name} ORDER BY n DESC, code LIMIT ${size}) x JOIN ceilingrate_terms t ON t.field = '${field}' AND t.code = x.code)))`;
}

function termsOf([total, buckets]: [number, [string, number][]]): TermsAggregation {
  return bucketsAggregation(
    buckets.map(([key, doc_count]) => ({ key, doc_count })),
    Number(total),
  );
}

/**
 * The aggregations of a search as one JSON array: the count, the seven term aggregations, the education
 * counts, the distinct prices and their counts, the priced count, and Σp, Σp² added in id order (or, when those
 * overflow, the prices in id order for the engine to sum scaled). `groups` is the grouping of the matches
 * (ceilingrates-groups.ts); `ordered` their prices as `p`, in id order: a plain aggregate over a sorted
 * subquery adds in its order, one sort (or the id index) for both sums, where each aggregate's own ORDER BY
 * would sort again.
 */
function aggregatesSql(sumsInSql: boolean, groups: string, ordered: string): { ctes: string; json: string } {
  const ctes = `groups AS MATERIALIZED (${groups}),
    ${GROUP_PARTS},
    ${TERM_AGGREGATIONS.map(([name, field]) => termsCte(name, field, termCounts(field))).join(',\n    ')}`;
  const sums = sumsInSql
    ? `(SELECT json_build_array(0::float8 + sum(p), 0::float8 + sum(p * p)) FROM (${ordered}) s), NULL`
    : `NULL, (SELECT to_json(array_agg(p)) FROM (${ordered}) s WHERE p IS NOT NULL)`;
  const json = `json_build_array((SELECT coalesce(sum(n), 0) FROM combos),
      ${TERM_AGGREGATIONS.map(([name, field]) => termsColumn(name, field, TERM_SIZES[name])).join(',\n      ')},
      (SELECT coalesce(json_object_agg(education, total), '{}'::json) FROM (SELECT t.education, sum(e.n) AS total FROM t_education_level e
         JOIN ceilingrate_terms t ON t.field = 'education_level' AND t.code = e.code WHERE t.education IS NOT NULL GROUP BY 1) e),
      (SELECT to_json(array_agg(price ORDER BY price)) FROM prices WHERE price IS NOT NULL),
      (SELECT to_json(array_agg(n ORDER BY price)) FROM prices WHERE price IS NOT NULL),
      (SELECT coalesce(sum(n), 0) FROM prices WHERE price IS NOT NULL),
      ${sums})`;
  return { ctes, json };
}

/** The columns the grouping reads of a rate. */
const GROUPED = ['r.current_price', ...TERM_AGGREGATIONS.map(([, field]) => `r.${codeColumn(field)}`)].join(', ');

/** The grouping of every rate, which `load` stores (ceilingrate_groups). */
export const ALL_GROUPS_SQL = groupsOf(`(SELECT ${GROUPED} FROM ceilingrate_rows r) r`);

/**
 * The aggregations of every record, as `load` computes them once from the stored grouping (null when the sums
 * overflow the doubles: then every unconditioned search computes them, as a filtered one does).
 */
export const TOTALS_SQL = (() => {
  const { ctes, json } = aggregatesSql(true, 'SELECT * FROM ceilingrate_groups', 'SELECT current_price AS p FROM ceilingrate_rows ORDER BY id');
  return `WITH ${ctes} SELECT ${json}`;
})();

/**
 * A search's statement: its aggregations (computed over the matches, or, for a search with no condition, the
 * totals `load` stored) and its page, in one statement so both see the same load. The page is read from the
 * rows with the condition, so the planner can walk the order's index and stop at the page's end. `wide`: the
 * search matches most rates, so its grouping is every rate's less the grouping of the rest.
 */
function searchStatement(query: CeilingRatesQuery, sumsInSql: boolean, totals: boolean, wide: boolean): { text: string; values: unknown[] } {
  const params = new Params();
  const where = matchCondition(query, null, params);
  const ranks = orderFields(query).map(({ field }) => `r.${rankColumn(field)}`);
  const offset = (query.page - 1) * query.pageSize;
  // A hit's `sort`: the record's value of each key's field (null for the fields no record holds).
  const sortValues = query.ordering.map(({ field }) => (isRecordOrderField(field) ? `c.${quote(field)}` : 'NULL'));
  const pageJson = `(SELECT coalesce(json_agg(json_build_array(c.id, c.source, ${sortValues.join(', ')}) ORDER BY ${orderBy(query, 'p')}), '[]'::json)
         FROM page p JOIN ceilingrates c ON c.id = p.id)`;
  const page = (from: string): string =>
    `page AS (SELECT ${['r.id', ...ranks].join(', ')} FROM ${from} ORDER BY ${orderBy(query, 'r')} LIMIT ${query.pageSize} OFFSET ${offset})`;
  const rows = `ceilingrate_rows r WHERE ${where}`;
  if (totals && where === 'true') return { text: `WITH ${page(rows)} SELECT (SELECT totals FROM ceilingrates_loads), ${pageJson}`, values: params.values };
  if (wide) {
    // `IS NOT TRUE`: a condition that is null for a rate (a null price in a range) leaves it out, as false does.
    const groups = groupsBut(`(SELECT ${GROUPED} FROM ceilingrate_rows r WHERE (${where}) IS NOT TRUE) r`);
    const { ctes, json } = aggregatesSql(sumsInSql, groups, `SELECT r.current_price AS p FROM ${rows} ORDER BY r.id`);
    return { text: `WITH ${page(rows)}, ${ctes} SELECT ${json}, ${pageJson}`, values: params.values };
  }
  // The matches once, in id order (the condition may be a costly text match): grouped, summed and paged from there.
  const m = `m AS MATERIALIZED (SELECT r.id, ${[GROUPED, ...ranks].join(', ')} FROM ${rows} ORDER BY r.id)`;
  const { ctes, json } = aggregatesSql(sumsInSql, groupsOf('m'), 'SELECT current_price AS p FROM m');
  return { text: `WITH ${m}, ${page('m r')}, ${ctes} SELECT ${json}, ${pageJson}`, values: params.values };
}

/**
 * The share of the rates above which a search is answered as every rate less the rest. High, because the
 * planner guesses text conditions coarsely (a keyword's OR of hashed subplans is estimated at 75%), and a
 * narrow search taken for a wide one costs a pass over every rate it does not match.
 */
const WIDE = 0.9;

/**
 * Whether a search matches most rates, by the planner's estimate of its matches (a plan, not a count: well
 * under a millisecond). Either way the answer is the same; only the work differs.
 */
async function isWide(pool: pg.Pool, query: CeilingRatesQuery): Promise<boolean> {
  const params = new Params();
  const where = matchCondition(query, null, params);
  if (where === 'true') return false;
  const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>({
    text: `EXPLAIN (FORMAT JSON) SELECT 1 FROM ceilingrate_rows r WHERE ${where}`,
    values: params.values,
  });
  const { rows: total } = await pool.query<{ records: number }>('SELECT records FROM ceilingrates_loads');
  return rows[0]['QUERY PLAN'][0].Plan['Plan Rows'] > WIDE * (total[0]?.records ?? Infinity);
}

/** The JSON array aggregatesSql writes: the count first. */
type Aggregates = [count: number, ...rest: unknown[]];
type PageRow = [number, string, ...(string | number | null)[]];

/**
 * The aggregations and the page of a search. When Σp or Σp² overflow the doubles (Postgres raises 22003; the
 * stored totals are then null), again with the prices in id order for the engine to sum scaled.
 */
async function searchRow(pool: pg.Pool, query: CeilingRatesQuery): Promise<[Aggregates, PageRow[]]> {
  const wide = await isWide(pool, query);
  try {
    const row = (await pool.query({ ...searchStatement(query, true, true, wide), rowMode: 'array' })).rows[0] as [Aggregates | null, PageRow[]];
    if (row[0] !== null) return row as [Aggregates, PageRow[]];
  } catch (error) {
    if ((error as { code?: string }).code !== OUT_OF_RANGE) throw error;
  }
  return (await pool.query({ ...searchStatement(query, false, false, wide), rowMode: 'array' })).rows[0] as [Aggregates, PageRow[]];
}

async function search(pool: pg.Pool, query: CeilingRatesQuery, started: number): Promise<ApiResponse> {
  const [aggregates, page] = await searchRow(pool, query);
  const count = Number(aggregates[0]);
  const termColumns = aggregates.slice(1, 1 + TERM_AGGREGATIONS.length) as [number, [string, number][]][];
  const [educationTotals, priceValues, priceCounts, pricedText, sqlSums, orderedPrices] = aggregates.slice(1 + TERM_AGGREGATIONS.length) as [
    Record<string, string | number>,
    number[] | null,
    number[] | null,
    number,
    (number | null)[] | null,
    number[] | null,
  ];
  const sumsInSql = orderedPrices === null;
  const pricedCount = Number(pricedText);
  const values = Float64Array.from(priceValues ?? []);
  const m = values.length;
  const min = values[0];
  const max = values[m - 1];
  let sums: PriceSums;
  if (sumsInSql) sums = { count: pricedCount, sum: sqlSums?.[0] ?? 0, sumOfSquares: sqlSums?.[1] ?? 0, min, max };
  else sums = { count: pricedCount, ...priceSums(Float64Array.from(orderedPrices ?? []), { rows: null, rest: null }, min, max), min, max };
  const terms = Object.fromEntries(TERM_AGGREGATIONS.map(([name], i) => [name, termsOf(termColumns[i])])) as unknown as TermAggregations;
  const aggregations = aggregationsFrom({
    matches: count,
    terms,
    education: educationBuckets(EDUCATION_COUNT_CODES.map((code) => Number(educationTotals[code] ?? 0))),
    prices: { values, counts: Float64Array.from(priceCounts ?? []), m },
    sums,
  });
  const doubles = query.ordering.map(({ field }) => DOUBLE_SORT.has(field));
  const hits = page.map(([id, source, ...sort]) => hitJson(Number(id), source, sort, doubles));
  return respondJson(envelopeJson(started, count, hits, aggregationsJson(aggregations)));
}

/** suggest-contains: the matches' count and the field's term buckets over them (size 100). */
async function suggestContains(pool: pg.Pool, query: CeilingRatesQuery, contains: FieldText, started: number): Promise<ApiResponse> {
  const params = new Params();
  const where = matchCondition(query, contains, params);
  const result = await pool.query({
    text: `WITH m AS MATERIALIZED (SELECT r.id, r.${codeColumn(contains.field)} FROM ceilingrate_rows r WHERE ${where}),
      ${termsCte('field', contains.field)}
      SELECT (SELECT count(*) FROM m)::int8, ${termsColumn('field', contains.field, SUGGEST_CONTAINS_SIZE)}`,
    values: params.values,
    rowMode: 'array',
  });
  const [countText, terms] = result.rows[0] as [string, [number, [string, number][]]];
  return respond(200, envelope(started, Number(countText), [], { [contains.field]: termsOf(terms) }));
}

/** suggest: per parameter, up to five distinct values beginning with the text, byte order, each with its lowest id. */
async function suggest(pool: pg.Pool, specs: readonly FieldText[]): Promise<ApiResponse> {
  const entries = [];
  for (const spec of specs) {
    const prefix = fold(spec.text.trim());
    const options = !prefix.includes('\u0000')
      ? (
          await pool.query<{ value: string; first_id: string }>(
            `SELECT value, first_id FROM ceilingrate_terms WHERE field = $1 AND value IS NOT NULL AND starts_with(folded, $2) ORDER BY code LIMIT ${SUGGEST_SIZE}`,
            [spec.field, prefix],
          )
        ).rows.map(({ value, first_id }) => ({ text: value, id: Number(first_id) }))
      : [];
    entries.push(suggestEntryOf(spec, options));
  }
  return respondJson(suggestJson(suggestBodyOf(specs, entries)));
}

/** export=y: the matches in the requested order, up to the result window, as the engine's CSV. */
async function exportCsv(pool: pg.Pool, query: CeilingRatesQuery, ctx: RouteContext): Promise<ApiResponse> {
  const params = new Params();
  const where = matchCondition(query, null, params);
  const result = await pool.query({
    text: `SELECT ${EXPORT_FIELDS.map((f) => `c.${quote(f)}`).join(', ')} FROM ceilingrate_rows r JOIN ceilingrates c ON c.id = r.id
           WHERE ${where} ORDER BY ${orderBy(query, 'r')} LIMIT ${RESULT_WINDOW}`,
    values: params.values,
    rowMode: 'array',
  });
  const lines = (result.rows as (string | number | null)[][]).map((cells) => csvLine(cells) + '\r\n');
  return csv(exportHead(ctx.query) + lines.join(''));
}

export async function searchCeilingRates(pool: pg.Pool, ctx: RouteContext): Promise<ApiResponse> {
  const started = performance.now();
  const parsed = parseSearch(ctx);
  if ('refused' in parsed) return parsed.refused;
  const { query } = parsed;
  if (query.suggest.length > 0) return suggest(pool, query.suggest);
  if (query.suggestContains) {
    const { field, tooShort } = query.suggestContains;
    // Under the minimum length (a typeahead's first key press): the same shape, matching nothing.
    if (tooShort) return respond(200, envelope(started, 0, [], { [field]: bucketsAggregation([], 0) }));
    return suggestContains(pool, query, query.suggestContains, started);
  }
  if (query.export) return exportCsv(pool, query, ctx);
  return search(pool, query, started);
}
