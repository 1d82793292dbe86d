import { formatQuery } from './route.ts';
import {
  FILTER_NAMES,
  filtersOfKind,
  ROLLUP_COLUMNS,
  ROLLUP_GROUPS,
  ROLLUP_PARAMETERS,
  type RollupColumn,
  type RollupGroup,
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
  /** The roll-up beside the list (not API parameters: the DB worker computes it). */
  rollup: RollupState;
}

export interface RollupState {
  group: RollupGroup;
  order: RollupColumn;
  dir: 'asc' | 'desc';
}

export { ROLLUP_COLUMNS, type RollupColumn, type RollupGroup };

const [GROUP_BY, ROLLUP_ORDER, ROLLUP_SORT] = ROLLUP_PARAMETERS;
export const DEFAULT_ROLLUP: RollupState = { group: GROUP_BY.default, order: ROLLUP_ORDER.default, dir: ROLLUP_SORT.default };

const oneOf = <T extends string>(values: readonly T[], text: string | null, fallback: T): T =>
  (values as readonly (string | null)[]).includes(text) ? (text as T) : fallback;

function parseRollup(params: URLSearchParams): RollupState {
  return {
    group: oneOf(ROLLUP_GROUPS, params.get(GROUP_BY.name), DEFAULT_ROLLUP.group),
    order: oneOf(ROLLUP_COLUMNS, params.get(ROLLUP_ORDER.name), DEFAULT_ROLLUP.order),
    dir: oneOf(ROLLUP_SORT.values, params.get(ROLLUP_SORT.name), DEFAULT_ROLLUP.dir),
  };
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
  return { filters, page: positiveInt(params.get('page'), 1), limit: positiveInt(params.get('limit'), DEFAULT_LIMIT), rollup: parseRollup(params) };
}

/** The view's URL state: the API's filters and paging, then the roll-up's own parameters where not default. */
export function websitesHashParams(q: WebsitesQuery): URLSearchParams {
  const p = websitesParams(q);
  if (q.rollup.group !== DEFAULT_ROLLUP.group) p.append(GROUP_BY.name, q.rollup.group);
  if (q.rollup.order !== DEFAULT_ROLLUP.order) p.append(ROLLUP_ORDER.name, q.rollup.order);
  if (q.rollup.dir !== DEFAULT_ROLLUP.dir) p.append(ROLLUP_SORT.name, q.rollup.dir);
  return p;
}

/** The filters alone, as the API takes them (what the roll-up is computed over). */
export function websitesFilterQuery(q: WebsitesQuery): string {
  return formatQuery(websitesParams({ ...q, page: 1, limit: DEFAULT_LIMIT }));
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
