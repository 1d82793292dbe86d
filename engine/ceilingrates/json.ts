/**
 * JSON text for the parts of an answer where production's type is a double. Production's search engine writes a
 * double with a decimal point even when it is whole (`15.0`, `0.0`), and JSON.stringify writes `15`: a typed client
 * (Python's json, for one) then reads an int one time and a float the next. So the statistics, percentiles,
 * histogram edges and the numeric `sort` values of price fields are written here, number by number; everything
 * else (counts, keys, strings) still goes through JSON.stringify. Plain string building, no replacer callback:
 * a search answers thousands of these a second.
 */
import type { Aggregations } from './query/aggregations.ts';
import type { Sampled, WageStats } from './query/wage-stats.ts';
import type { TermsAggregation } from './query/terms.ts';
import type { HistogramBucket } from './query/histogram.ts';

/**
 * A double as production writes it: `15.0` for a whole number, the shortest round-trip digits otherwise
 * (`1e+21` already reads as a double), `"NaN"` as a string (production's one-price sample statistics), and
 * `null` for null and for what JSON cannot hold (infinities).
 */
export function double(x: Sampled): string {
  if (x === null) return 'null';
  if (x === 'NaN' || x !== x) return '"NaN"';
  if (x === Infinity || x === -Infinity) return 'null';
  const s = String(x);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 /* . */ || c === 101 /* e */) return s;
  }
  return s + '.0';
}

/** A hit's `sort` array: `doubles[i]` says whether the i-th value is a double field's (a price). */
export function sortJson(values: readonly (number | string | null)[], doubles: readonly boolean[]): string {
  let out = '[';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    out += typeof v === 'number' && doubles[i] ? double(v) : JSON.stringify(v);
  }
  return out + ']';
}

const terms = (t: TermsAggregation): string => JSON.stringify(t);

export function valuesJson(values: Record<string, number | null>): string {
  let out = '{"values":{';
  let first = true;
  for (const key in values) {
    out += `${first ? '' : ','}${JSON.stringify(key)}:${double(values[key])}`;
    first = false;
  }
  return out + '}}';
}

export function histogramJson(buckets: readonly HistogramBucket[]): string {
  let out = '{"buckets":[';
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    out += `${i > 0 ? ',' : ''}{"min":${double(b.min)},"key":${double(b.key)},"max":${double(b.max)},"doc_count":${b.doc_count}}`;
  }
  return out + ']}';
}

export function statsJson(s: WageStats): string {
  const b = s.std_deviation_bounds;
  // count is production's only integer here; a sum over no price is 0.0.
  return (
    `{"count":${s.count},"min":${double(s.min)},"max":${double(s.max)},"avg":${double(s.avg)},"sum":${double(s.sum)},` +
    `"sum_of_squares":${double(s.sum_of_squares)},"variance":${double(s.variance)},"variance_population":${double(s.variance_population)},` +
    `"variance_sampling":${double(s.variance_sampling)},"std_deviation":${double(s.std_deviation)},` +
    `"std_deviation_population":${double(s.std_deviation_population)},"std_deviation_sampling":${double(s.std_deviation_sampling)},` +
    `"std_deviation_bounds":{"upper":${double(b.upper)},"lower":${double(b.lower)},"upper_population":${double(b.upper_population)},` +
    `"lower_population":${double(b.lower_population)},"upper_sampling":${double(b.upper_sampling)},"lower_sampling":${double(b.lower_sampling)}}}`
  );
}

/** The aggregations of a search, keys in the order of `Aggregations`, doubles written as doubles. */
export function aggregationsJson(a: Aggregations): string {
  const education = a.education_level_counts ? `"education_level_counts":${JSON.stringify(a.education_level_counts)},` : '';
  return (
    `{"labor_category":${terms(a.labor_category)},"security_clearance":${terms(a.security_clearance)},` +
    `"worksite":${terms(a.worksite)},"min_years_experience":${terms(a.min_years_experience)},` +
    `"education_level":${terms(a.education_level)},"current_price":${terms(a.current_price)},` +
    `"business_size":${terms(a.business_size)},${education}"wage_histogram":${histogramJson(a.wage_histogram.buckets)},` +
    `"histogram_percentiles":${valuesJson(a.histogram_percentiles.values)},"median_price":${valuesJson(a.median_price.values)},` +
    `"wage_stats":${statsJson(a.wage_stats)}}`
  );
}
