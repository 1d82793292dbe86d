/**
 * The fixed request mix: what the CALC front end and prototypes send. Every search request computes all
 * aggregations. Values that must exist in the data (a vendor, a contract number) are taken from fixed ids.
 */
export type Kind = 'default' | 'keyword' | 'search' | 'filters' | 'ordering' | 'suggest-contains' | 'suggest' | 'deep-page';

export interface BenchRequest {
  kind: Kind;
  url: string;
}

export interface KnownValues {
  vendor: string;
  piid: string;
}

const BASE = '/api/v3/search/ceilingrates/';
/** The application's default request (issue 3). */
const APP_DEFAULT = 'page=1&page_size=20&ordering=current_price&sort=asc&filter=experience_range:0,45&filter=price_range:15,500';
const enc = (s: string): string => encodeURIComponent(s).replace(/%20/g, '+');

export function workload(known: KnownValues): BenchRequest[] {
  const mix: [Kind, string][] = [
    ['default', APP_DEFAULT],
    ['default', APP_DEFAULT.replace('page=1', 'page=2')],
    ['default', 'page=1&page_size=100'],
    ['keyword', `${APP_DEFAULT}&keyword=engineer`],
    ['keyword', 'keyword=program+manager&page_size=100'],
    ['keyword', 'keyword=analyst&filter=education_level:BA|MA&page_size=20'],
    ['search', `search=labor_category:Project+Manager&${APP_DEFAULT}`],
    ['search', `search=vendor_name:${enc(known.vendor)}&page_size=100`],
    ['search', `search=idv_piid:${enc(known.piid)}`],
    ['filters', 'filter=education_level:BA|MA&filter=business_size:S&filter=site:customer&filter=price_range:50,200&page_size=20'],
    ['filters', 'filter=sin:874-1&filter=security_clearance:yes&filter=experience_range:5,15&page_size=20'],
    ['filters', 'filter=category:Information%20Technology&keyword=developer&filter=business_size:O'],
    ['filters', 'filter=subcategory:IT%20Services&exclude=1%7C2%7C3&filter=min_years_experience:5'],
    ['ordering', 'ordering=vendor_name&sort=asc&ordering=current_price&sort=desc&page_size=20'],
    ['ordering', 'ordering=education_level&sort=desc&ordering=min_years_experience&sort=asc&ordering=current_price&page_size=20'],
    ['ordering', 'ordering=labor_category&ordering=next_year_price&sort=asc&sort=desc&keyword=engineer'],
    ['suggest-contains', 'suggest-contains=labor_category:engineer'],
    ['suggest-contains', 'suggest-contains=vendor_name:tech&filter=business_size:S'],
    ['suggest-contains', 'suggest-contains=idv_piid:gs-35'],
    ['suggest', 'suggest=vendor_name:glo'],
    ['suggest', 'suggest=labor_category:senior&suggest=vendor_name:a'],
    ['deep-page', 'page=50&page_size=200&ordering=current_price&sort=asc'],
    ['deep-page', 'page=20&page_size=500&ordering=vendor_name&sort=desc'],
    ['deep-page', 'page=100&page_size=100&keyword=manager'],
  ];
  return mix.map(([kind, query]) => ({ kind, url: `${BASE}?${query}` }));
}
