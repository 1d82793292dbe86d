/** A reviewed row's link to the rates view: the hash names exactly the row's comparables, and reads back as them. */
import { describe, expect, it } from 'vitest';
import { comparablesHash, parseComparablesLink } from '../../../ui/state/review-link.ts';
import { parseHash } from '../../../ui/state/route.ts';
import type { ReviewedRow } from '../../../dataset/price-lists/review.ts';

const row = (over: Partial<ReviewedRow>): ReviewedRow => ({
  row: 11,
  title: 'IT Architect 3',
  sin: '54151S',
  price: 180,
  education: 'BA',
  minYears: 10,
  years: [7.5, 12.5],
  match: 'exact',
  phrase: 'it architect 3',
  comparables: 9,
  comparison: 4,
  p25: 150,
  median: 160,
  p75: 170,
  mean: 160,
  sd: 10,
  sdFromMean: 2,
  fromMedian: 12.5,
  percentile: 100,
  flag: 'above',
  titles: ['IT Architect 3'],
  titleCount: 1,
  ...over,
});

const review = { vendor: 'LEIDOS, INC.', contract: 'GS35F116AA', options: { minComparables: 5, onePerOffer: true } };

const readBack = (hash: string) => {
  const route = parseHash(hash);
  if (route.view !== 'rates') throw new Error(`not the rates view: ${hash}`);
  return parseComparablesLink(route.query);
};

describe("a reviewed row's comparables link", () => {
  it('names the match, band, counting and contract left out, with the row in the review’s words', () => {
    expect(readBack(comparablesHash(review, row({})))).toEqual({
      query: {
        match: 'exact',
        phrase: 'it architect 3',
        education: 'BA',
        years: [7.5, 12.5],
        contract: 'GS35F116AA',
        onePerOffer: true,
        minComparables: 5,
        price: 180,
      },
      review: { vendor: 'LEIDOS, INC.', contract: 'GS35F116AA', row: 12, title: 'IT Architect 3' },
    });
    const broadened = readBack(
      comparablesHash(
        { ...review, options: { minComparables: 8, onePerOffer: false } },
        row({ match: 'phrase', phrase: 'architect', years: null, education: '' }),
      ),
    );
    expect(broadened?.query).toMatchObject({ match: 'phrase', phrase: 'architect', years: null, education: '', onePerOffer: false, minComparables: 8 });
  });

  it('is none for a row without comparables, and a hand-edited hash reads as no link rather than an error', () => {
    expect(comparablesHash(review, row({ match: 'none', phrase: '' }))).toBe('');
    const params = new URLSearchParams(comparablesHash(review, row({})).split('?')[1]);
    for (const [key, value] of [
      ['comparables', 'fuzzy:x'],
      ['years', '3'],
      ['proposed_price', 'abc'],
      ['counting', 'some'],
      ['comparables', 'x'.repeat(300)],
    ]) {
      const edited = new URLSearchParams(params);
      edited.set(key, value);
      expect(parseComparablesLink(edited), `${key}=${value}`).toBeNull();
    }
    expect(parseComparablesLink(new URLSearchParams('keyword=engineer'))).toBeNull();
  });
});
