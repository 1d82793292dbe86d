/** A sample of every endpoint, its errors and its other bases, for the doors that must answer as the engine does. */
export const SAMPLE_REQUESTS: readonly { method: string; url: string }[] = [
  { method: 'GET', url: '/websites?limit=2' },
  { method: 'GET', url: '/websites/?limit=3&page=2&final_url_live=true' },
  { method: 'GET', url: '/Analysis/' },
  { method: 'GET', url: '/technology/site-scanning/v1/websites?limit=1&scan_status=completed' },
  { method: 'GET', url: '/websites/search.usa.gov' },
  { method: 'GET', url: '/websites/https%3A%2F%2Fsearch.usa.gov%2F' },
  { method: 'GET', url: '/websites/nowhere.example' },
  { method: 'GET', url: '/analysis' },
  { method: 'GET', url: '/technology/site-scanning/v1/analysis?target_url_agency_owner=General+Services+Administration' },
  { method: 'GET', url: '/websites?limit=1000' },
  { method: 'GET', url: '/technology/site-scanning/v1/nothing' },
  { method: 'HEAD', url: '/websites?limit=1' },
  { method: 'POST', url: '/websites' },
  { method: 'GET', url: '/api/v3/search/ceilingrates/?page_size=3' },
  { method: 'GET', url: '/api/v3/search/ceilingrates/?keyword=engineer&filter=education_level:BA|MA&ordering=current_price&sort=desc' },
  { method: 'GET', url: '/acquisition/calc/v3/api/ceilingrates/?search=labor_category:Senior+Software+Engineer+II' },
  { method: 'GET', url: '/api/v3/search/ceilingrates/?suggest-contains=labor_category:eng' },
  { method: 'GET', url: '/api/v3/search/ceilingrates/?suggest=vendor_name:a' },
  { method: 'GET', url: '/api/v3/search/ceilingrates/?export=y' },
  { method: 'GET', url: '/api/v3/search/ceilingrates/?page=1000&page_size=500' },
  { method: 'GET', url: '/api/v3/search/ceilingrates/nothing' },
  { method: 'OPTIONS', url: '/api/v3/search/ceilingrates/' },
  { method: 'DELETE', url: '/api/v3/search/ceilingrates/' },
];

/**
 * `took` is the time the search took, and an imported ceiling rate without a `_timestamp` is stamped with the
 * time of its import: the fields two identical requests, or two imports of one file, may answer differently.
 */
export function comparable(body: string): string {
  return body.replace(/"took":\d+/, '"took":0').replace(/"_timestamp":"[^"]*"/g, '"_timestamp":""');
}
