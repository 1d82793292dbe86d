/**
 * Requests built from the loaded records' own values, so that the differential tests reach matches, not only
 * hostile values that match nothing.
 */
import fc from 'fast-check';
import type { Database } from 'sql.js';
import type { ApiRequest } from '../engine/http/types.ts';
import { ceilingPathArb, ORDER_FIELDS, siteListPathArb } from './fuzz/requests.ts';

/**
 * Ceiling-rates requests built from the loaded records' own values, so that matching, ties in the order,
 * paging, term buckets, percentiles and the histogram are reached with many matches, not only with hostile
 * values that match nothing: whole values (search), their pieces in any case (keyword, suggest), real SIN
 * codes, list elements and worksite words, price and experience ranges around real values.
 */
export function ratesFromDataArb(db: Database): fc.Arbitrary<ApiRequest> {
  const column = (sql: string): string[] => (db.exec(sql)[0]?.values ?? []).map((row) => String(row[0]));
  const labor = column('SELECT DISTINCT labor_category FROM ceilingrates LIMIT 200');
  const vendors = column('SELECT DISTINCT vendor_name FROM ceilingrates LIMIT 200');
  const piids = column('SELECT DISTINCT idv_piid FROM ceilingrates LIMIT 100');
  const sins = column('SELECT DISTINCT sin FROM ceilingrates LIMIT 100')
    .flatMap((s) => s.split(/[,;/\s]+/))
    .filter(Boolean);
  const categories = column('SELECT DISTINCT category FROM ceilingrates LIMIT 50').flatMap((c) => c.split(';').map((e) => e.trim()));
  const worksites = column('SELECT DISTINCT worksite FROM ceilingrates');
  const prices = column('SELECT DISTINCT current_price FROM ceilingrates WHERE current_price IS NOT NULL LIMIT 300');
  const ids = column('SELECT id FROM ceilingrates LIMIT 300');
  const piece = (values: string[]): fc.Arbitrary<string> =>
    fc.tuple(fc.constantFrom(...values), fc.nat(), fc.integer({ min: 2, max: 8 }), fc.boolean()).map(([v, at, n, upper]) => {
      const text = v.slice(at % Math.max(1, v.length - 1), (at % Math.max(1, v.length - 1)) + n);
      return upper ? text.toUpperCase() : text;
    });
  const field = fc.constantFrom('labor_category', 'vendor_name', 'idv_piid');
  const wholeValue = fc.oneof(
    fc.constantFrom(...labor).map((v) => `labor_category:${v}`),
    fc.constantFrom(...vendors).map((v) => `vendor_name:${v}`),
    fc.constantFrom(...piids).map((v) => `idv_piid:${v}`),
  );
  const range = fc.tuple(fc.constantFrom(...prices), fc.constantFrom(...prices)).map(([a, b]) => `${a},${b}`);
  const filter = fc.oneof(
    fc.array(range, { minLength: 1, maxLength: 3 }).map((r) => `price_range:${r.join('|')}`),
    fc.constantFrom(...prices).map((p) => `current_price:${p}`),
    fc.tuple(fc.nat({ max: 15 }), fc.nat({ max: 15 })).map(([a, b]) => `experience_range:${a},${a + b}`),
    fc.nat({ max: 15 }).map((n) => `min_years_experience:${n}`),
    fc.subarray(['HS', 'AA', 'BA', 'MA', 'PHD', 'NONE', 'OTHER'], { minLength: 1 }).map((l) => `education_level:${l.join('|')}`),
    fc.constantFrom('business_size:S', 'business_size:O', 'security_clearance:yes', 'security_clearance:no|yes'),
    fc.array(fc.constantFrom(...sins), { minLength: 1, maxLength: 3 }).map((l) => `sin:${l.join('|')}`),
    fc.constantFrom(...categories).map((c) => `category:${c}`),
    fc.oneof(piece(worksites), fc.constantFrom(...worksites)).map((w) => `site:${w}`),
  );
  const param = fc.oneof(
    { arbitrary: wholeValue.map((v) => ['search', v]), weight: 2 },
    { arbitrary: fc.oneof(piece(labor), piece(vendors), piece(piids)).map((v) => ['keyword', v]), weight: 3 },
    { arbitrary: filter.map((v) => ['filter', v]), weight: 6 },
    { arbitrary: fc.array(fc.constantFrom(...ids), { minLength: 1, maxLength: 4 }).map((l) => ['exclude', l.join('|')]), weight: 1 },
    { arbitrary: fc.constantFrom(...ORDER_FIELDS).map((f) => ['ordering', f]), weight: 4 },
    { arbitrary: fc.constantFrom('asc', 'desc').map((d) => ['sort', d]), weight: 3 },
    { arbitrary: fc.constantFrom('1', '2', '3', '7', '20').map((p) => ['page', p]), weight: 2 },
    { arbitrary: fc.constantFrom('1', '5', '10', '100', '500').map((p) => ['page_size', p]), weight: 2 },
  );
  const searchQuery = fc.array(param, { minLength: 0, maxLength: 6 });
  const mode = fc.oneof(
    { arbitrary: fc.constant<[string, string][]>([]), weight: 8 },
    { arbitrary: fc.constant<[string, string][]>([['export', 'y']]), weight: 1 },
    {
      arbitrary: fc.tuple(field, fc.oneof(piece(labor), piece(vendors))).map(([f, t]) => [['suggest-contains', `${f}:${t}`]] as [string, string][]),
      weight: 1,
    },
    { arbitrary: fc.tuple(field, fc.oneof(piece(labor), piece(vendors))).map(([f, t]) => [['suggest', `${f}:${t}`]] as [string, string][]), weight: 1 },
  );
  return fc.tuple(ceilingPathArb(), searchQuery, mode).map(([path, params, extra]) => ({
    method: 'GET',
    url: `${path}?${new URLSearchParams([...params, ...extra] as [string, string][]).toString()}`,
  }));
}

/**
 * Site Scanning requests from the records' own values: every filter with values the records hold (agencies,
 * bureaus, domains, statuses, booleans), pages across the whole listing, and records by their target URL.
 */
export function websitesFromDataArb(db: Database): fc.Arbitrary<ApiRequest> {
  const column = (sql: string): string[] => (db.exec(sql)[0]?.values ?? []).map((row) => String(row[0]));
  const agencies = column('SELECT DISTINCT target_url_agency_owner FROM websites WHERE target_url_agency_owner IS NOT NULL LIMIT 200');
  const bureaus = column('SELECT DISTINCT target_url_bureau_owner FROM websites WHERE target_url_bureau_owner IS NOT NULL LIMIT 200');
  const domains = column('SELECT DISTINCT target_url_domain FROM websites WHERE target_url_domain IS NOT NULL LIMIT 200');
  const finals = column('SELECT DISTINCT final_url_domain FROM websites WHERE final_url_domain IS NOT NULL LIMIT 200');
  const statuses = column('SELECT DISTINCT scan_status FROM websites WHERE scan_status IS NOT NULL');
  // Spread over the listing but the same every run, so a seeded sample is the same sample (random() is not).
  const urls = column('SELECT target_url FROM websites ORDER BY (rowid * 2654435761) % 4294967291 LIMIT 500');
  const total = Number(db.exec('SELECT count(*) FROM websites')[0].values[0][0]);
  const bool = fc.constantFrom('true', 'false', '1', '0');
  const param = fc.oneof(
    fc.constantFrom(...agencies).map((v) => ['target_url_agency_owner', v]),
    fc.constantFrom(...bureaus).map((v) => ['target_url_bureau_owner', v]),
    fc.constantFrom(...domains).map((v) => ['target_url_domain', v]),
    fc.constantFrom(...finals).map((v) => ['final_url_domain', v]),
    fc.constantFrom(...statuses).map((v) => ['scan_status', v]),
    fc.tuple(fc.constantFrom('final_url_live', 'target_url_redirects', 'dap_detected_final_url'), bool),
  );
  const paging = fc.tuple(fc.constantFrom('1', '10', '50', '100'), fc.nat({ max: 400 })).map(([limit, page]) => [
    ['limit', limit],
    ['page', String(1 + (page % Math.max(1, Math.ceil(total / Number(limit)))))],
  ]);
  const listing = fc
    .tuple(siteListPathArb(), fc.array(param, { minLength: 0, maxLength: 3 }), paging)
    .map(([path, params, page]) => ({ method: 'GET', url: `${path}?${new URLSearchParams([...params, ...page] as [string, string][]).toString()}` }));
  const byUrl = fc.constantFrom(...urls).map((url) => ({ method: 'GET', url: `/websites/${encodeURIComponent(url)}` }));
  return fc.oneof({ arbitrary: listing, weight: 3 }, { arbitrary: byUrl, weight: 1 });
}
