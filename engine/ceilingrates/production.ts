/**
 * The ceiling-rates answer in the production dialect (engine/dialect/dialect.ts): the interface's answer, written
 * as production answered on 2026-10-10 (1102tools-dev/federal-contracting-mcps, gsa-calc-mcp fixtures; the rows
 * of docs/api/differences.md). Runs only for that dialect, over the answer already made: the interface's
 * answers are not touched, parsed or slowed.
 *
 * - `_shards` of five shards, `_index` dated (`ceilingrates-<the record's load time>`);
 * - `_source` with `data_source` after `contract_start`, the clearance a boolean, education spelled out, worksite
 *   words joined by `_`, `""` for no termination date;
 * - the aggregations in production's order, term keys in production's words (`"true"`, `Bachelors`,
 *   `Customer_Facility`, prices as written: `"51.8"`, `"110.0"`), and the single prices of the histogram,
 *   percentiles and statistics as the float32 values production's index holds (`51.79999923706055`).
 */
import type { ApiResponse } from '../http/types.ts';
import type { RouteContext } from '../http/routes.ts';
import type { Aggregations } from './query/aggregations.ts';
import type { WageStats } from './query/wage-stats.ts';
import type { TermsAggregation } from './query/terms.ts';
import type { HistogramBucket } from './query/histogram.ts';
import { double, histogramJson, sortJson, statsJson, valuesJson } from './json.ts';
import { PRICE_FIELDS } from './parameters.ts';
import { parseQuery } from './parse-query.ts';
import { SOURCE_FIELDS } from './record.ts';
import { clearanceBoolean, educationSpelled, worksiteWritten } from './vocabulary.ts';

/** Production's `_shards` on 2026-10-10: five shards, every one successful. */
const SHARDS_2026 = '{"total":5,"successful":5,"skipped":0,"failed":0}';
const SHARDS_INTERFACE = '"_shards":{"total":1,"successful":1,"skipped":0,"failed":0}';

/** Every recorded 2026 `_source` says `ACR`; the source of this data's rates is not told apart there. */
export const DATA_SOURCE = 'ACR';

const PRICES: ReadonlySet<string> = new Set<string>(PRICE_FIELDS);

/** The search answer (and its suggestions) in the production dialect; errors and CSV exports are the interface's. */
export function productionCeilingRates(ctx: RouteContext, response: ApiResponse): ApiResponse {
  if (response.status !== 200 || !response.headers['content-type']?.startsWith('application/json')) return response;
  const body = JSON.parse(response.body) as SearchBody;
  if (!body.hits || !body.aggregations || !('wage_stats' in body.aggregations)) {
    // A suggest answer, or suggest-contains' envelope: production's shards, values unchanged.
    return { ...response, body: response.body.replace(SHARDS_INTERFACE, `"_shards":${SHARDS_2026}`) };
  }
  const doubles = parseQuery(ctx.query, ctx.search).ordering.map(({ field }) => PRICES.has(field));
  const hits = body.hits.hits.map((hit) => hitJson(hit, doubles));
  const written =
    `{"took":${body.took},"timed_out":${body.timed_out},"_shards":${SHARDS_2026},"hits":{"total":${JSON.stringify(body.hits.total)},` +
    `"max_score":null,"hits":[${hits.join(',')}]},"aggregations":${aggregationsJson(body.aggregations as Aggregations)}}`;
  return { ...response, body: written };
}

interface Hit {
  _index: string;
  _id: string;
  _score: null;
  _source: Record<string, unknown>;
  sort: (number | string | null)[];
}

interface SearchBody {
  took: number;
  timed_out: boolean;
  hits?: { total: unknown; hits: Hit[] };
  aggregations?: Partial<Aggregations>;
}

/** `ceilingrates-2026-10-10_02-00-02` for a record loaded at 2026-10-10T02:00:02Z. */
export function datedIndex(timestamp: unknown): string {
  const at = typeof timestamp === 'string' ? /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(timestamp) : null;
  return at ? `ceilingrates-${at[1]}_${at[2]}-${at[3]}-${at[4]}` : 'ceilingrates';
}

function hitJson(hit: Hit, doubles: readonly boolean[]): string {
  return `{"_index":${JSON.stringify(datedIndex(hit._source._timestamp))},"_id":${JSON.stringify(hit._id)},"_score":null,"_source":${sourceJson(hit._source)},"sort":${sortJson(hit.sort, doubles)}}`;
}

/** Production's value of one `_source` field. */
function productionValue(field: string, value: unknown): unknown {
  switch (field) {
    case 'security_clearance':
      return clearanceBoolean(value as string | null);
    case 'education_level':
      return typeof value === 'string' ? educationSpelled(value) : value;
    case 'worksite':
      return typeof value === 'string' ? worksiteWritten(value) : value;
    case 'dt_termg':
      return value ?? '';
    default:
      return value;
  }
}

/** `_source` in production's key order (SOURCE_FIELDS, `data_source` after `contract_start`), prices as doubles. */
export function sourceJson(source: Record<string, unknown>): string {
  let out = '{';
  for (const field of SOURCE_FIELDS) {
    const value = productionValue(field, source[field]);
    out += `${out.length > 1 ? ',' : ''}"${field}":${PRICES.has(field) && typeof value === 'number' ? double(value) : JSON.stringify(value)}`;
    if (field === 'contract_start') out += `,"data_source":"${DATA_SOURCE}"`;
  }
  return out + '}';
}

/**
 * A term aggregation with its keys rewritten: buckets merged into one key add up, and ties are ordered by the key
 * as written (production's keyword order: `"101.22"` before `"87.92"`). Unchanged keys keep their order.
 */
function termsJson(terms: TermsAggregation, key: (key: string) => string | null): string {
  if (key === same) return JSON.stringify(terms);
  const counts = new Map<string, number>();
  for (const b of terms.buckets) {
    const k = key(String(b.key));
    // A value with no production form (a clearance neither yes nor no) is missing there, as a null is: no bucket.
    if (k === null) continue;
    counts.set(k, (counts.get(k) ?? 0) + b.doc_count);
  }
  const buckets = [...counts].map(([k, doc_count]) => ({ key: k, doc_count }));
  buckets.sort((a, b) => b.doc_count - a.doc_count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return JSON.stringify({ doc_count_error_upper_bound: terms.doc_count_error_upper_bound, sum_other_doc_count: terms.sum_other_doc_count, buckets });
}

const same = (key: string): string => key;
const clearanceKey = (key: string): string | null => {
  const value = clearanceBoolean(key);
  return value === null ? null : String(value);
};
/**
 * A price key as production writes it: the price as written (`51.8`, `110.0`), not to two decimals. The buckets
 * are the interface's, one per price to the cent, so a price of more decimals keys as its cent (`88.1008` as
 * `"88.1"`): production buckets each exact price (docs/api/differences.md).
 */
const priceKey = (key: string): string => double(Number(key));

/** A single price as the float32 production's index stores it. */
const f32 = (x: number | null): number | null => (x === null ? null : Math.fround(x));

function histogram(buckets: readonly HistogramBucket[]): HistogramBucket[] {
  // A bucket's edges are prices, and so is its key when it holds one price; a wider key is a mean, left as computed.
  return buckets.map((b) => ({ min: f32(b.min)!, key: b.min === b.max ? f32(b.key)! : b.key, max: f32(b.max)!, doc_count: b.doc_count }));
}

function percentiles(values: Record<string, number | null>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const key in values) out[key] = f32(values[key]);
  return out;
}

function stats(s: WageStats): WageStats {
  // min and max are prices; the sums and moments stay as computed over the prices (production's float32 sums differ
  // in the last digits), except for one price, where they are that price.
  const one = s.count === 1;
  const avg = one ? f32(s.avg) : s.avg;
  return {
    ...s,
    min: f32(s.min),
    max: f32(s.max),
    avg,
    sum: one ? f32(s.sum) : s.sum,
    sum_of_squares: one && avg !== null ? avg * avg : s.sum_of_squares,
    std_deviation_bounds: one ? { ...s.std_deviation_bounds, upper: avg, lower: avg, upper_population: avg, lower_population: avg } : s.std_deviation_bounds,
  };
}

/** The aggregations in the order production answered them on 2026-10-10. */
function aggregationsJson(a: Aggregations): string {
  const education = a.education_level_counts ? `,"education_level_counts":${JSON.stringify(a.education_level_counts)}` : '';
  return (
    `{"labor_category":${termsJson(a.labor_category, same)},"security_clearance":${termsJson(a.security_clearance, clearanceKey)},` +
    `"histogram_percentiles":${valuesJson(percentiles(a.histogram_percentiles.values))},` +
    `"min_years_experience":${termsJson(a.min_years_experience, same)},"worksite":${termsJson(a.worksite, worksiteWritten)},` +
    `"wage_histogram":${histogramJson(histogram(a.wage_histogram.buckets))},"education_level":${termsJson(a.education_level, educationSpelled)},` +
    `"current_price":${termsJson(a.current_price, priceKey)},"business_size":${termsJson(a.business_size, same)},` +
    `"wage_stats":${statsJson(stats(a.wage_stats))},"median_price":${valuesJson(percentiles(a.median_price.values))}${education}}`
  );
}
