/**
 * Aggregations over every matching record (not just the page): seven term aggregations, wage statistics,
 * percentiles, median and the wage histogram (semantics.md, "Aggregations").
 */
import type { ColumnStore, Dictionary } from './columns.ts';
import type { OrderColumn } from './order-columns.ts';
import { wageHistogram, type HistogramBucket } from './histogram.ts';

export interface TermBucket {
  key: string;
  doc_count: number;
}

export interface TermsAggregation {
  doc_count_error_upper_bound: number;
  sum_other_doc_count: number;
  buckets: TermBucket[];
}

export interface WageStats {
  count: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  sum: number;
  sum_of_squares: number | null;
  variance: number | null;
  variance_population: number | null;
  variance_sampling: number | null;
  std_deviation: number | null;
  std_deviation_population: number | null;
  std_deviation_sampling: number | null;
  std_deviation_bounds: {
    upper: number | null;
    lower: number | null;
    upper_population: number | null;
    lower_population: number | null;
    upper_sampling: number | null;
    lower_sampling: number | null;
  };
}

export const PERCENTILES = [10, 25, 30, 35, 50, 65, 70, 75, 90] as const;
const percentileKey = (p: number): string => p.toFixed(1);

export interface Aggregations {
  labor_category: TermsAggregation;
  security_clearance: TermsAggregation;
  worksite: TermsAggregation;
  min_years_experience: TermsAggregation;
  education_level: TermsAggregation;
  current_price: TermsAggregation;
  business_size: TermsAggregation;
  wage_histogram: { buckets: HistogramBucket[] };
  histogram_percentiles: { values: Record<string, number | null> };
  median_price: { values: Record<string, number | null> };
  wage_stats: WageStats;
}

/** Term sizes: labor_category 500, the others 10. */
export const TERM_SIZES = {
  labor_category: 500,
  security_clearance: 10,
  worksite: 10,
  min_years_experience: 10,
  education_level: 10,
  current_price: 10,
  business_size: 10,
} as const;

/**
 * Buckets by doc_count descending then key ascending (the dictionary's key rank), at most `size`; a null
 * value is no bucket and no "other" document.
 */
export function termsAggregation(dict: Dictionary, rows: Uint32Array, size: number, allowed?: Uint8Array): TermsAggregation {
  const counts = new Uint32Array(dict.values.length);
  const codes = dict.codes;
  for (let i = 0; i < rows.length; i++) counts[codes[rows[i]]]++;
  const { rank, values } = dict;
  const before = (a: number, b: number): boolean => counts[a] > counts[b] || (counts[a] === counts[b] && rank[a] < rank[b]);

  let total = 0;
  let top: number[] = [];
  const candidates: number[] = [];
  for (let code = 0; code < counts.length; code++) {
    if (counts[code] === 0 || values[code] === null || (allowed && allowed[code] === 0)) continue;
    total += counts[code];
    candidates.push(code);
  }
  if (candidates.length <= size * 4) {
    top = candidates.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0)).slice(0, size);
  } else {
    // Keep a sorted buffer of the best `size`; most candidates lose against its last entry at once.
    for (const code of candidates) {
      if (top.length === size && !before(code, top[size - 1])) continue;
      let at = top.length === size ? size - 1 : top.length;
      while (at > 0 && before(code, top[at - 1])) at--;
      top.splice(at, 0, code);
      if (top.length > size) top.pop();
    }
  }
  let shown = 0;
  const buckets = top.map((code) => {
    shown += counts[code];
    return { key: values[code]!, doc_count: counts[code] };
  });
  return { doc_count_error_upper_bound: 0, sum_other_doc_count: total - shown, buckets };
}

/** The matching prices ascending (nulls left out): sorted directly when few, else read off the price order. */
export function sortedPrices(store: ColumnStore, priceOrder: OrderColumn, mask: Uint8Array, rows: Uint32Array): { sorted: Float64Array; n: number } {
  const prices = store.numbers.current_price;
  const sorted = new Float64Array(rows.length);
  let n = 0;
  if (rows.length * 16 < store.size) {
    for (let i = 0; i < rows.length; i++) {
      const v = prices[rows[i]];
      if (v === v) sorted[n++] = v;
    }
    sorted.subarray(0, n).sort();
    return { sorted, n };
  }
  const { perm, groupStart, nullRank } = priceOrder;
  const end = groupStart[nullRank];
  for (let i = 0; i < end; i++) {
    const row = perm[i];
    if (mask[row] !== 0) sorted[n++] = prices[row];
  }
  return { sorted, n };
}

/** Exact percentile, linear interpolation between closest ranks: position p/100 · (n − 1). */
export function percentile(sorted: Float64Array, n: number, p: number): number | null {
  if (n === 0) return null;
  const position = (p / 100) * (n - 1);
  const lo = Math.floor(position);
  const hi = Math.ceil(position);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (position - lo);
}

/** Extended statistics, summed in id order; variance as the search engine defines it, never negative. */
export function wageStats(prices: Float64Array, rows: Uint32Array): WageStats {
  let count = 0;
  let sum = 0;
  let sumOfSquares = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < rows.length; i++) {
    const v = prices[rows[i]];
    if (v !== v) continue;
    count++;
    sum += v;
    sumOfSquares += v * v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return statsFrom(count, sum, sumOfSquares, min, max);
}

export function statsFrom(count: number, sum: number, sumOfSquares: number, min: number, max: number): WageStats {
  if (count === 0) {
    return {
      count: 0, min: null, max: null, avg: null, sum: 0, sum_of_squares: null,
      variance: null, variance_population: null, variance_sampling: null,
      std_deviation: null, std_deviation_population: null, std_deviation_sampling: null,
      std_deviation_bounds: { upper: null, lower: null, upper_population: null, lower_population: null, upper_sampling: null, lower_sampling: null },
    };
  }
  const avg = sum / count;
  const spread = sumOfSquares - (sum * sum) / count;
  const population = Math.max(0, spread / count);
  const sampling = count > 1 ? Math.max(0, spread / (count - 1)) : null;
  const stdPopulation = Math.sqrt(population);
  const stdSampling = sampling === null ? null : Math.sqrt(sampling);
  return {
    count,
    min,
    max,
    avg,
    sum,
    sum_of_squares: sumOfSquares,
    variance: population,
    variance_population: population,
    variance_sampling: sampling,
    std_deviation: stdPopulation,
    std_deviation_population: stdPopulation,
    std_deviation_sampling: stdSampling,
    std_deviation_bounds: {
      upper: avg + 2 * stdPopulation,
      lower: avg - 2 * stdPopulation,
      upper_population: avg + 2 * stdPopulation,
      lower_population: avg - 2 * stdPopulation,
      upper_sampling: stdSampling === null ? null : avg + 2 * stdSampling,
      lower_sampling: stdSampling === null ? null : avg - 2 * stdSampling,
    },
  };
}

export function aggregate(store: ColumnStore, priceOrder: OrderColumn, mask: Uint8Array, rows: Uint32Array): Aggregations {
  const { text } = store;
  const { sorted, n } = sortedPrices(store, priceOrder, mask, rows);
  const percentiles: Record<string, number | null> = {};
  for (const p of PERCENTILES) percentiles[percentileKey(p)] = percentile(sorted, n, p);
  return {
    labor_category: termsAggregation(text.labor_category, rows, TERM_SIZES.labor_category),
    security_clearance: termsAggregation(text.security_clearance, rows, TERM_SIZES.security_clearance),
    worksite: termsAggregation(text.worksite, rows, TERM_SIZES.worksite),
    min_years_experience: termsAggregation(store.experienceKeys, rows, TERM_SIZES.min_years_experience),
    education_level: termsAggregation(text.education_level, rows, TERM_SIZES.education_level),
    current_price: termsAggregation(store.priceKeys, rows, TERM_SIZES.current_price),
    business_size: termsAggregation(text.business_size, rows, TERM_SIZES.business_size),
    wage_histogram: { buckets: wageHistogram(sorted, n) },
    histogram_percentiles: { values: percentiles },
    median_price: { values: { [percentileKey(50)]: percentile(sorted, n, 50) } },
    wage_stats: wageStats(store.numbers.current_price, rows),
  };
}
