import { describe, expect, it } from 'vitest';
import { formatQuery, formatRoute, parseHash } from '../../../ui/state/route.ts';
import { emptyRatesQuery, lastPage, parseRatesQuery, ratesApiUrl, ratesParams, toggleOrdering } from '../../../ui/state/rates-query.ts';
import { analysisApiUrl, parseWebsitesQuery, websiteApiUrl, websitesApiUrl } from '../../../ui/state/websites-query.ts';

describe('hash routes', () => {
  it('parses every view, with the empty hash on the rates view', () => {
    expect(parseHash('')).toEqual({ view: 'rates', query: new URLSearchParams() });
    expect(parseHash('#/rates?keyword=engineer')).toMatchObject({ view: 'rates' });
    expect(parseHash('#/websites?limit=50')).toMatchObject({ view: 'websites' });
    expect(parseHash('#/websites/www.gsa.gov')).toEqual({ view: 'website', url: 'www.gsa.gov' });
    expect(parseHash('#/datasets')).toEqual({ view: 'datasets', query: new URLSearchParams() });
    expect(parseHash('#/console?request=%2Fwebsites')).toMatchObject({ view: 'console' });
    expect(parseHash('#/nowhere')).toEqual({ view: 'not-found', hash: '/nowhere' });
  });

  it('round-trips a website URL that holds slashes and a query', () => {
    const url = 'https://x.gov/a?b=1';
    const hash = formatRoute({ view: 'website', url });
    expect(hash).toBe('#/websites/https%3A%2F%2Fx.gov%2Fa%3Fb%3D1');
    expect(parseHash(hash)).toEqual({ view: 'website', url });
  });

  it('writes queries as the APIs document them: readable : and , and | as %7C', () => {
    const p = new URLSearchParams();
    p.append('filter', 'price_range:15,500');
    p.append('filter', 'education_level:BA|MA');
    p.append('keyword', 'program manager');
    expect(formatQuery(p)).toBe('filter=price_range:15,500&filter=education_level:BA%7CMA&keyword=program%20manager');
  });
});

describe('rates query', () => {
  it('round-trips every parameter through the hash', () => {
    const q = {
      ...emptyRatesQuery(),
      keyword: 'engineer',
      search: { field: 'vendor_name' as const, text: 'ACME, Inc.' },
      education: ['BA', 'MA'],
      experience: [3, null] as [number | null, number | null],
      price: [15, 500] as [number | null, number | null],
      businessSize: 'S',
      site: 'customer',
      clearance: 'no',
      sin: '54151S',
      category: 'IT Services',
      ordering: [
        { field: 'vendor_name' as const, dir: 'desc' as const },
        { field: 'current_price' as const, dir: 'asc' as const },
      ],
      page: 3,
      pageSize: 100,
      exclude: ['12', '34'],
    };
    const parsed = parseRatesQuery(ratesParams(q));
    expect(parsed).toEqual({ ...q, experience: [3, 99] });
  });

  it('builds the API URL with the view page size always sent and paging and exclusions last', () => {
    const q = { ...emptyRatesQuery(), keyword: 'analyst', education: ['MA'], exclude: ['7'] };
    expect(ratesApiUrl(q)).toBe('/api/v3/search/ceilingrates/?keyword=analyst&filter=education_level:MA&page_size=50&exclude=7');
    expect(ratesApiUrl(q, { export: 'y' })).toBe('/api/v3/search/ceilingrates/?keyword=analyst&filter=education_level:MA&page_size=50&exclude=7&export=y');
  });

  it('sorts by a column alone, reverses it on a second click, and adds further keys with Shift', () => {
    expect(toggleOrdering([], 'vendor_name', false)).toEqual([{ field: 'vendor_name', dir: 'asc' }]);
    expect(toggleOrdering([{ field: 'vendor_name', dir: 'asc' }], 'vendor_name', false)).toEqual([{ field: 'vendor_name', dir: 'desc' }]);
    // The default order is price ascending, so the first click on price reverses it.
    expect(toggleOrdering([], 'current_price', false)).toEqual([{ field: 'current_price', dir: 'desc' }]);
    const two = toggleOrdering([{ field: 'vendor_name', dir: 'asc' }], 'current_price', true);
    expect(two).toEqual([
      { field: 'vendor_name', dir: 'asc' },
      { field: 'current_price', dir: 'asc' },
    ]);
    expect(toggleOrdering(two, 'current_price', true)[1]).toEqual({ field: 'current_price', dir: 'desc' });
    expect(toggleOrdering(two, 'idv_piid', false)).toEqual([{ field: 'idv_piid', dir: 'asc' }]);
  });

  it('stops paging at the 10,000-result window', () => {
    expect(lastPage(0, 50)).toBe(1);
    expect(lastPage(120, 50)).toBe(3);
    expect(lastPage(250_000, 300)).toBe(33);
  });
});

describe('websites query', () => {
  it('keeps only the API filters and sends page and limit after them', () => {
    const q = parseWebsitesQuery(new URLSearchParams('scan_status=completed&bogus=1&page=2&target_url_agency_owner=General Services Administration'));
    expect(websitesApiUrl(q)).toBe('/websites?target_url_agency_owner=General%20Services%20Administration&scan_status=completed&page=2&limit=25');
    expect(analysisApiUrl(q)).toBe('/analysis?target_url_agency_owner=General%20Services%20Administration&scan_status=completed');
    expect(analysisApiUrl(parseWebsitesQuery(new URLSearchParams()))).toBe('/analysis');
    expect(websiteApiUrl('18f.gov')).toBe('/websites/18f.gov');
  });
});
