/**
 * The price-list review's rule (docs/api/price-list-review.md): comparables by normalised title, else a broadened
 * phrase; the education and experience band; the figures over known prices.
 */
import { describe, expect, it } from 'vitest';
import { comparisonIndexOf, experienceBand, normaliseTitle } from '../../../dataset/price-lists/comparables.ts';
import { reviewPriceList, reviewWithIndex } from '../../../dataset/price-lists/review.ts';
import { REVIEW_CSV_HEADER, reviewCsv } from '../../../dataset/price-lists/review-csv.ts';
import type { PriceList, PriceListRow } from '../../../dataset/price-lists/sheet.ts';
import { insertCeilingRates } from '../../../engine/ceilingrates/schema.ts';
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import { emptyDatabase } from '../helpers/engine.ts';

type Rate = [title: string, education: string, years: number | null, price: number, contract?: string];

const index = (rates: Rate[]) => comparisonIndexOf(rates.map(([t, e, y, p, c]) => [t, e, y, p, c ?? 'GS-00F-OTHER']));

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
    expect(high).toMatchObject({ match: 'exact', phrase: 'business analyst', comparables: 5, p25: 110, median: 120, p75: 130, mean: 120, flag: 'above' });
    expect(high.sd).toBeCloseTo(Math.sqrt(250), 10);
    expect(high.sdFromMean).toBeCloseTo(40 / Math.sqrt(250), 10);
    expect(high.percentile).toBe(100);
    expect(middle).toMatchObject({ sdFromMean: 0, percentile: 50, flag: '' });
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
    expect(reviewWithIndex(rates, list(row('Tester', 30))).rows[0]).toMatchObject({ p25: 17.5, median: 30, p75: 50, mean: 37.5 });
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
    expect(reviewWithIndex(rates, list(row('Security Engineer', 130))).rows[0]).toMatchObject({ phrase: 'security engineer', comparables: 2, mean: 130 });
  });

  it('broadens past an exact title with only one comparable', () => {
    const rates = index([
      ['Data Scientist', 'MA', 8, 150],
      ['Senior Data Scientist', 'MA', 8, 180],
      ['Lead Data Scientist', 'MA', 8, 210],
    ]);
    expect(reviewWithIndex(rates, list(row('Data Scientist', 150, 'Masters', 8))).rows[0]).toMatchObject({
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
    const [five, unstated] = reviewWithIndex(rates, list(row('Analyst', 105), row('Analyst', 105, 'Bachelors', null))).rows;
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
    expect(reviewWithIndex(wider, list(row('Architect', 210, 'PhD', 12))).rows[0]).toMatchObject({ comparables: 2, mean: 210 });
  });

  it("leaves out the list's own contract", () => {
    const rates = index([
      ['Help Desk', 'HS', 1, 40, '47QTCA20D0001'],
      ['Help Desk', 'HS', 1, 42, '47QTCA20D0001'],
      ['Help Desk', 'HS', 1, 50],
    ]);
    expect(reviewWithIndex(rates, list(row('Help Desk', 40, 'High_School', 1))).rows[0]).toMatchObject({ match: 'none', comparables: 0, phrase: '' });
  });

  it('says when fewer than two comparables are found anywhere: no figures, no flag', () => {
    const rates = index([
      ['Widget Engineer', 'BA', 5, 100],
      ['Gadget Analyst', 'BA', 5, 100],
    ]);
    const [alone] = reviewWithIndex(rates, list(row('Widget Maker', 999))).rows;
    expect(alone).toMatchObject({
      match: 'none',
      comparables: 0,
      phrase: '',
      p25: null,
      median: null,
      mean: null,
      sdFromMean: null,
      percentile: null,
      flag: '',
    });
  });

  it('has no distance in standard deviations when every comparable has one price', () => {
    const rates = index([
      ['Clerk', 'HS', 1, 30],
      ['Clerk', 'HS', 1, 30],
    ]);
    expect(reviewWithIndex(rates, list(row('Clerk', 35, 'High_School', 1))).rows[0]).toMatchObject({ sd: 0, sdFromMean: null, flag: 'above', percentile: 100 });
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
    const review = reviewPriceList(db, list(row('Program Manager', 260, 'Masters', 10), row('=HYPERLINK("x")', 10)));
    expect(review.rates).toBe(3);
    const lines = reviewCsv(review).split('\r\n');
    expect(lines[0]).toBe(REVIEW_CSV_HEADER.join(','));
    expect(lines[0]).toBe(
      'labor_category,current_price,education_level,min_years_experience,phrase,comparables,p25,median,p75,mean,sd_from_mean,percentile,flag',
    );
    expect(lines[1]).toBe('Program Manager,260,MA,10,program manager,3,150,200,250,200,0.6,66.7,above');
    expect(lines[2]).toBe(`"'=HYPERLINK(""x"")",10,BA,5,,0,,,,,,,`);
    expect(lines).toHaveLength(4);
  });
});
