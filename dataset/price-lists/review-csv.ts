/**
 * A price-list review as memo-ready CSV: what was reviewed (vendor, contract, the list's date), against what (the
 * data's source, version and dates) and how (the method and its parameters) in label/value rows, then one line per
 * hourly labor row in the file's order. The same bytes from the command line (`offline-gov-api review`) and the
 * app's export. Cells are quoted and formula-guarded as the rates export's.
 */
import { csvLine } from '../../engine/ceilingrates/export.ts';
import type { ComparisonOptions } from './comparables.ts';
import { EXPERIENCE_BAND_WORDS } from './comparables.ts';
import { MIN_PHRASE_CHARACTERS } from './phrases.ts';
import type { PriceListReview, ReviewedRow, ReviewFlag } from './review.ts';
import { sourceDate, type DatasetSource } from '../artifact/format.ts';

/** The rates a review compared against, as its exports name them. */
export interface ReviewSource {
  /** What the records are, in one line (the build's "Real: GSA MAS price lists …", or the user's file). */
  label: string;
  version: string | null;
  /** The records' date or span (`2025-01-28 to 2025-11-06`), null when unknown. */
  date: string | null;
}

/** The records' date as an export cites it: a real source's date or span, none for generated data, else the file's date. */
export function dataDateOf(source: DatasetSource | null | undefined, fileDate: string | null = null): string | null {
  if (source?.kind === 'synthetic') return 'none (generated data)';
  return sourceDate(source ?? null) ?? fileDate;
}

/** What an export says beside the review itself: its data source, and the day it was made. */
export interface ReviewMeta {
  source: ReviewSource;
  /** YYYY-MM-DD */
  reviewedOn: string;
}

export const REVIEW_CSV_HEADER = [
  'row',
  'labor_category',
  'sin',
  'current_price',
  'education_level',
  'min_years_experience',
  'experience_band',
  'match',
  'comparables',
  'comparison',
  'p25',
  'median',
  'p75',
  'mean',
  'sd',
  'sd_from_mean',
  'percentile',
  'vs_median_percent',
  'flag',
] as const;

/** The method in one paragraph, with the options in force: the memo's "how". */
export function methodWords(options: ComparisonOptions): string {
  return [
    `Comparables of each hourly labor row: rates of the same normalised title, else of the longest run of its words that finds at least ${options.minComparables}`,
    `(a run is never of numerals, level or filler words alone and has at least ${MIN_PHRASE_CHARACTERS} characters; of runs of one length, the one in the fewest titles),`,
    `with the same education code and a minimum experience ${EXPERIENCE_BAND_WORDS}, the list's own contract left out;`,
    options.onePerOffer ? 'one rate per contract, title and price.' : 'every rate counted (an offer under several SINs or worksites counts once for each).',
    'Quartiles by linear interpolation between closest ranks; percentile rank counting half the equal prices; distance in sample standard deviations.',
    `A price is flagged below p25 or above p75 only on at least ${options.minComparables} comparables (FAR 15.404-1(b)(2): comparison with other prices).`,
  ].join(' ');
}

/** How the match is said: `exact title`, `broadened to "<phrase>"`, `none`. */
export function matchWords(row: Pick<ReviewedRow, 'match' | 'phrase'>): string {
  return row.match === 'exact' ? 'exact title' : row.match === 'phrase' ? `broadened to "${row.phrase}"` : 'none';
}

export const FLAG_WORDS: Record<ReviewFlag, string> = { above: 'above p75', below: 'below p25', within: 'within p25-p75', 'too few': 'too few comparables' };

/** Prices to the cent, distances to a hundredth, percentiles to a tenth: what an analyst reads, exactly reproducible. */
const round = (value: number | null, digits: number): number | null => (value === null ? null : Number(value.toFixed(digits)));

/** The band in words: `3-7` years, `any`. */
export const bandWords = (years: [number, number] | null): string => (years === null ? 'any' : `${round(Math.max(0, years[0]), 2)}-${round(years[1], 2)}`);

export function reviewCsvLine(row: ReviewedRow): string {
  return csvLine([
    row.row + 1,
    row.title,
    row.sin,
    row.price,
    row.education,
    row.minYears,
    bandWords(row.years),
    matchWords(row),
    row.comparables,
    row.comparison || null,
    round(row.p25, 2),
    round(row.median, 2),
    round(row.p75, 2),
    round(row.mean, 2),
    round(row.sd, 2),
    round(row.sdFromMean, 2),
    round(row.percentile, 1),
    round(row.fromMedian, 1),
    FLAG_WORDS[row.flag],
  ]);
}

/** The label/value rows above the table: what a memo cites. */
export function reviewNotes(review: PriceListReview, meta: ReviewMeta): [string, string | number][] {
  return [
    ['Price list review', `${review.vendor} (${review.contract})`],
    ['Vendor', review.vendor],
    ['Contract number', review.contract],
    ['Price list generated', review.generated],
    ['Hourly labor rows', review.rows.length],
    ['Compared with', meta.source.label],
    ['Data version', meta.source.version ?? 'unknown'],
    ['Data dates', meta.source.date ?? 'unknown'],
    ['Rates in the data', review.rates],
    ['Method', methodWords(review.options)],
    ['Minimum comparables', review.options.minComparables],
    ['One rate per contract, title and price', review.options.onePerOffer ? 'yes' : 'no'],
    ['Compared rates', 'listed in the second file (by comparison number)'],
    ['Reviewed on', meta.reviewedOn],
  ];
}

export const reviewCsv = (review: PriceListReview, meta: ReviewMeta): string =>
  [...reviewNotes(review, meta).map((note) => csvLine(note)), csvLine(REVIEW_CSV_HEADER), ...review.rows.map(reviewCsvLine)].join('\r\n') + '\r\n';
