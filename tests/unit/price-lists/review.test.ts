/**
 * The price-list review's rule (docs/api/price-list-review.md): comparables by normalised title, else a broadened
 * phrase; the education and experience band; the figures over known prices.
 */
import { describe, expect, it } from 'vitest';
import { comparisonIndexOf, comparisonOptions, experienceBand, normaliseTitle } from '../../../dataset/price-lists/comparables.ts';
import { isPhrase } from '../../../dataset/price-lists/phrases.ts';
import { reviewPriceList, reviewWithIndex } from '../../../dataset/price-lists/review.ts';
import { REVIEW_CSV_HEADER, reviewCsv } from '../../../dataset/price-lists/review-csv.ts';
import type { PriceList, PriceListRow } from '../../../dataset/price-lists/sheet.ts';
import { insertCeilingRates } from '../../../engine/ceilingrates/schema.ts';
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import { emptyDatabase } from '../../../harness/engine.ts';

type Rate = [title: string, education: string, years: number | null, price: number, contract?: string];

const index = (rates: Rate[]) => comparisonIndexOf(rates.map(([t, e, y, p, c]) => [t, e, y, p, c ?? 'GS-00F-OTHER']));
/** The band and figure tests take two comparables as enough and count every rate, so that their rates stay few. */
const TWO = { minComparables: 2, onePerOffer: false };

const row = (title: string, price: number, education: string | null = 'Bachelors', minYears: number | null = 5): PriceListRow => ({
  title,
  price,
  education,
  minYears,
  sin: '54151S',
  worksite: null,
  clearance: null,
  nextYear: null,
  secondYear: null,
});

const list = (...rows: PriceListRow[]): PriceList => ({
  contract: '47QTCA20D0001',
  vendor: 'EXAMPLE ANALYTICS LLC',
  generated: '2025-09-22',
  generatedAt: '2025-09-22T00:00:00.000Z',
  start: null,
  optionEnd: null,
  end: null,
  contractYear: 7,
  rows,
  otherRows: 0,
});

describe('the comparable rule', () => {
  it('normalises titles: lower case, punctuation to spaces, whitespace collapsed', () => {
    expect(normaliseTitle('  Sr. Project-Manager (IT)  II ')).toBe('sr project manager it ii');
    expect(normaliseTitle('Data/Cloud   Engineer')).toBe('data cloud engineer');
  });

  it('bands experience within max(2, 25%) years, edges included', () => {
    expect(experienceBand(5)).toEqual([3, 7]);
    expect(experienceBand(12)).toEqual([9, 15]);
    expect(experienceBand(0)).toEqual([-2, 2]);
    expect(experienceBand(null)).toBeNull();
  });

  it('takes the same normalised title first, with known quartiles, mean, standard deviations and flag', () => {
    // Prices 100, 110, 120, 130, 140: p25 110, median 120, p75 130, mean 120, sample sd √250 ≈ 15.81.
    const rates = index([
      ['Business Analyst', 'BA', 5, 100],
      ['business analyst', 'BA', 4, 110],
      ['Business-Analyst', 'BA', 6, 120],
      ['Business Analyst', 'BA', 5, 130],
      ['BUSINESS ANALYST', 'BA', 7, 140],
      ['Senior Business Analyst', 'BA', 5, 900],
    ]);
    const [high, middle, low] = reviewWithIndex(rates, list(row('Business Analyst', 160), row('Business  analyst', 120), row('Business Analyst', 105))).rows;
    // Five comparables: the method's minimum, so the prices are judged.
    expect(high).toMatchObject({ match: 'exact', phrase: 'business analyst', comparables: 5, p25: 110, median: 120, p75: 130, mean: 120, flag: 'above' });
    expect(high.sd).toBeCloseTo(Math.sqrt(250), 10);
    expect(high.sdFromMean).toBeCloseTo(40 / Math.sqrt(250), 10);
    expect(high.percentile).toBe(100);
    expect(middle).toMatchObject({ sdFromMean: 0, percentile: 50, flag: 'within', fromMedian: 0 });
    expect(low).toMatchObject({ flag: 'below', percentile: 20 });
    expect(high.titles).toEqual(['BUSINESS ANALYST', 'Business Analyst', 'Business-Analyst', 'business analyst']);
  });

  it('interpolates the quartiles between closest ranks', () => {
    const rates = index([
      ['Tester', 'BA', 5, 10],
      ['Tester', 'BA', 5, 20],
      ['Tester', 'BA', 5, 40],
      ['Tester', 'BA', 5, 80],
    ]);
    // Positions 0.75, 1.5, 2.25 of 3.
    expect(reviewWithIndex(rates, list(row('Tester', 30)), TWO).rows[0]).toMatchObject({ p25: 17.5, median: 30, p75: 50, mean: 37.5 });
  });

  it('broadens the phrase by dropping words, longest first, until two comparables', () => {
    const rates = index([
      ['Senior Cloud Security Engineer', 'BA', 5, 200],
      ['Cloud Security Engineer II', 'BA', 5, 190],
      ['Security Engineer', 'BA', 5, 150],
      ['Network Security Engineer', 'BA', 5, 160],
      ['Systems Engineer', 'BA', 5, 140],
    ]);
    const [three, two, one] = reviewWithIndex(
      rates,
      list(row('Cloud Security Engineer', 180), row('Lead Security Engineer', 170), row('Chief Engineer', 170)),
      TWO,
    ).rows;
    // "cloud security engineer" is contained in two titles, though no title is exactly it.
    expect(three).toMatchObject({ match: 'phrase', phrase: 'cloud security engineer', comparables: 2 });
    // "lead security engineer" nowhere; of the two-word phrases, "security engineer" finds four, "lead security" none.
    expect(two).toMatchObject({ match: 'phrase', phrase: 'security engineer', comparables: 4 });
    expect(one).toMatchObject({ phrase: 'engineer', comparables: 5 });
  });

  it('finds a phrase only as a contiguous run of words', () => {
    const rates = index([
      ['Security Operations Engineer', 'BA', 5, 100],
      ['Engineer of Security', 'BA', 5, 100],
      ['Security Engineer Lead', 'BA', 5, 120],
      ['Senior Security Engineer', 'BA', 5, 140],
    ]);
    expect(reviewWithIndex(rates, list(row('Security Engineer', 130)), TWO).rows[0]).toMatchObject({ phrase: 'security engineer', comparables: 2, mean: 130 });
  });

  it('broadens past an exact title with only one comparable', () => {
    const rates = index([
      ['Data Scientist', 'MA', 8, 150],
      ['Senior Data Scientist', 'MA', 8, 180],
      ['Lead Data Scientist', 'MA', 8, 210],
    ]);
    expect(reviewWithIndex(rates, list(row('Data Scientist', 150, 'Masters', 8)), TWO).rows[0]).toMatchObject({
      match: 'phrase',
      phrase: 'data scientist',
      comparables: 3,
    });
  });

  it('compares within the same education code and the experience band, edges included', () => {
    const rates = index([
      ['Analyst', 'BA', 3, 100],
      ['Analyst', 'BA', 7, 110],
      ['Analyst', 'BA', 2, 500],
      ['Analyst', 'BA', 8, 500],
      ['Analyst', 'MA', 5, 500],
      ['Analyst', 'BA', null, 500],
    ]);
    const [five, unstated] = reviewWithIndex(rates, list(row('Analyst', 105), row('Analyst', 105, 'Bachelors', null)), TWO).rows;
    expect(five).toMatchObject({ comparables: 2, mean: 105, years: [3, 7], education: 'BA' });
    // No stated experience: every BA rate, an unstated one too.
    expect(unstated).toMatchObject({ comparables: 5, years: null });
    // 12 years: 9 to 15.
    const wider = index([
      ['Architect', 'PHD', 9, 200],
      ['Architect', 'PHD', 15, 220],
      ['Architect', 'PHD', 16, 900],
      ['Architect', 'PHD', 8, 900],
    ]);
    expect(reviewWithIndex(wider, list(row('Architect', 210, 'PhD', 12)), TWO).rows[0]).toMatchObject({ comparables: 2, mean: 210 });
  });

  it("leaves out the list's own contract", () => {
    const rates = index([
      ['Help Desk', 'HS', 1, 40, '47QTCA20D0001'],
      ['Help Desk', 'HS', 1, 42, '47QTCA20D0001'],
      ['Help Desk', 'HS', 1, 50],
    ]);
    expect(reviewWithIndex(rates, list(row('Help Desk', 40, 'High_School', 1)), TWO).rows[0]).toMatchObject({ match: 'none', comparables: 0, phrase: '' });
  });

  it('says when fewer than two comparables are found anywhere: no figures, too few to judge', () => {
    const rates = index([
      ['Widget Engineer', 'BA', 5, 100],
      ['Gadget Analyst', 'BA', 5, 100],
    ]);
    const [alone] = reviewWithIndex(rates, list(row('Widget Maker', 999)), TWO).rows;
    expect(alone).toMatchObject({
      match: 'none',
      comparables: 0,
      phrase: '',
      p25: null,
      median: null,
      mean: null,
      sdFromMean: null,
      percentile: null,
      flag: 'too few',
    });
  });

  it('has no distance in standard deviations when every comparable has one price', () => {
    const rates = index([
      ['Clerk', 'HS', 1, 30],
      ['Clerk', 'HS', 1, 30],
    ]);
    expect(reviewWithIndex(rates, list(row('Clerk', 35, 'High_School', 1)), { minComparables: 2, onePerOffer: false }).rows[0]).toMatchObject({
      sd: 0,
      sdFromMean: null,
      flag: 'above',
      percentile: 100,
    });
  });
});

describe('comparables that mean something', () => {
  it('never takes a phrase of level or filler words alone, nor one under 4 characters', () => {
    expect(['3', 'ii', 'sr', 'senior', 'lead', 'level', 'tier i', 'of the', 'it', 'qa', 'dba'].map((p) => isPhrase(p.split(' ')))).toEqual(
      Array(11).fill(false),
    );
    expect(['data', 'accountant', 'senior accountant', 'it analyst', 'engineer 3'].map((p) => isPhrase(p.split(' ')))).toEqual(Array(5).fill(true));
    const rates = index([
      ...[40, 41, 42, 43, 44, 45].map((p): Rate => ['Clerk 3', 'BA', 5, p]),
      ...[60, 61, 62, 63, 64, 65].map((p): Rate => ['Senior Tier II Lead', 'BA', 5, p]),
      ...[70, 71, 72, 73, 74, 75].map((p): Rate => ['IT Support', 'BA', 5, p]),
      ...[80, 81, 82, 83, 84, 85].map((p): Rate => ['Accountant', 'BA', 5, p]),
    ]);
    const [accountant, tier, it] = reviewWithIndex(rates, list(row('Accountant 3', 90), row('Cloud Tier II Lead', 90), row('IT Specialist', 90))).rows;
    // "3" alone would find the six clerks; "accountant" finds the accountants.
    expect(accountant).toMatchObject({ match: 'phrase', phrase: 'accountant', comparables: 6 });
    // "tier ii lead" and "ii lead" are level words only; "cloud" finds nothing.
    expect(tier).toMatchObject({ match: 'none', comparables: 0, flag: 'too few' });
    // "it" is two characters.
    expect(it).toMatchObject({ match: 'none', comparables: 0 });
  });

  it('prefers, of phrases of one length, the one in the fewest titles (the most specific), not the most populous', () => {
    const rates = index([
      ...[100, 101, 102, 103, 104].map((p): Rate => ['Network Engineer', 'BA', 5, p]),
      ...[110, 111, 112, 113, 114, 115].map((p): Rate => ['Systems Engineer', 'BA', 5, p]),
      ...[120, 121, 122, 123, 124, 125].map((p): Rate => ['Software Engineer', 'BA', 5, p]),
      ...[200, 201, 202, 203, 204].map((p): Rate => ['Network Architect', 'BA', 5, p]),
    ]);
    // "network" is in two titles (10 rates), "engineer" in three (17): the rarer is taken.
    expect(reviewWithIndex(rates, list(row('Network Support Engineer', 150))).rows[0]).toMatchObject({ match: 'phrase', phrase: 'network', comparables: 10 });
  });

  it('takes a match only when it finds the minimum (5 by default); else keeps the most specific that found two, never flagged', () => {
    const rates = index([
      ...[100, 110, 120].map((p): Rate => ['Data Scientist', 'MA', 8, p]),
      ...[130, 140, 150, 160, 170, 180].map((p): Rate => ['Senior Data Scientist', 'MA', 8, p]),
      ...[300, 310, 320].map((p): Rate => ['Astrophysicist', 'MA', 8, p]),
    ]);
    const [broadened, fewer] = reviewWithIndex(rates, list(row('Data Scientist', 500, 'Masters', 8), row('Astrophysicist', 500, 'Masters', 8))).rows;
    // The exact title finds 3: the phrase "data scientist" (in both titles) finds 9.
    expect(broadened).toMatchObject({ match: 'phrase', phrase: 'data scientist', comparables: 9, flag: 'above' });
    expect(fewer).toMatchObject({ match: 'exact', phrase: 'astrophysicist', comparables: 3, median: 310, flag: 'too few' });
    // With a minimum of 3, the exact title is enough and judged.
    expect(reviewWithIndex(rates, list(row('Astrophysicist', 500, 'Masters', 8)), { minComparables: 3 }).rows[0]).toMatchObject({
      match: 'exact',
      flag: 'above',
    });
    expect(() => comparisonOptions({ minComparables: 1 })).toThrow(/from 2 to 1000, not 1/);
  });

  it('counts one rate per contract, title and price by default: an offer under two SINs is one comparable', () => {
    const rates = index([
      ['Help Desk Analyst', 'HS', 1, 40, 'GS-1'],
      ['Help Desk Analyst', 'HS', 1, 40, 'GS-1'],
      ['help desk analyst', 'HS', 2, 40, 'GS-1'],
      ['Help Desk Analyst', 'HS', 1, 44, 'GS-1'],
      ['Help Desk Analyst', 'HS', 1, 40, 'GS-2'],
      ['Help Desk Analyst', 'HS', 1, 50, 'GS-3'],
      ['Help Desk Analyst', 'HS', 1, 60, 'GS-4'],
    ]);
    const desk = list(row('Help Desk Analyst', 45, 'High_School', 1));
    expect(reviewWithIndex(rates, desk).rows[0]).toMatchObject({ match: 'exact', comparables: 5, median: 44 });
    expect(reviewWithIndex(rates, desk, { onePerOffer: false }).rows[0]).toMatchObject({ comparables: 7, median: 40 });
  });

  it('selects exactly the records the review counted, for the link to a row', () => {
    const rates = index([
      // The two at 104 are one offer of GS-0 (under two SINs, say).
      ...[100, 101, 102, 103, 104, 104].map((p, i): Rate => ['Cloud Engineer', 'BA', 4 + (i % 3), p, `GS-${Math.min(i, 4) % 4}`]),
      ['Cloud Engineer', 'BA', 20, 100, 'GS-9'],
      ['Cloud Engineer', 'BA', 5, 100, '47QTCA20D0001'],
    ]);
    const band = { education: 'BA', years: experienceBand(5), contract: '47QTCA20D0001' };
    const [reviewed] = reviewWithIndex(rates, list(row('Cloud Engineer', 110))).rows;
    const selected = rates.select('exact', 'cloud engineer', band, true);
    expect(selected.length).toBe(reviewed.comparables);
    expect([...selected].map((r) => rates.prices[r]).sort()).toEqual([100, 101, 102, 103, 104]);
    // A hand-edited phrase that is no phrase finds nothing.
    expect(rates.select('phrase', '3', band, true)).toHaveLength(0);
    expect(rates.select('phrase', 'Cloud Engineer', band, true)).toHaveLength(0);
  });
});

describe('the review over a database, as CSV', () => {
  it('reads the rates with one SELECT and writes the header and one line per row, guarded', async () => {
    const db = await emptyDatabase('ceilingrates');
    const base = {
      vendor_name: 'V',
      schedule: 'MAS',
      sin: '54151S',
      category: '',
      subcategory: '',
      worksite: '',
      security_clearance: null,
      business_size: 'S',
    };
    const dates = {
      next_year_price: null,
      second_year_price: null,
      contract_start: '',
      contract_end: '',
      cont_beg_dtg: '',
      cont_end_dtg: '',
      dt_termg: null,
      _timestamp: '',
    };
    const records = [100, 200, 300].map((price, i): CeilingRateRecord => ({
      ...base,
      ...dates,
      id: i + 1,
      idv_piid: `GS-${i}`,
      labor_category: 'Program Manager',
      education_level: 'MA',
      min_years_experience: 10,
      current_price: price,
    }));
    insertCeilingRates(db, records);
    const review = reviewPriceList(db, list(row('Program Manager', 260, 'Masters', 10), row('=HYPERLINK("x")', 10)), { minComparables: 3 });
    expect(review.rates).toBe(3);
    const meta = { source: { label: 'Real: test rates', version: 'v1', date: '2025-01-28 to 2025-11-06' }, reviewedOn: '2025-12-01' };
    const lines = reviewCsv(review, meta).split('\r\n');
    const header = lines.indexOf(REVIEW_CSV_HEADER.join(','));
    expect(lines.slice(0, header)).toEqual([
      'Price list review,EXAMPLE ANALYTICS LLC (47QTCA20D0001)',
      'Vendor,EXAMPLE ANALYTICS LLC',
      'Contract number,47QTCA20D0001',
      'Price list generated,2025-09-22',
      'Hourly labor rows,2',
      'Compared with,Real: test rates',
      'Data version,v1',
      'Data dates,2025-01-28 to 2025-11-06',
      'Rates in the data,3',
      expect.stringMatching(
        /^Method,"Comparables of each hourly labor row: .* at least 3 .* one rate per contract, title and price\. .*FAR 15\.404-1\(b\)\(2\).*"$/,
      ),
      'Minimum comparables,3',
      '"One rate per contract, title and price",yes',
      'Compared rates,listed in the second file (by comparison number)',
      'Reviewed on,2025-12-01',
    ]);
    expect(lines[header]).toBe(
      'row,labor_category,sin,current_price,education_level,min_years_experience,experience_band,match,comparables,comparison,p25,median,p75,mean,sd,sd_from_mean,percentile,vs_median_percent,flag',
    );
    expect(lines[header + 1]).toBe('1,Program Manager,54151S,260,MA,10,7.5-12.5,exact title,3,1,150,200,250,200,100,0.6,66.7,30,above p75');
    expect(lines[header + 2]).toBe(`2,"'=HYPERLINK(""x"")",54151S,10,BA,5,3-7,none,0,,,,,,,,,,too few comparables`);
    expect(lines).toHaveLength(header + 4);
  });
});
