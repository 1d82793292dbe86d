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
});
