/**
 * "The comparables of row N of this review" as a rates-view state in the URL hash: the row's match (exact title
 * or phrase), band, counting and minimum, the list's contract left out and its price, with the review's words for
 * what the set is. The DB worker selects exactly the set the review counted from it
 * (dataset/price-lists/row-comparables.ts), so the link is saved and shared like any view, and answers the same
 * over the same data. A hash that names no such set (hand-edited) reads as none, never as an error.
 */
import type { PriceListReview, ReviewedRow } from '../../dataset/price-lists/review.ts';
import type { RowComparablesQuery } from '../../dataset/price-lists/row-comparables.ts';
import { formatRoute } from './route.ts';

export interface ComparablesLink {
  query: RowComparablesQuery;
  /** Which review's row it is, in its own words: for the view's heading. */
  review: { vendor: string; contract: string; row: number; title: string };
}

/** The hash's keys; none is an API parameter, and `comparables` marks the state. */
const KEY = {
  comparables: 'comparables',
  education: 'education',
  years: 'years',
  contract: 'leave_out',
  counting: 'counting',
  min: 'min_comparables',
  price: 'proposed_price',
  vendor: 'review_vendor',
  row: 'review_row',
  title: 'review_title',
} as const;
const COUNTING = { one: 'one-per-offer', every: 'every-rate' } as const;
/** Longer than any title or phrase a list holds; what a link may carry at most. */
const MAX_TEXT = 200;

export function comparablesParams(review: Pick<PriceListReview, 'vendor' | 'contract' | 'options'>, row: ReviewedRow): URLSearchParams {
  const params = new URLSearchParams();
  if (row.match === 'none') return params;
  params.set(KEY.comparables, `${row.match}:${row.phrase}`);
  params.set(KEY.education, row.education);
  if (row.years) params.set(KEY.years, row.years.join(','));
  params.set(KEY.contract, review.contract);
  params.set(KEY.counting, review.options.onePerOffer ? COUNTING.one : COUNTING.every);
  params.set(KEY.min, String(review.options.minComparables));
  params.set(KEY.price, String(row.price));
  params.set(KEY.vendor, review.vendor);
  params.set(KEY.row, String(row.row + 1));
  params.set(KEY.title, row.title);
  return params;
}

/** The rates view's hash showing a row's comparables ('' for a row without any). */
export function comparablesHash(review: Pick<PriceListReview, 'vendor' | 'contract' | 'options'>, row: ReviewedRow): string {
  return row.match === 'none' ? '' : formatRoute({ view: 'rates', query: comparablesParams(review, row) });
}

const text = (params: URLSearchParams, key: string): string | null => {
  const value = params.get(key);
  return value === null || value.length > MAX_TEXT ? null : value;
};

const finite = (value: string | null): number | null => (value === null || value.trim() === '' || !Number.isFinite(Number(value)) ? null : Number(value));

/** The link a rates-view hash holds, or null when it holds none (no `comparables`, or a part that is not one). */
export function parseComparablesLink(params: URLSearchParams): ComparablesLink | null {
  const named = text(params, KEY.comparables);
  if (named === null) return null;
  const [, match, phrase] = /^(exact|phrase):(.+)$/.exec(named) ?? [];
  const education = text(params, KEY.education);
  const contract = text(params, KEY.contract);
  const price = finite(params.get(KEY.price));
  const min = finite(params.get(KEY.min));
  const row = finite(params.get(KEY.row));
  const counting = params.get(KEY.counting);
  const yearsText = params.get(KEY.years);
  const years = yearsText === null ? null : yearsText.split(',').map((n) => finite(n));
  if (!match || education === null || contract === null || price === null || min === null || row === null) return null;
  if (counting !== COUNTING.one && counting !== COUNTING.every) return null;
  if (years && (years.length !== 2 || years.some((n) => n === null))) return null;
  return {
    query: {
      match: match as 'exact' | 'phrase',
      phrase,
      education,
      years: years as [number, number] | null,
      contract,
      onePerOffer: counting === COUNTING.one,
      minComparables: min,
      price,
    },
    review: { vendor: text(params, KEY.vendor) ?? '', contract, row, title: text(params, KEY.title) ?? '' },
  };
}
