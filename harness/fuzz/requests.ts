/**
 * What the fuzzer sends: every endpoint under every base, the parameter names each one knows (from
 * the API reference, not from the engine), and fast-check arbitraries for query strings, paths and methods.
 */
import fc from 'fast-check';
import { encode, valueArb, valueInUrlArb, VALUES, RAW } from './payloads.ts';
import { REFERENCE_FILTERS } from '../site-scanning-reference.ts';
import { ORDER_FIELDS, RECORD_ORDER_FIELDS } from '../../engine/ceilingrates/parameters.ts';

export const SITE_BASES = ['', '/technology/site-scanning/v1'] as const;
export const CEILING_BASES = [
  '/api/v3/search/ceilingrates/',
  '/api/v3/search/ceilingrates',
  '/acquisition/calc/v3/api/ceilingrates/',
  '/acquisition/calc/v3/api/ceilingrates',
] as const;

export const SITE_PARAMS = [...REFERENCE_FILTERS, 'page', 'limit', 'api_key'] as const;

export const CEILING_PARAMS = [
  'search',
  'keyword',
  'filter',
  'exclude',
  'ordering',
  'sort',
  'page',
  'page_size',
  'suggest-contains',
  'suggest',
  'export',
  'api_key',
] as const;

export const SEARCH_FIELDS = ['labor_category', 'vendor_name', 'idv_piid'] as const;
export const FILTER_NAMES = [
  'education_level',
  'price_range',
  'experience_range',
  'min_years_experience',
  'current_price',
  'business_size',
  'sin',
  'category',
  'subcategory',
  'worksite',
  'site',
  'security_clearance',
  // Accepted and ignored, as production ignores them.
  'vendor_name',
  'labor_category',
] as const;
/** The ordering fields, as the parameter table declares them (the tests that order by each read these). */
export { ORDER_FIELDS, RECORD_ORDER_FIELDS };

/** Values that pass validation, so random requests also reach matching, paging and aggregation. */
const SITE_GOOD: Record<string, readonly string[]> = {
  target_url_domain: ['gsa.gov', 'nasa.gov', 'usa.gov'],
  final_url_domain: ['gsa.gov', 'nasa.gov'],
  final_url_live: ['true', 'false', '1', '0'],
  target_url_redirects: ['true', 'false', '1', '0'],
  dap_detected_final_url: ['true', 'false', '1', '0'],
  target_url_agency_owner: ['General Services Administration', 'Department of Defense', ''],
  target_url_bureau_owner: ['Office of the Secretary', ''],
  scan_status: ['completed', 'timeout', 'dns_resolution_error'],
  page: ['1', '2', '3', '199', '200', '201', '1.5'],
  limit: ['1', '10', '100', '99.9', '0.5'],
  api_key: ['DEMO_KEY'],
};

const CEILING_GOOD: Record<string, readonly string[]> = {
  search: ['labor_category:Engineer', 'vendor_name:Acme', 'idv_piid:GS-00F-0001X', 'labor_category:Project+Manager'],
  keyword: ['engineer', 'analyst', 'ma'],
  filter: [
    'education_level:BA|MA',
    'price_range:10,100',
    'experience_range:0,5',
    'business_size:S',
    'sin:54151S',
    'site:customer',
    'worksite:Both',
    'security_clearance:yes',
    'security_clearance:no',
    'category:Professional Services',
    'min_years_experience:3',
    'current_price:100',
    'vendor_name:Acme',
    'labor_category:Engineer',
  ],
  exclude: ['1|2|3', '5'],
  ordering: [...ORDER_FIELDS],
  sort: ['asc', 'desc'],
  page: ['1', '2', '20', '21'],
  page_size: ['1', '10', '100', '500'],
  'suggest-contains': ['labor_category:eng', 'vendor_name:ac', 'labor_category:e', 'vendor_name:'],
  suggest: ['vendor_name:a', 'labor_category:Pro'],
  export: ['y', 'Y', 'n'],
  api_key: ['DEMO_KEY'],
};

/** Structured values of the ceiling-rates parameters: `<field>:<text>` and `<filter>:<a>|<b>` with hostile parts. */
function ceilingStructuredArb(name: string): fc.Arbitrary<string> | null {
  const hostile = valueArb();
  if (name === 'search' || name === 'suggest' || name === 'suggest-contains') {
    const field = fc.oneof(fc.constantFrom(...SEARCH_FIELDS), hostile);
    return fc.tuple(field, hostile).map(([f, t]) => `${f}:${t}`);
  }
  if (name === 'filter') {
    const filterName = fc.oneof({ arbitrary: fc.constantFrom(...FILTER_NAMES), weight: 4 }, { arbitrary: hostile, weight: 1 });
    const part = fc.oneof(
      hostile,
      fc.tuple(hostile, hostile).map(([a, b]) => `${a},${b}`),
      fc.tuple(fc.double(), fc.double()).map(([a, b]) => `${a},${b}`),
    );
    return fc.tuple(filterName, fc.array(part, { minLength: 1, maxLength: 3 })).map(([n, parts]) => `${n}:${parts.join('|')}`);
  }
  if (name === 'exclude') return fc.array(fc.oneof(hostile, fc.nat().map(String)), { maxLength: 5 }).map((ids) => ids.join('|'));
  return null;
}

export type Api = 'site' | 'ceiling';

/** One `name=value` pair as written in the URL, sometimes bare (`name`), sometimes with an empty value. */
function pairArb(api: Api): fc.Arbitrary<string> {
  const params = api === 'site' ? SITE_PARAMS : CEILING_PARAMS;
  const good = api === 'site' ? SITE_GOOD : CEILING_GOOD;
  const knownName = fc.constantFrom(...params);
  const name = fc.oneof(
    { arbitrary: knownName.map((n) => ({ name: n, raw: n })), weight: 6 },
    { arbitrary: valueArb().map((n) => ({ name: n, raw: encode(n) })), weight: 2 },
    { arbitrary: fc.constantFrom(...RAW).map((n) => ({ name: n, raw: n })), weight: 1 },
    // A known name written strangely: upper case, encoded letters, a trailing space.
    {
      arbitrary: knownName
        .chain((n) => fc.constantFrom(n.toUpperCase(), encode(n).replace(/_/g, '%5F'), `${n}%20`, `${n}[]`))
        .map((n) => ({ name: n, raw: n })),
      weight: 1,
    },
  );
  return name.chain(({ name: n, raw }) => {
    const goodValues = Object.hasOwn(good, n) ? good[n] : [];
    const structured = api === 'ceiling' ? ceilingStructuredArb(n) : null;
    const value = fc.oneof(
      { arbitrary: valueInUrlArb(goodValues), weight: 4 },
      ...(goodValues.length ? [{ arbitrary: fc.constantFrom(...goodValues).map(encode), weight: 3 }] : []),
      ...(structured ? [{ arbitrary: structured.map(encode), weight: 4 }] : []),
    );
    return fc.oneof(
      { arbitrary: value.map((v) => `${raw}=${v}`), weight: 10 },
      { arbitrary: fc.constant(raw), weight: 1 },
      { arbitrary: fc.constant(`${raw}=`), weight: 1 },
    );
  });
}

/** A whole query string (without `?`): pairs, repeats, and stray `&`. */
export function queryArb(api: Api): fc.Arbitrary<string> {
  const piece = fc.oneof({ arbitrary: pairArb(api), weight: 12 }, { arbitrary: fc.constantFrom('', '&', '='), weight: 1 });
  const pieces = fc.array(piece, { minLength: 0, maxLength: 8 });
  // Repeat a drawn pair: repeated parameters are a case of their own.
  return fc.tuple(pieces, fc.nat({ max: 3 })).map(([ps, repeat]) => {
    const all = ps.length > 0 && repeat > 0 ? [...ps, ...Array<string>(repeat).fill(ps[0])] : ps;
    return all.join('&');
  });
}

/** A listing-style endpoint path under a random base. */
export function siteListPathArb(): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...SITE_BASES), fc.constantFrom('/websites', '/analysis')).map(([b, r]) => `${b}${r}`);
}

export function ceilingPathArb(): fc.Arbitrary<string> {
  return fc.constantFrom(...CEILING_BASES);
}

/** `/websites/{url}` with a hostile url: one or more segments, encoded or not, with schemes and slashes. */
export function websiteByUrlPathArb(): fc.Arbitrary<string> {
  const segment = fc.oneof(
    { arbitrary: valueArb(['gsa.gov', 'www.gsa.gov', '18f.gov']).map(encode), weight: 4 },
    { arbitrary: fc.constantFrom(...RAW.filter((r) => !r.includes('?') && !r.includes('#'))), weight: 1 },
    { arbitrary: fc.constantFrom('https:', 'http:', 'HTTPS:', '', '.', '..', '%2e%2e', 'https%3A%2F%2Fgsa.gov%2F'), weight: 1 },
  );
  return fc
    .tuple(fc.constantFrom(...SITE_BASES), fc.array(segment, { minLength: 1, maxLength: 4 }))
    .map(([base, segments]) => `${base}/websites/${segments.join('/')}`);
}

/** Any path at all: under the bases, beside them, or an absolute URL of another origin or scheme. */
export function anyPathArb(): fc.Arbitrary<string> {
  const known = [...SITE_BASES.flatMap((b) => [`${b}/websites`, `${b}/analysis`, `${b}/websites/gsa.gov`]), ...CEILING_BASES];
  const prefix = fc.constantFrom(
    ...known,
    ...SITE_BASES.filter((b) => b !== ''),
    '',
    '/',
    '//',
    '///',
    '/api/v3/search',
    '/technology',
    'http://localhost',
    'https://evil.example',
    '//evil.example',
    'javascript:',
    'http://[::1]',
    'file:///etc/passwd',
  );
  const tail = fc.array(fc.oneof(valueArb().map(encode), fc.constantFrom(...RAW, '.', '..', '%2e%2e', '\\', '%5C')), { maxLength: 3 });
  return fc.tuple(prefix, tail, fc.constantFrom('', '/')).map(([p, t, end]) => (t.length ? `${p}/${t.join('/')}${end}` : `${p}${end}`));
}

export const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'CONNECT'] as const;

/** Mostly GET (the interesting answers), then the others, then nonsense methods. */
export function methodArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constant('GET'), weight: 8 },
    { arbitrary: fc.constantFrom(...METHODS, 'get', 'hEaD', 'options'), weight: 3 },
    {
      arbitrary: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', ' GET', 'GET ', 'G\u0000ET', '__proto__', 'constructor', ...VALUES.slice(0, 20))),
      weight: 1,
    },
  );
}
