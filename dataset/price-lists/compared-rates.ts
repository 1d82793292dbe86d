/**
 * The rates a review compared, for the memo's second file: each comparison (the rows of one title and band share
 * one, numbered in the review's `comparison` column) with its rates' contract, vendor, title, SIN, price, education
 * and experience, as the review counted them (comparables.ts `select`: the same set, one rate per offer when the
 * review counted so). Cheapest first within a comparison.
 */
import type { Database } from 'sql.js';
import { csvLine } from '../../engine/ceilingrates/export.ts';
import { CEILINGRATES_TABLE } from '../../engine/ceilingrates/record.ts';
import { comparisonIndex, type ComparisonIndex } from './comparables.ts';
import type { PriceListReview, ReviewedRow } from './review.ts';
import { matchWords } from './review-csv.ts';

export const COMPARED_CSV_HEADER = [
  'comparison',
  'match',
  'contract',
  'vendor',
  'labor_category',
  'sin',
  'current_price',
  'education_level',
  'min_years_experience',
  'id',
] as const;

/** The comparables of one reviewed row as the review counted them: record indices of the index. */
export function rowComparables(
  index: ComparisonIndex,
  contract: string,
  row: Pick<ReviewedRow, 'match' | 'phrase' | 'education' | 'years'>,
  onePerOffer: boolean,
): Int32Array {
  if (row.match === 'none') return new Int32Array(0);
  return index.select(row.match, row.phrase, { education: row.education, years: row.years, contract }, onePerOffer);
}

/** Every comparison's first row, in comparison order. */
const comparisonsOf = (review: PriceListReview): ReviewedRow[] => {
  const first = new Map<number, ReviewedRow>();
  for (const row of review.rows) if (row.comparison && !first.has(row.comparison)) first.set(row.comparison, row);
  return [...first.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
};

type Details = [contract: string, vendor: string, title: string, sin: string, price: number, education: string, years: number | null];

export function comparedRatesCsv(db: Database, review: PriceListReview): string {
  const index = comparisonIndex(db);
  const groups = comparisonsOf(review).map((row) => ({
    row,
    ids: Array.from(rowComparables(index, review.contract, row, review.options.onePerOffer), (r) => index.ids[r]),
  }));
  // Each compared rate's fields read once, however many comparisons hold it.
  const details = new Map<number, Details>();
  const wanted = [...new Set(groups.flatMap((g) => g.ids))];
  const found = db.exec(
    `SELECT id, idv_piid, vendor_name, labor_category, sin, current_price, education_level, min_years_experience FROM ${CEILINGRATES_TABLE} WHERE id IN (SELECT value FROM json_each(?))`,
    [JSON.stringify(wanted)],
  )[0];
  for (const [id, ...fields] of found?.values ?? []) details.set(Number(id), fields as Details);
  const lines = [csvLine(COMPARED_CSV_HEADER)];
  for (const { row, ids } of groups) {
    const match = matchWords(row);
    const ordered = ids.filter((id) => details.has(id)).sort((a, b) => details.get(a)![4] - details.get(b)![4] || a - b);
    for (const id of ordered) lines.push(csvLine([row.comparison, match, ...details.get(id)!, id]));
  }
  return lines.join('\r\n') + '\r\n';
}
