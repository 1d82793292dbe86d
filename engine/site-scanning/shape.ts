import type { SqlValue } from 'sql.js';
import { ANSWERED_FIELDS, type FieldKind, type WebsiteAnswer } from './record.ts';
import { derivedCheck } from './derived.ts';
import { FILTER_NAMES } from './parameters.ts';
import type { WebsiteQuery } from './parse-query.ts';
import { recordsJson } from './stored-record.ts';

/** A row of column values in WEBSITE_FIELDS order (the PostgreSQL backend's table has one column per field). */
export type WebsiteRow = SqlValue[];

/** A column value as the record holds it (the one-column-per-field layouts: PostgreSQL, databases written before the stored record). */
export function fromSql(kind: FieldKind, value: SqlValue): unknown {
  if (value === null) return null;
  switch (kind) {
    case 'boolean':
      return value === 1;
    case 'list': {
      const list = JSON.parse(String(value)) as unknown[];
      // Production serialises an empty list as null.
      return list.length > 0 ? list : null;
    }
    case 'object':
      return JSON.parse(String(value));
    case 'number':
      return Number(value);
    case 'text':
      return String(value);
  }
}

/**
 * A row of column values (WEBSITE_FIELDS order) → the record as answered, keys in the documented order, the
 * derived checks made from the fields before them (derived.ts).
 */
export function recordFromRow(row: WebsiteRow): WebsiteAnswer {
  const record: Record<string, unknown> = {};
  let column = 0;
  for (const entry of ANSWERED_FIELDS) {
    record[entry[0]] = entry.length === 2 ? fromSql(entry[1], row[column++]) : derivedCheck(entry[0], record);
  }
  return record as unknown as WebsiteAnswer;
}

export interface PageMeta {
  totalItems: number;
  itemCount: number;
  itemsPerPage: number;
  totalPages: number;
  currentPage: number;
}

export interface PageLinks {
  first: string;
  previous: string;
  next: string;
  last: string;
}

export interface WebsitePage {
  items: WebsiteAnswer[];
  meta: PageMeta;
  links: PageLinks;
}

/** The listing's route below its prefix. */
const ROUTE = '/websites';

/**
 * The listing's path with the request's filters preserved (fix: production drops them), in the documented parameter
 * order. Under the prefix the request came by (RoutedToData.prefix: a deployment's base path, a week's
 * `/snapshots/<date>`, the gateway's base), so a client following a link stays where it asked.
 */
function routeWithFilters(query: WebsiteQuery, prefix: string): string {
  const route = `${prefix}${ROUTE}`;
  const parts: string[] = [];
  for (const name of FILTER_NAMES) {
    const value = query.filters[name];
    if (value !== undefined) parts.push(`${name}=${encodeURIComponent(String(value))}`);
  }
  return parts.length ? `${route}?${parts.join('&')}&` : `${route}?`;
}

/** The paginated envelope; an absent link is "", and with no results `last` is "" too. */
export function websitePage(items: WebsiteAnswer[], totalItems: number, query: WebsiteQuery, prefix: string): WebsitePage {
  return { items, ...pageMetaAndLinks(items.length, totalItems, query, prefix) };
}

/**
 * The page's JSON text made of its stored records (stored-record.ts): byte for byte what JSON.stringify writes
 * for websitePage of the same records as answered, without making them.
 */
export function websitePageJson(storedRecords: readonly string[], totalItems: number, query: WebsiteQuery, prefix: string): string {
  const rest = JSON.stringify(pageMetaAndLinks(storedRecords.length, totalItems, query, prefix));
  return `{"items":[${recordsJson(storedRecords)}],${rest.slice(1)}`;
}

function pageMetaAndLinks(itemCount: number, totalItems: number, query: WebsiteQuery, prefix: string): Omit<WebsitePage, 'items'> {
  const { page, limit } = query;
  const totalPages = Math.ceil(totalItems / limit);
  const route = routeWithFilters(query, prefix);
  const at = (n: number): string => `${route}page=${n}&limit=${limit}`;
  return {
    meta: { totalItems, itemCount, itemsPerPage: limit, totalPages, currentPage: page },
    links: {
      first: `${route}limit=${limit}`,
      previous: page > 1 ? at(page - 1) : '',
      next: page < totalPages ? at(page + 1) : '',
      last: totalPages > 0 ? at(totalPages) : '',
    },
  };
}

export interface AnalysisCounts {
  total: number;
  totalFinalUrlBaseDomains: number;
  totalAgencies: number;
}

export interface AnalysisBody {
  queueCounts: { waiting: number; active: number; delayed: number; failed: number };
  total: number;
  totalFinalUrlBaseDomains: number;
  totalAgencies: number;
}

/** There is no scanner queue offline, so its counts are zero. */
export function analysisBody(counts: AnalysisCounts): AnalysisBody {
  return {
    queueCounts: { waiting: 0, active: 0, delayed: 0, failed: 0 },
    total: counts.total,
    totalFinalUrlBaseDomains: counts.totalFinalUrlBaseDomains,
    totalAgencies: counts.totalAgencies,
  };
}

/** `/websites/{url}` key: lower-cased, a leading http(s):// and trailing slashes stripped (fix), `www.` preserved. */
export function targetUrlKey(pathValue: string): string {
  const withoutScheme = pathValue.replace(/^https?:\/\//i, '');
  // Trailing slashes counted from the end: a regex /\/+$/ retries at every slash, quadratic in a long run of them.
  let end = withoutScheme.length;
  while (end > 0 && withoutScheme.charCodeAt(end - 1) === 0x2f) end--;
  return withoutScheme.slice(0, end).toLowerCase();
}
