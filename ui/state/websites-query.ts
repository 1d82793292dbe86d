import { formatQuery } from './route.ts';
import {
  FILTER_NAMES,
  filtersOfKind,
  SITE_SCANNING_ROUTES,
  WEBSITE_FILTER_PARAMETERS,
  type FilterName,
} from '../../engine/site-scanning/parameters.ts';

const routePath = (name: (typeof SITE_SCANNING_ROUTES)[number]['name']): string => SITE_SCANNING_ROUTES.find((r) => r.name === name)!.path;

export const WEBSITES_PATH = routePath('websites');
export const ANALYSIS_PATH = routePath('analysis');

/** The API's filters, in its documented order (the order links keep). */
export const WEBSITE_FILTERS = FILTER_NAMES;
export type WebsiteFilter = FilterName;

export const BOOLEAN_FILTERS: readonly WebsiteFilter[] = filtersOfKind('boolean');

const STATUS_VALUES = WEBSITE_FILTER_PARAMETERS.find((p) => p.name === 'scan_status')!.values;
/** The API's scan_status values, success first (the order a picker offers them in). */
export const SCAN_STATUSES: readonly (typeof STATUS_VALUES)[number][] = ['completed', ...STATUS_VALUES.filter((s) => s !== 'completed')];

/** The view's page sizes (within the API's bounds) and its default, which differs from the API's. */
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
