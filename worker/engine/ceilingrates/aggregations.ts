/**
 * Aggregations over every matching record (not just the page): seven term aggregations, wage statistics,
 * percentiles, median and the wage histogram (semantics.md, "Aggregations").
 *
 * One fused pass over the matching rows counts the six dictionary fields, counts each distinct price (by its
 * rank in the price order) and sums the statistics in id order. Everything about prices — the price term
 * buckets, min/max, percentiles, histogram — is then read off the distinct-price counts, without sorting.
 */
import type { ColumnStore, Dictionary } from './columns.ts';
import type { OrderColumn } from './order-columns.ts';
import { wageHistogram, type HistogramBucket, type PriceCounts } from './histogram.ts';

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
export function termsFromCounts(dict: Dictionary, counts: ArrayLike<number>, size: number): TermsAggregation {
  const { rank, values } = dict;
  let total = 0;
  let candidates: number[] = [];
  for (let code = 0; code < counts.length; code++) {
    if (counts[code] === 0 || values[code] === null) continue;
    total += counts[code];
    candidates.push(code);
  }
  if (candidates.length > size) {
    // Only codes counting at least the size-th largest count can be shown: find that count natively.
    const ranked = new Float64Array(candidates.length);
    for (let i = 0; i < candidates.length; i++) ranked[i] = counts[candidates[i]];
    ranked.sort();
    const threshold = ranked[ranked.length - size];
    candidates = candidates.filter((code) => counts[code] >= threshold);
  }
  candidates.sort((a, b) => counts[b] - counts[a] || rank[a] - rank[b]);
  let shown = 0;
  const buckets = candidates.slice(0, size).map((code) => {
    shown += counts[code];
    return { key: values[code]!, doc_count: counts[code] };
  });
  return { doc_count_error_upper_bound: 0, sum_other_doc_count: total - shown, buckets };
}

export function termsAggregation(dict: Dictionary, rows: Uint32Array, size: number): TermsAggregation {
  const counts = new Uint32Array(dict.values.length);
  const codes = dict.codes;
  for (let i = 0; i < rows.length; i++) counts[codes[rows[i]]]++;
  return termsFromCounts(dict, counts, size);
}

/** Exact percentiles with linear interpolation between closest ranks: position p/100 · (n − 1). */
export function percentiles({ values, counts, m }: PriceCounts, ps: readonly number[]): (number | null)[] {
  const cumulative = new Float64Array(m + 1);
  for (let i = 0; i < m; i++) cumulative[i + 1] = cumulative[i] + counts[i];
  const n = cumulative[m];
  // The value of the k-th smallest price (0-based).
  const at = (k: number): number => {
    let lo = 0;
    let hi = m - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid + 1] <= k) lo = mid + 1;
      else hi = mid;
    }
    return values[lo];
  };
  return ps.map((p) => {
    if (n === 0) return null;
    const position = (p / 100) * (n - 1);
    const lo = Math.floor(position);
    const hi = Math.ceil(position);
    const low = at(lo);
    return low + (at(hi) - low) * (position - lo);
  });
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

/** Aggregations over one database's columns; `bind` builds it once. */
export class Aggregator {
  private readonly priceKeyOfRank: Uint32Array;

  constructor(
    private readonly store: ColumnStore,
    private readonly priceOrder: OrderColumn,
  ) {
    // Each distinct price has one two-decimal key: map price ranks to term keys once.
    this.priceKeyOfRank = new Uint32Array(priceOrder.nullRank);
    const rank = priceOrder.recordRank;
    const keys = store.priceKeys.codes;
    for (let r = 0; r < store.size; r++) if (rank[r] < priceOrder.nullRank) this.priceKeyOfRank[rank[r]] = keys[r];
  }

  aggregate(rows: Uint32Array): Aggregations {
    const { store, priceOrder } = this;
    const { text } = store;
    const dicts = [text.labor_category, text.security_clearance, text.worksite, store.experienceKeys, text.education_level, text.business_size];
    const [n0, n1, n2, n3, n4, n5] = dicts.map((d) => new Uint32Array(d.values.length));
    const [k0, k1, k2, k3, k4, k5] = dicts.map((d) => d.codes);
    const priceRank = priceOrder.recordRank;
    const rankCounts = new Uint32Array(priceOrder.nullRank + 1);
    const prices = store.numbers.current_price;
    let sum = 0;
    let sumOfSquares = 0;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      n0[k0[r]]++;
      n1[k1[r]]++;
      n2[k2[r]]++;
      n3[k3[r]]++;
      n4[k4[r]]++;
      n5[k5[r]]++;
      rankCounts[priceRank[r]]++;
      const v = prices[r];
      if (v === v) {
        sum += v;
        sumOfSquares += v * v;
      }
    }

    const distinct = priceOrder.rankValues!;
    const priceCounts: PriceCounts = { values: new Float64Array(priceOrder.nullRank), counts: new Float64Array(priceOrder.nullRank), m: 0 };
    const keyCounts = new Uint32Array(store.priceKeys.values.length);
    for (let rank = 0; rank < priceOrder.nullRank; rank++) {
      const c = rankCounts[rank];
      if (c === 0) continue;
      priceCounts.values[priceCounts.m] = distinct[rank];
      priceCounts.counts[priceCounts.m++] = c;
      keyCounts[this.priceKeyOfRank[rank]] += c;
    }
    const count = rows.length - rankCounts[priceOrder.nullRank];
    const { m, values } = priceCounts;
    const stats = statsFrom(count, sum, sumOfSquares, values[0], values[m - 1]);

    const [median, ...rest] = percentiles(priceCounts, [50, ...PERCENTILES]);
    const byKey: Record<string, number | null> = {};
    PERCENTILES.forEach((p, i) => (byKey[percentileKey(p)] = rest[i]));
    return {
      labor_category: termsFromCounts(dicts[0], n0, TERM_SIZES.labor_category),
      security_clearance: termsFromCounts(dicts[1], n1, TERM_SIZES.security_clearance),
      worksite: termsFromCounts(dicts[2], n2, TERM_SIZES.worksite),
      min_years_experience: termsFromCounts(dicts[3], n3, TERM_SIZES.min_years_experience),
      education_level: termsFromCounts(dicts[4], n4, TERM_SIZES.education_level),
      current_price: termsFromCounts(store.priceKeys, keyCounts, TERM_SIZES.current_price),
      business_size: termsFromCounts(dicts[5], n5, TERM_SIZES.business_size),
      wage_histogram: { buckets: wageHistogram(priceCounts) },
      histogram_percentiles: { values: byKey },
      median_price: { values: { [percentileKey(50)]: median } },
      wage_stats: stats,
    };
  }
}
