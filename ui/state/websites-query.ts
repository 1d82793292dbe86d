import { formatQuery } from './route.ts';
import { SCAN_STATUSES as ENGINE_SCAN_STATUSES, type ScanStatus } from '../../engine/site-scanning/record.ts';

export const WEBSITES_PATH = '/websites';
export const ANALYSIS_PATH = '/analysis';

export const WEBSITE_FILTERS = [
  'target_url_domain',
  'final_url_domain',
  'target_url_agency_owner',
  'target_url_bureau_owner',
  'final_url_live',
  'target_url_redirects',
  'scan_status',
  'dap_detected_final_url',
] as const;
export type WebsiteFilter = (typeof WEBSITE_FILTERS)[number];

export const BOOLEAN_FILTERS: readonly WebsiteFilter[] = ['final_url_live', 'target_url_redirects', 'dap_detected_final_url'];

/** The API's scan_status values, success first (the order a picker offers them in). */
export const SCAN_STATUSES: readonly ScanStatus[] = ['completed', ...ENGINE_SCAN_STATUSES.filter((s) => s !== 'completed')];

export const LIMITS = [10, 25, 50, 100] as const;
export const DEFAULT_LIMIT = 25;

export interface WebsitesQuery {
  filters: Partial<Record<WebsiteFilter, string>>;
  page: number;
  limit: number;
}

function positiveInt(text: string | null, fallback: number): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

export function parseWebsitesQuery(params: URLSearchParams): WebsitesQuery {
  const filters: WebsitesQuery['filters'] = {};
  for (const name of WEBSITE_FILTERS) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return { filters, page: positiveInt(params.get('page'), 1), limit: positiveInt(params.get('limit'), DEFAULT_LIMIT) };
}

/** The query as it sits in the hash: filters, then page and limit when they differ from the view's defaults. */
export function websitesParams(q: WebsitesQuery): URLSearchParams {
  const p = new URLSearchParams();
  for (const name of WEBSITE_FILTERS) {
    const value = q.filters[name];
    if (value) p.append(name, value);
  }
  if (q.page !== 1) p.append('page', String(q.page));
  if (q.limit !== DEFAULT_LIMIT) p.append('limit', String(q.limit));
  return p;
}

export function websitesApiUrl(q: WebsitesQuery): string {
  const p = websitesParams({ ...q, page: 1, limit: DEFAULT_LIMIT });
  p.append('page', String(q.page));
  p.append('limit', String(q.limit));
  return `${WEBSITES_PATH}?${formatQuery(p)}`;
}

/** `/analysis` takes the same filters; paging is not part of its answer. */
export function analysisApiUrl(q: WebsitesQuery): string {
  const p = websitesParams({ ...q, page: 1, limit: DEFAULT_LIMIT });
  const qs = formatQuery(p);
  return qs ? `${ANALYSIS_PATH}?${qs}` : ANALYSIS_PATH;
}

export function websiteApiUrl(targetUrl: string): string {
  return `${WEBSITES_PATH}/${encodeURIComponent(targetUrl)}`;
}

const LIST_KEY = 'websites-list-hash';

/** The detail view's way back: the listing (with its filters and page) the user last looked at. */
export function rememberListHash(hash: string): void {
  try {
    sessionStorage.setItem(LIST_KEY, hash);
  } catch {
    // Storage can be unavailable (privacy modes); the link then goes to the unfiltered list.
  }
}

export function lastListHash(): string {
  try {
    return sessionStorage.getItem(LIST_KEY) ?? '#/websites';
  } catch {
    return '#/websites';
  }
}
