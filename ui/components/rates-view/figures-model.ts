/**
 * What the figures panel draws, whichever answered it: the API's aggregations (current price) or the DB
 * worker's price figures for another contract year; plus the proposed price's check when there is one.
 */
import type { Aggregations } from '../../../engine/ceilingrates/query/aggregations.ts';
import type { PriceField } from '../../state/rates-query.ts';
import type { HistogramBucket, RateRecord } from '../../api/api-types.ts';
import { formatSigned } from '../common/format.ts';
import type { PriceCheck, PriceFigures } from '../../api/db-client.ts';

export interface FiguresModel {
  field: PriceField;
  /** Matching records, and how many of them have a price in this year (the figures' count). */
  matches: number;
  count: number;
  avg: number | null;
  median: number | null;
  std: number | null;
  min: number | null;
  max: number | null;
  /** Keyed "10.0", "25.0", … as the API's histogram_percentiles. */
  percentiles: Record<string, number | null>;
  histogram: HistogramBucket[];
  check: PriceCheck | null;
}

export const YEAR_LABELS: Record<PriceField, string> = {
  current_price: 'Current year',
  next_year_price: 'Next year',
  second_year_price: 'Second year',
};

export function fromAggregations(a: Aggregations, check: PriceCheck | null): FiguresModel {
  const s = a.wage_stats;
  return {
    field: 'current_price',
    matches: s.count,
    count: s.count,
    avg: s.avg,
    median: a.median_price?.values?.['50.0'] ?? null,
    std: s.std_deviation,
    min: s.min,
    max: s.max,
    percentiles: a.histogram_percentiles?.values ?? {},
    histogram: a.wage_histogram?.buckets ?? [],
    check,
  };
}

export function fromPriceFigures(f: PriceFigures): FiguresModel {
  const s = f.stats;
  return {
    field: f.field,
    matches: f.matches,
    count: s.count,
    avg: s.avg,
    median: f.median,
    std: s.std_deviation,
    min: s.min,
    max: s.max,
    percentiles: f.percentiles,
    histogram: f.histogram,
    check: f.check,
  };
}

/** "62nd", "1st", "13th": a percentile rank in words. */
export function ordinal(n: number): string {
  const r = Math.round(n);
  const tens = r % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][r % 10] ?? 'th');
  return `${r}${suffix}`;
}

/** +$12.50 (+9.8%) */
export const signedPercent = (n: number | null): string => formatSigned(n, 1, '%');

/** Next year's price ÷ the current one: how much the contract lets the price rise. */
export function escalation(r: Pick<RateRecord, 'current_price' | 'next_year_price'>): number | null {
  return r.next_year_price === null || !r.current_price ? null : r.next_year_price / r.current_price;
}

/** 1.0312 → "×1.031" */
export function formatEscalation(ratio: number | null): string {
  return ratio === null ? '—' : `×${ratio.toFixed(3)}`;
}
