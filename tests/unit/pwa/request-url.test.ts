import { describe, expect, it } from 'vitest';
import { endpointById } from '../../../ui/components/api-console/endpoints.ts';
import { curlCommand, fetchSnippet, parseRequest, productionUrl, requestPath } from '../../../ui/components/api-console/request-url.ts';

const websites = endpointById('websites')!;
const website = endpointById('website')!;
const rates = endpointById('ceilingrates')!;

describe('api console request URLs', () => {
  it('leaves out empty values and keeps repeated ones in order', () => {
    expect(requestPath(websites, { limit: ['3'], scan_status: [''], final_url_live: ['true'] })).toBe('/websites?final_url_live=true&limit=3');
    expect(requestPath(rates, { filter: ['education_level:BA|MA', 'price_range:50,150'], ordering: ['vendor_name', 'current_price'], sort: ['desc'] })).toBe(
      '/api/v3/search/ceilingrates/?filter=education_level:BA|MA&filter=price_range:50,150&ordering=vendor_name&ordering=current_price&sort=desc',
    );
  });

  it('encodes spaces and puts the path parameter in the path', () => {
    expect(requestPath(websites, { target_url_agency_owner: ['General Services Administration'] })).toBe(
      '/websites?target_url_agency_owner=General%20Services%20Administration',
    );
    expect(requestPath(website, { url: ['https://gsa.gov/'] })).toBe('/websites/https%3A%2F%2Fgsa.gov%2F');
  });

  it('points the same request at production', () => {
    expect(productionUrl(websites, '/websites?limit=3')).toBe('https://api.gsa.gov/technology/site-scanning/v1/websites?limit=3&api_key=DEMO_KEY');
    expect(productionUrl(rates, '/api/v3/search/ceilingrates/?keyword=engineer')).toBe(
      'https://api.gsa.gov/acquisition/calc/v3/api/ceilingrates/?keyword=engineer&api_key=DEMO_KEY',
    );
    expect(productionUrl(rates, '/api/v3/search/ceilingrates/')).toBe('https://api.gsa.gov/acquisition/calc/v3/api/ceilingrates/?api_key=DEMO_KEY');
  });

  it('writes paste-ready snippets', () => {
    expect(fetchSnippet('https://x.gov/a?b=1', 'GET')).toBe("const response = await fetch('https://x.gov/a?b=1');\nconst body = await response.json();");
    expect(curlCommand("https://x.gov/a?q=it's", 'HEAD')).toBe("curl -sS --head 'https://x.gov/a?q=it'\\''s'");
    expect(curlCommand('https://x.gov/a', 'OPTIONS')).toBe("curl -sS -X OPTIONS 'https://x.gov/a'");
  });

  it('reads a shared request back into the form', () => {
    const parsed = parseRequest('/api/v3/search/ceilingrates/?keyword=engineer&filter=a:1&filter=b:2&page_size=2&unknown=1');
    expect(parsed?.endpoint.id).toBe('ceilingrates');
    expect(parsed?.values).toEqual({ keyword: ['engineer'], filter: ['a:1', 'b:2'], page_size: ['2'] });
    expect(parseRequest('/websites/gsa.gov')).toEqual({ endpoint: website, values: { url: ['gsa.gov'] } });
    expect(parseRequest('/analysis?limit=5')?.endpoint.id).toBe('analysis');
    expect(parseRequest('/nothing')).toBeNull();
  });
});
