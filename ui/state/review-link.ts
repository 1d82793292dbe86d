/**
 * A reviewed row's comparables as the rates view's query (its URL hash), with the row's price checked against
 * them: the comparables' exact titles as a pool when there are few enough, else the phrase that found them as the
 * keyword; their education code and experience band as filters. The view cannot leave out the list's own contract,
 * so its counts can be a little larger than the review's.
 */
import type { ReviewedRow } from '../../dataset/price-lists/review.ts';
import { EDUCATION_LEVELS, MAX_TITLES, emptyRatesQuery, ratesHashParams } from './rates-query.ts';
import { formatRoute } from './route.ts';

export function comparablesHash(row: ReviewedRow): string {
  const q = emptyRatesQuery();
  // The API's education filter takes its own codes only (a future list's unknown word is none of them).
  if ((EDUCATION_LEVELS as readonly string[]).includes(row.education)) q.education = [row.education];
  // Experience is whole years: the band's edges rounded inwards.
  if (row.years) q.experience = [Math.max(0, Math.ceil(row.years[0])), Math.floor(row.years[1])];
  q.proposed = row.price;
  if (row.titleCount > 0 && row.titles.length === row.titleCount && row.titleCount <= MAX_TITLES) {
    q.mode = 'titles';
    q.titles = row.titles;
  } else q.keyword = row.phrase || row.title;
  return formatRoute({ view: 'rates', query: ratesHashParams(q) });
}
