/**
 * The conformance cases: one request per behaviour both backends must share, across both APIs and both
 * bases (listing, lookup, analysis, filters, paging past the end, validation errors, search, keyword,
 * filters, ordering, exclusion, suggestions, aggregations, the export, methods, CORS, HEAD, 404s).
 */
import type { ApiRequest } from '../../../engine/http/types.ts';

const SITE = ['', '/technology/site-scanning/v1'];
const RATES = ['/api/v3/search/ceilingrates/', '/acquisition/calc/v3/api/ceilingrates'];

const siteQueries = [
  '/websites',
  '/websites?limit=3&page=2',
  '/websites?limit=100&page=20',
  '/websites?limit=7&page=1000000',
  '/websites?scan_status=completed&final_url_live=true&limit=5',
  '/websites?final_url_live=0&target_url_redirects=1',
  '/websites?target_url_domain=gsa.gov',
  '/websites?final_url_domain=nasa.gov&limit=2',
  '/websites?target_url_agency_owner=General%20Services%20Administration',
  '/websites?target_url_agency_owner=',
  '/websites?dap_detected_final_url=false&scan_status=timeout',
  '/websites?scan_status=nope&limit=0&page=-1',
  '/websites?limit=101&page=1e21',
  '/websites?target_url_domain=gsa',
  '/websites?target_url_domain=gsa.gov%00',
  '/websites/18f.gov',
  '/websites/https%3A%2F%2F18f.gov%2F',
  '/websites/https://18F.gov//',
  '/websites/no-such-site.example',
  '/websites/%00',
  '/analysis',
  '/analysis?final_url_live=true',
  '/analysis?scan_status=completed&target_url_agency_owner=Department%20of%20Defense',
  '/analysis?page=0',
  '/websites/',
  '/nope',
];

const rateQueries = [
  '',
  '?page_size=5&ordering=vendor_name&sort=desc',
  '?ordering=current_price&sort=asc&page=3&page_size=7',
  '?ordering=next_year_price&ordering=labor_category',
  '?ordering=education_level&sort=desc&page_size=20',
  '?search=labor_category:Engineer',
  '?search=vendor_name:Acme&page_size=3',
  '?keyword=analyst&ordering=min_years_experience',
  '?keyword=ma',
  '?filter=price_range:50,150&filter=education_level:BA|MA&page=2',
  '?filter=experience_range:0,5&filter=business_size:S',
  '?filter=site:customer&filter=security_clearance:yes',
  '?filter=min_years_experience:3&exclude=1|2|3',
  '?filter=current_price:100',
  '?suggest-contains=labor_category:eng',
  '?suggest-contains=vendor_name:a',
  '?suggest=vendor_name:a',
  '?suggest=labor_category:Pro',
  '?export=y&filter=price_range:100,101',
  '?export=y&keyword=engineer&ordering=vendor_name',
  '?page=21&page_size=500',
  '?page_size=abc',
  '?ordering=keywords',
  '?filter=price_range:abc',
  '?search=nope:x',
];

export const CONFORMANCE_CASES: readonly ApiRequest[] = [
  ...SITE.flatMap((base) => siteQueries.map((q) => ({ method: 'GET', url: `${base}${q}` }))),
  ...RATES.flatMap((base) => rateQueries.map((q) => ({ method: 'GET', url: `${base}${q}` }))),
  { method: 'HEAD', url: '/websites?limit=2' },
  { method: 'HEAD', url: '/websites?limit=abc' },
  { method: 'HEAD', url: '/api/v3/search/ceilingrates/?page_size=3' },
  { method: 'HEAD', url: '/api/v3/search/ceilingrates/?export=y&filter=price_range:100,101' },
  { method: 'OPTIONS', url: '/websites' },
  { method: 'OPTIONS', url: '/api/v3/search/ceilingrates/' },
  {
    method: 'OPTIONS',
    url: '/websites',
    headers: { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'X-Api-Key' },
  },
  { method: 'OPTIONS', url: '/api/v3/search/ceilingrates/', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' } },
  { method: 'POST', url: '/websites' },
  { method: 'DELETE', url: '/api/v3/search/ceilingrates/' },
  { method: 'GET', url: '/technology/site-scanning/v1/nothing/here' },
  { method: 'GET', url: '/api/v3/search/ceilingrates/extra' },
  { method: 'GET', url: 'http://[bad' },
];
