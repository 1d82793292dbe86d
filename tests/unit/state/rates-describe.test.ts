import { describe, expect, it } from 'vitest';
import { describeRatesQuery, methodNotes } from '../../../ui/state/rates-describe.ts';
import { parseRatesQuery } from '../../../ui/state/rates-query.ts';

const q = (hash: string) => parseRatesQuery(new URLSearchParams(hash));

describe('a rates query in words', () => {
  it('says every part of the query', () => {
    expect(describeRatesQuery(q(''))).toBe('Every rate');
    expect(
      describeRatesQuery(
        q('keyword=engineer&filter=education_level:BA|MA&filter=price_range:50,200&filter=experience_range:3,99&filter=business_size:S&exclude=4|9'),
      ),
    ).toBe(
      'Rates where labor category, vendor or contract contains “engineer”; education bachelor or master; minimum experience between 3 years and 99 years; current price between $50 and $200; small businesses; 2 records excluded by hand (ids 4, 9)',
    );
    expect(describeRatesQuery(q('search=labor_category:Engineer II&filter=security_clearance:yes'))).toBe(
      'Rates where labor category is “Engineer II”; clearance required',
    );
    expect(describeRatesQuery(q('keyword=x1&search_mode=titles&title=Engineer I&title=Engineer II&title=Architect'))).toBe(
      'Rates where labor category is exactly one of “Engineer I”, “Engineer II” or “Architect”',
    );
  });

  it('notes the request, the dataset and where its records came from, the year and the proposed price', () => {
    const notes = methodNotes(
      q('keyword=analyst&year=next_year_price&proposed_price=99.5'),
      '/api/v3/search/ceilingrates/?keyword=analyst',
      { version: 'abc', date: '2026-01-02', importName: null, sourceLabel: 'Synthetic: 250,000 generated ceiling rates' },
      new Date('2026-03-04T05:06:07Z'),
    );
    expect(notes[3]).toEqual(['Data source', 'Synthetic: 250,000 generated ceiling rates']);
    expect(Object.fromEntries(notes)).toEqual({
      'Query in words': 'Rates where labor category, vendor or contract contains “analyst”',
      'API request': 'GET /api/v3/search/ceilingrates/?keyword=analyst',
      Dataset: 'Ceiling rates, version abc',
      'Data source': 'Synthetic: 250,000 generated ceiling rates',
      'Dataset date': '2026-01-02',
      Exported: '2026-03-04T05:06:07.000Z',
      'Figures computed on': 'next year price',
      'Proposed price': '$99.50',
    });
  });

  it('quotes the figures when the view has them: count, mean, deviation, median, percentiles and the proposed price’s rank', () => {
    const figures = {
      count: 40,
      avg: 101.25,
      std: 12.5,
      median: 100,
      percentiles: { '10.0': 80, '25.0': 90, '50.0': 100, '75.0': 110, '90.0': 120.5 },
      check: { below: 29, equal: 2, percentileRank: 75, differencePercent: 10 },
    };
    const notes = Object.fromEntries(
      methodNotes(
        q('keyword=analyst&proposed_price=110'),
        '/api/v3/search/ceilingrates/?keyword=analyst',
        { version: 'abc', date: null, importName: null, sourceLabel: null },
        new Date(0),
        figures,
      ),
    );
    expect(notes).toMatchObject({
      'Rates with a price': '40 (figures over the current year price)',
      Mean: '$101.25',
      'Standard deviation': '12.50',
      Median: '$100.00',
      Percentiles: 'p10 $80.00; p25 $90.00; p50 $100.00; p75 $110.00; p90 $120.50',
      'Proposed price rank': '75.0th percentile: 29 rates below it, 2 equal, +10.0% from the median',
    });
  });
});
