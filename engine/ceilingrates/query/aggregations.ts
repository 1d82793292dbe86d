/**
 * Aggregations over every matching record (not just the page): eight term aggregations (the seven fields and
 * the normalised education codes), wage statistics, percentiles, median and the wage histogram (the API
 * reference, "Aggregations"): their shapes and sizes, and the aggregations assembled from what was counted
 * over the matches (aggregator.ts counts them). Everything about prices — the price term buckets, min/max,
 * percentiles, histogram — is read off the distinct prices' counts, without sorting.
 */
import { cumulativeCounts, priceOfRecord, wageHistogram, type HistogramBucket, type PriceCounts } from './histogram.ts';
import { EDUCATION_COUNT_CODES } from '../text.ts';
import type { TermBucket, TermsAggregation } from './terms.ts';
import { statsFrom, type PriceSums, type WageStats } from './wage-stats.ts';

/** education_level_counts: production's shape, `buckets` only, one per code in EDUCATION_COUNT_CODES order. */
export interface EducationCounts {
  buckets: TermBucket[];
}

export const PERCENTILES = [10, 25, 30, 35, 50, 65, 70, 75, 90] as const;
export const percentileKey = (p: number): string => p.toFixed(1);

export interface Aggregations {
  labor_category: TermsAggregation;
  security_clearance: TermsAggregation;
  worksite: TermsAggregation;
  min_years_experience: TermsAggregation;
  education_level: TermsAggregation;
  current_price: TermsAggregation;
  business_size: TermsAggregation;
  /** Absent when nothing matches (production leaves it out). */
  education_level_counts?: EducationCounts;
  wage_histogram: { buckets: HistogramBucket[] };
  histogram_percentiles: { values: Record<string, number | null> };
  median_price: { values: Record<string, number | null> };
  wage_stats: WageStats;
}

/**
 * Term sizes, production's: labor_category, current_price and min_years_experience 500, the others 10. A response
 * recorded from production on 2026-10-10 (filter=sin:541330EMI, 5,560 matches) has exactly 500 current_price
 * buckets with sum_other_doc_count 3725, and all 30 distinct experience values with sum_other_doc_count 0 (see
 * tests/unit/ceilingrates/recorded.test.ts); 10, the search engine's default, cut both short.
 */
export const TERM_SIZES = {
  labor_category: 500,
  security_clearance: 10,
  worksite: 10,
  min_years_experience: 500,
  education_level: 10,
  current_price: 500,
  business_size: 10,
} as const;

/** Exact percentiles with linear interpolation between closest ranks: position p/100 · (n − 1). */
export function percentiles(prices: PriceCounts, ps: readonly number[], { scratch }: { scratch?: Float64Array } = {}): (number | null)[] {
  const { values, m } = prices;
  const cumulative = prices.cumulative ?? cumulativeCounts(prices, scratch && scratch.length > m ? scratch : new Float64Array(m + 1));
  const n = cumulative[m];
  // The value of the k-th smallest price (0-based).
  const at = (k: number): number => values[Math.min(priceOfRecord(cumulative, m, k), m - 1)];
  return ps.map((p) => {
    if (n === 0) return null;
    const position = (p / 100) * (n - 1);
    const lo = Math.floor(position);
    const hi = Math.ceil(position);
    const low = at(lo);
    return low + (at(hi) - low) * (position - lo);
  });
}

/** education_level_counts from the counts per code, in EDUCATION_COUNT_CODES order, zero counts included. */
export function educationBuckets(counts: readonly number[]): EducationCounts {
  return { buckets: EDUCATION_COUNT_CODES.map((key, i) => ({ key, doc_count: counts[i] ?? 0 })) };
}

/** The term aggregations of a search, by name (the seven fields, sized by TERM_SIZES). */
export type TermAggregations = Pick<Aggregations, keyof typeof TERM_SIZES>;

/**
 * A search's aggregations from what was counted over its matches: the term aggregations, the education
 * counts, the distinct prices with their counts (ascending) and the price sums. Percentiles, median and the
 * histogram are computed here from the distinct prices, so every store that can count them answers alike.
 */
export function aggregationsFrom(parts: {
  matches: number;
  terms: TermAggregations;
  education: EducationCounts;
  prices: PriceCounts;
  sums: PriceSums;
}): Aggregations {
  const { matches, terms, education, prices, sums } = parts;
  const [median, ...others] = percentiles(prices, [50, ...PERCENTILES]);
  const byKey: Record<string, number | null> = {};
  PERCENTILES.forEach((p, i) => (byKey[percentileKey(p)] = others[i]));
  const aggregations: Aggregations = {
    labor_category: terms.labor_category,
    security_clearance: terms.security_clearance,
    worksite: terms.worksite,
    min_years_experience: terms.min_years_experience,
    education_level: terms.education_level,
    current_price: terms.current_price,
    business_size: terms.business_size,
    education_level_counts: education,
    wage_histogram: { buckets: wageHistogram(prices) },
    histogram_percentiles: { values: byKey },
    median_price: { values: { [percentileKey(50)]: median } },
    wage_stats: statsFrom(sums),
  };
  // Production leaves education_level_counts out when nothing matches.
  if (matches === 0) delete aggregations.education_level_counts;
  return aggregations;
}

/** The largest term aggregation: labor_category, current_price and experience ask 500 buckets. */
export const LARGEST_TERMS = Math.max(...Object.values(TERM_SIZES));
