/**
 * A price list reviewed against the ceiling rates, as a pricing analyst does it (after 18F CALC's price-list
 * analysis and FAR 15.404-1(b)(2)): for each hourly labor row, its comparables (comparables.ts), their
 * quartiles, mean and sample standard deviation, and where the row's price falls among them. The command line,
 * the app and the rates view's link to a row's comparables all take their figures from here.
 */
import type { Database } from 'sql.js';
import { percentiles } from '../../engine/ceilingrates/query/aggregations.ts';
import { priceCountsOfSorted } from '../../engine/ceilingrates/query/histogram.ts';
import { priceCheck } from '../../engine/ceilingrates/price-figures.ts';
import {
  comparisonIndex,
  comparisonOptions,
  experienceBand,
  normaliseTitle,
  FIGURES_MINIMUM,
  type ComparisonIndex,
  type ComparisonOptions,
  type MatchKind,
} from './comparables.ts';
import { educationCode } from './records.ts';
import type { PriceList } from './sheet.ts';

/** Distinct titles of a row's comparables selected for the rates view's pool (its `title` limit). */
export const MAX_REVIEW_TITLES = 100;

/** `too few`: fewer comparables than the minimum, so the price is not judged (nor when there are none). */
export type ReviewFlag = 'below' | 'above' | 'within' | 'too few';

export interface ReviewedRow {
  /** The row's place among the list's hourly labor rows (0-based). */
  row: number;
  title: string;
  /** The row's SIN(s) as the list writes them. */
  sin: string;
  price: number;
  /** The interface's education code (`BA`), '' when the list states none. */
  education: string;
  minYears: number | null;
  /** The experience band the comparables were taken from, edges included; null: any experience. */
  years: [number, number] | null;
  /** `exact`: the same normalised title; `phrase`: a broadened phrase; `none`: nothing found two comparables. */
  match: MatchKind;
  /** The normalised title or the phrase that found the comparables ('' for none). */
  phrase: string;
  comparables: number;
  /** Rows of one title and band share their comparables: their comparison's number (1-based; 0 for none). */
  comparison: number;
  p25: number | null;
  median: number | null;
  p75: number | null;
  mean: number | null;
  /** Sample standard deviation (divided by n − 1) of the comparables' prices. */
  sd: number | null;
  /** (price − mean) / sd; null when sd is 0 or there are no figures. */
  sdFromMean: number | null;
  /** (price − median) / median, in %; null without figures. */
  fromMedian: number | null;
  /** The price's percentile rank among the comparables: those below it plus half those equal, in % (the price check's). */
  percentile: number | null;
  /** `below` p25, `above` p75, `within` the interquartile band; `too few` under the minimum of comparables. */
  flag: ReviewFlag;
  /** The comparables' titles as stored, distinct, the first MAX_REVIEW_TITLES found (sorted); `titleCount` is how many there were. */
  titles: string[];
  titleCount: number;
}

export interface PriceListReview {
  contract: string;
  vendor: string;
  generated: string;
  /** Rates compared against (those with a current price). */
  rates: number;
  /** How comparables were counted. */
  options: ComparisonOptions;
  rows: ReviewedRow[];
}

type Figures = Pick<ReviewedRow, 'p25' | 'median' | 'p75' | 'mean' | 'sd' | 'sdFromMean' | 'fromMedian' | 'percentile'>;

const NO_FIGURES: Figures = { p25: null, median: null, p75: null, mean: null, sd: null, sdFromMean: null, fromMedian: null, percentile: null };

/** The figures of comparables' prices (sorted ascending), which every row of the same title and band shares. */
function statistics(sorted: Float64Array) {
  const n = sorted.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i];
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (sorted[i] - mean) ** 2;
  const [p25, median, p75] = percentiles(priceCountsOfSorted(sorted, n), [25, 50, 75]) as number[];
  return { p25, median, p75, mean, sd: Math.sqrt(squares / (n - 1)) };
}

/** Where one price falls among comparables' prices (sorted ascending, at least FIGURES_MINIMUM of them). */
function figures(sorted: Float64Array, stats: ReturnType<typeof statistics>, price: number): Figures {
  const { median, mean, sd } = stats;
  return {
    ...stats,
    sdFromMean: sd > 0 ? (price - mean) / sd : null,
    fromMedian: median ? ((price - median) / median) * 100 : null,
    percentile: priceCheck(sorted, median, price).percentileRank,
  };
}

/** The flag of a price: judged only on at least the minimum of comparables. */
const flagOf = (price: number, figures: Figures, enough: boolean): ReviewFlag =>
  !enough || figures.p25 === null || figures.p75 === null ? 'too few' : price < figures.p25 ? 'below' : price > figures.p75 ? 'above' : 'within';

/** A price's row figures and flag among comparables' prices (sorted ascending): the review's, and the link's. */
export function priceAmong(sorted: Float64Array, price: number, enough: boolean): Figures & { flag: ReviewFlag } {
  const found = sorted.length >= FIGURES_MINIMUM ? figures(sorted, statistics(sorted), price) : NO_FIGURES;
  return { ...found, flag: flagOf(price, found, enough) };
}

/** What rows of one title and band share, whatever their prices: a list repeats a title under several SINs. */
interface Comparison {
  number: number;
  match: MatchKind;
  phrase: string;
  enough: boolean;
  sorted: Float64Array;
  stats: ReturnType<typeof statistics> | null;
  titles: string[];
  titleCount: number;
}

/** The review of every hourly labor row of `list` against an index of rates. */
export function reviewWithIndex(index: ComparisonIndex, list: PriceList, chosen: Partial<ComparisonOptions> = {}): PriceListReview {
  const options = comparisonOptions(chosen);
  const seen = new Int32Array(index.rawTitles.length).fill(-1);
  const comparisons = new Map<string, Comparison>();
  let numbered = 0;
  const compare = (title: string, education: string, years: [number, number] | null, stamp: number): Comparison => {
    const key = `${education}\u0000${years?.join(',') ?? ''}\u0000${normaliseTitle(title)}`;
    let comparison = comparisons.get(key);
    if (comparison) return comparison;
    const found = index.comparables(title, { education, years, contract: list.contract }, options);
    const n = found.records.length;
    const sorted = new Float64Array(n);
    const titles: string[] = [];
    let titleCount = 0;
    for (let i = 0; i < n; i++) {
      const record = found.records[i];
      sorted[i] = index.prices[record];
      const code = index.rawTitleOf[record];
      if (seen[code] === stamp) continue;
      seen[code] = stamp;
      if (titleCount++ < MAX_REVIEW_TITLES) titles.push(index.rawTitles[code]);
    }
    sorted.sort();
    comparison = {
      number: found.match === 'none' ? 0 : ++numbered,
      match: found.match,
      phrase: found.phrase,
      enough: found.enough,
      sorted,
      stats: n >= FIGURES_MINIMUM ? statistics(sorted) : null,
      titles: titles.sort(),
      titleCount,
    };
    comparisons.set(key, comparison);
    return comparison;
  };
  const rows = list.rows.map((row, at): ReviewedRow => {
    const education = educationCode(row.education);
    const years = experienceBand(row.minYears);
    const { number, match, phrase, enough, sorted, stats, titles, titleCount } = compare(row.title, education, years, at);
    const found = stats ? figures(sorted, stats, row.price) : NO_FIGURES;
    return {
      row: at,
      title: row.title,
      sin: row.sin,
      price: row.price,
      education,
      minYears: row.minYears,
      years,
      match,
      phrase,
      comparables: sorted.length,
      comparison: number,
      ...found,
      flag: flagOf(row.price, found, enough),
      titles,
      titleCount,
    };
  });
  return { contract: list.contract, vendor: list.vendor, generated: list.generated, rates: index.size, options, rows };
}

/** The review against a ceilingrates database (its index is built on the first review and cached with it). */
export const reviewPriceList = (db: Database, list: PriceList, options: Partial<ComparisonOptions> = {}): PriceListReview =>
  reviewWithIndex(comparisonIndex(db), list, options);
