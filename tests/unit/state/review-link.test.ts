/** A reviewed row's link to the rates view: what the view reads back from it is the row's comparables' query. */
import { describe, expect, it } from 'vitest';
import { comparablesHash } from '../../../ui/state/review-link.ts';
import { parseHash } from '../../../ui/state/route.ts';
import { parseRatesQuery } from '../../../ui/state/rates-query.ts';
import type { ReviewedRow } from '../../../dataset/price-lists/review.ts';

const row = (over: Partial<ReviewedRow>): ReviewedRow => ({
  row: 0,
  title: 'Senior Cloud Engineer',
  price: 180,
  education: 'BA',
  minYears: 10,
  years: [7.5, 12.5],
  match: 'exact',
  phrase: 'senior cloud engineer',
  comparables: 3,
  p25: 150,
  median: 160,
  p75: 170,
  mean: 160,
  sd: 10,
  sdFromMean: 2,
  percentile: 100,
  flag: 'above',
  titles: ['SENIOR CLOUD ENGINEER', 'Senior Cloud Engineer'],
  titleCount: 2,
  ...over,
});

const readBack = (hash: string) => {
  const route = parseHash(hash);
  if (route.view !== 'rates') throw new Error(`not the rates view: ${hash}`);
  return parseRatesQuery(route.query);
};

describe("a reviewed row's comparables link", () => {
  it('is a pool of their exact titles under the education and whole-year experience filters, the price checked', () => {
    expect(readBack(comparablesHash(row({})))).toMatchObject({
      mode: 'titles',
      titles: ['SENIOR CLOUD ENGINEER', 'Senior Cloud Engineer'],
      keyword: '',
      education: ['BA'],
      experience: [8, 12],
      proposed: 180,
    });
  });

  it('searches the phrase when the titles are too many for a pool, and leaves out what the API cannot filter', () => {
    const q = readBack(comparablesHash(row({ phrase: 'engineer', titles: ['a'], titleCount: 500, education: 'Trade Apprenticeship', years: null })));
    expect(q).toMatchObject({ mode: 'contains', keyword: 'engineer', titles: [], education: [], experience: [null, null], proposed: 180 });
  });
});
