import { SCAN_STATUSES, type ScanStatus } from './record.ts';

/** The filters of /websites and /analysis, in the seed's parameter order (also the order kept in links). */
export interface WebsiteFilters {
  target_url_domain?: string;
  final_url_domain?: string;
  final_url_live?: boolean;
  target_url_redirects?: boolean;
  target_url_agency_owner?: string;
  target_url_bureau_owner?: string;
  scan_status?: ScanStatus;
  dap_detected_final_url?: boolean;
}

export type FilterName = keyof WebsiteFilters;

export const FILTER_NAMES: readonly FilterName[] = [
  'target_url_domain',
  'final_url_domain',
  'final_url_live',
  'target_url_redirects',
  'target_url_agency_owner',
  'target_url_bureau_owner',
  'scan_status',
  'dap_detected_final_url',
];

const DOMAIN_FILTERS = ['target_url_domain', 'final_url_domain'] as const;
const BOOLEAN_FILTERS = ['final_url_live', 'target_url_redirects', 'dap_detected_final_url'] as const;
const TEXT_FILTERS = ['target_url_agency_owner', 'target_url_bureau_owner'] as const;

export interface WebsiteQuery {
  filters: WebsiteFilters;
  page: number;
  limit: number;
}

export type Parsed = { ok: true; query: WebsiteQuery } | { ok: false; messages: string[] };

export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

/** A Map, not an object literal: `in` on an object also finds `constructor`, `toString`, `__proto__`. */
const BOOLEAN_VALUES: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
]);

/**
 * What the framework's URL check accepts for a domain filter: host labels with a dot-separated alphabetic
 * top-level domain, optionally with a scheme, port and path (`gsa` fails, `gsa.gov` passes).
 */
const URL_ADDRESS = /^(https?:\/\/)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}\.?(:\d{1,5})?([/?#]\S*)?$/i;

/** A number as the framework's transform reads it (`Number(text)`), floored; NaN when it is not one. */
function toNumber(text: string): number {
  const n = Number(text);
  return Number.isFinite(n) ? Math.floor(n) : Number.NaN;
}

/**
 * Query parameters → a validated typed query, or every failing check's message (semantics.md, in
 * parameter order; decision 0101). The first value of a repeated parameter counts; unknown ones and
 * `api_key` are ignored.
 */
export function parseWebsiteQuery(params: URLSearchParams): Parsed {
  const messages: string[] = [];
  const filters: WebsiteFilters = {};

  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (value === null) continue;
    if ((DOMAIN_FILTERS as readonly string[]).includes(name)) {
      if (URL_ADDRESS.test(value)) (filters as Record<string, unknown>)[name] = value;
      else messages.push(`${name} must be a URL address`);
    } else if ((BOOLEAN_FILTERS as readonly string[]).includes(name)) {
      const flag = BOOLEAN_VALUES.get(value);
      if (flag !== undefined) (filters as Record<string, unknown>)[name] = flag;
      else messages.push(`${name} must be a boolean string`);
    } else if ((TEXT_FILTERS as readonly string[]).includes(name)) {
      (filters as Record<string, unknown>)[name] = value;
    } else if (name === 'scan_status') {
      if ((SCAN_STATUSES as readonly string[]).includes(value)) filters.scan_status = value as ScanStatus;
      else messages.push(`scan_status must be one of the following values: ${SCAN_STATUSES.join(', ')}`);
    }
  }

  let page = DEFAULT_PAGE;
  const pageText = params.get('page');
  if (pageText !== null) {
    page = toNumber(pageText);
    if (Number.isNaN(page)) messages.push('page must be a number conforming to the specified constraints');
    if (!(page >= 1)) messages.push('page must not be less than 1');
  }

  let limit = DEFAULT_LIMIT;
  const limitText = params.get('limit');
  if (limitText !== null) {
    limit = toNumber(limitText);
    if (!(limit <= MAX_LIMIT)) messages.push(`limit must not be greater than ${MAX_LIMIT}`);
    if (!(limit >= 1)) messages.push('limit must be a positive number');
  }

  return messages.length > 0 ? { ok: false, messages } : { ok: true, query: { filters, page, limit } };
}
