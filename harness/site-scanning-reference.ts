/**
 * A plain in-memory model of GET /websites and GET /analysis, written from the API reference without any engine
 * code: the property tests compare the engine with it over the same records.
 */
import type { WebsiteRecord } from '../engine/site-scanning/record.ts';

export interface ReferenceFilters {
  target_url_domain?: string;
  final_url_domain?: string;
  final_url_live?: boolean;
  target_url_redirects?: boolean;
  target_url_agency_owner?: string;
  target_url_bureau_owner?: string;
  scan_status?: string;
  dap_detected_final_url?: boolean;
}

/** The documented filters, in the documented parameter order, which the links keep. */
export const REFERENCE_FILTERS = [
  'target_url_domain',
  'final_url_domain',
  'final_url_live',
  'target_url_redirects',
  'target_url_agency_owner',
  'target_url_bureau_owner',
  'scan_status',
  'dap_detected_final_url',
] as const satisfies readonly (keyof ReferenceFilters)[];

/** The filters that apply: an empty agency or bureau is skipped (production tests the value for truthiness). */
function applied(filters: ReferenceFilters): ReferenceFilters {
  const given: ReferenceFilters = { ...filters };
  if (given.target_url_agency_owner === '') delete given.target_url_agency_owner;
  if (given.target_url_bureau_owner === '') delete given.target_url_bureau_owner;
  return given;
}

export function matches(record: WebsiteRecord, sent: ReferenceFilters): boolean {
  const filters = applied(sent);
  return REFERENCE_FILTERS.every((name) => filters[name] === undefined || record[name] === filters[name]);
}

const utf8 = new TextEncoder();
function byteOrder(a: string, b: string): number {
  return Buffer.compare(utf8.encode(a), utf8.encode(b));
}

/** A file's status code is 2xx; unknown without one (docs/api/differences.md#record-field-names). */
const fileLive = (status: number | null): boolean | null => (status === null ? null : status >= 200 && status <= 299);
/** The file's final URL is not `https://<site>/<file>` (nor its http form); unknown without one. */
const fileRedirects = (url: string | null, site: string, file: string): boolean | null =>
  url === null ? null : ![`https://${site}/${file}`, `http://${site}/${file}`].includes(url);

/** The record as answered: with the robots.txt and sitemap.xml checks made from its fields. */
export function referenceRecord(record: WebsiteRecord) {
  return {
    ...record,
    robots_txt_final_url_live: fileLive(record.robots_txt_final_url_status_code),
    robots_txt_target_url_redirects: fileRedirects(record.robots_txt_final_url, record.target_url, 'robots.txt'),
    sitemap_xml_final_url_live: fileLive(record.sitemap_xml_final_url_status_code),
    sitemap_xml_target_url_redirects: fileRedirects(record.sitemap_xml_final_url, record.target_url, 'sitemap.xml'),
  };
}

export function referenceList(records: readonly WebsiteRecord[], sent: ReferenceFilters, page = 1, limit = 10) {
  const filters = applied(sent);
  const all = records.filter((r) => matches(r, filters)).sort((a, b) => byteOrder(a.target_url, b.target_url));
  const items = all.slice((page - 1) * limit, page * limit).map(referenceRecord);
  const totalPages = Math.ceil(all.length / limit);
  const query = REFERENCE_FILTERS.filter((n) => filters[n] !== undefined)
    .map((n) => `${n}=${encodeURIComponent(String(filters[n]))}&`)
    .join('');
  const link = (p: number) => `/websites?${query}page=${p}&limit=${limit}`;
  return {
    items,
    meta: { totalItems: all.length, itemCount: items.length, itemsPerPage: limit, totalPages, currentPage: page },
    links: {
      first: `/websites?${query}limit=${limit}`,
      previous: page > 1 ? link(page - 1) : '',
      next: page < totalPages ? link(page + 1) : '',
      last: totalPages > 0 ? link(totalPages) : '',
    },
  };
}

export function referenceAnalysis(records: readonly WebsiteRecord[], filters: ReferenceFilters) {
  const hits = records.filter((r) => matches(r, filters));
  return {
    queueCounts: { waiting: 0, active: 0, delayed: 0, failed: 0 },
    total: hits.length,
    totalFinalUrlBaseDomains: new Set(hits.map((r) => r.final_url_domain)).size,
    totalAgencies: new Set(hits.map((r) => r.target_url_agency_owner)).size,
  };
}

/** The query string a client would send for these filters (booleans as `true`/`false`). */
export function queryString(filters: ReferenceFilters, page?: number, limit?: number): string {
  const params = new URLSearchParams();
  for (const name of REFERENCE_FILTERS) if (filters[name] !== undefined) params.set(name, String(filters[name]));
  if (page !== undefined) params.set('page', String(page));
  if (limit !== undefined) params.set('limit', String(limit));
  const text = params.toString();
  return text ? `?${text}` : '';
}
