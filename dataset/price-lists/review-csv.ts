/**
 * A price-list review as CSV, one line per hourly labor row in the file's order: the same bytes from the command
 * line (`offline-gov-api review`) and the app's export. Cells are quoted and formula-guarded as the rates export's.
 */
import { csvLine } from '../../engine/ceilingrates/export.ts';
import type { PriceListReview, ReviewedRow } from './review.ts';

export const REVIEW_CSV_HEADER = [
  'labor_category',
  'current_price',
  'education_level',
  'min_years_experience',
  'phrase',
  'comparables',
  'p25',
  'median',
  'p75',
  'mean',
  'sd_from_mean',
  'percentile',
  'flag',
] as const;

/** Prices to the cent, distances to a hundredth, percentiles to a tenth: what an analyst reads, exactly reproducible. */
const round = (value: number | null, digits: number): number | null => (value === null ? null : Number(value.toFixed(digits)));

export function reviewCsvLine(row: ReviewedRow): string {
  return csvLine([
    row.title,
    row.price,
    row.education,
    row.minYears,
    row.phrase,
    row.comparables,
    round(row.p25, 2),
    round(row.median, 2),
    round(row.p75, 2),
    round(row.mean, 2),
    round(row.sdFromMean, 2),
    round(row.percentile, 1),
    row.flag,
  ]);
}

export const reviewCsv = (review: PriceListReview): string => [csvLine(REVIEW_CSV_HEADER), ...review.rows.map(reviewCsvLine)].join('\r\n') + '\r\n';
