/**
 * Query parameters → a typed query, or a 406 `NotAcceptable` naming the bad parameter
 * (semantics.md, "Matching", "Order and paging", "Suggestions").
 */
import { isOrderField, type OrderField } from './order-columns.ts';
import { normalizeSinCode } from './text.ts';

export class NotAcceptable extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}

export const SEARCH_FIELDS = ['labor_category', 'vendor_name', 'idv_piid'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];
const isSearchField = (name: string): name is SearchField => (SEARCH_FIELDS as readonly string[]).includes(name);

export const RESULT_WINDOW = 10_000;
export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 10;

export type Filter =
  /** Exact, case-sensitive values. */
  | { name: 'education_level' | 'business_size'; values: string[] }
  /** Inclusive numeric ranges, any of which matches. */
  | { name: 'price_range' | 'experience_range'; ranges: [number, number][] }
  | { name: 'current_price' | 'min_years_experience'; values: number[] }
  /** SIN codes without decimal suffix. */
  | { name: 'sin'; codes: string[] }
  | { name: 'category' | 'subcategory'; values: string[] }
  /** Word phrases matched case-insensitively inside worksite. */
  | { name: 'worksite' | 'site'; phrases: string[] }
  /** Lower-cased `yes` / `no` (other words match nothing). */
  | { name: 'security_clearance'; classes: string[] };

export interface FieldText {
  field: SearchField;
  text: string;
}

export interface OrderSpec {
  field: OrderField;
  desc: boolean;
}

export interface CeilingRatesQuery {
  searches: FieldText[];
  /** Trimmed keyword, null when absent or empty. */
  keyword: string | null;
  filters: Filter[];
  exclude: number[];
  ordering: OrderSpec[];
  /** True when the request named no ordering (the default, current_price ascending). */
  defaultOrdering: boolean;
  page: number;
  pageSize: number;
  suggestContains: FieldText | null;
  suggest: FieldText[];
  export: boolean;
}

/** `<field>:<text>`, the text being everything after the first colon. */
function fieldText(param: string, value: string): FieldText {
  const colon = value.indexOf(':');
  if (colon < 0) throw new NotAcceptable(`Invalid ${param}: expected <field>:<text>`);
  const field = value.slice(0, colon);
  if (!isSearchField(field)) throw new NotAcceptable(`Invalid ${param} field: ${field}`);
  return { field, text: value.slice(colon + 1) };
}

function number(text: string, what: string): number {
  const t = text.trim();
  const n = t === '' ? NaN : Number(t);
  if (!Number.isFinite(n)) throw new NotAcceptable(`Invalid ${what}: ${text}`);
  return n;
}

function range(text: string, name: string): [number, number] {
  const parts = text.split(',');
  if (parts.length !== 2) throw new NotAcceptable(`Invalid ${name}: ${text} (expected <min>,<max>)`);
  return [number(parts[0], name), number(parts[1], name)];
}

export function parseFilter(raw: string): Filter {
  const colon = raw.indexOf(':');
  const name = colon < 0 ? raw : raw.slice(0, colon);
  const value = colon < 0 ? '' : raw.slice(colon + 1);
  const alternatives = value.split('|');
  switch (name) {
    case 'education_level':
    case 'business_size':
      return { name, values: alternatives };
    case 'price_range':
    case 'experience_range':
      return { name, ranges: alternatives.map((a) => range(a, name)) };
    case 'current_price':
    case 'min_years_experience':
      return { name, values: alternatives.map((a) => number(a, name)) };
    case 'sin':
      return { name, codes: alternatives.map((a) => normalizeSinCode(a.trim())) };
    case 'category':
    case 'subcategory':
      return { name, values: alternatives.map((a) => a.trim()) };
    case 'worksite':
    case 'site':
      return { name, phrases: alternatives };
    case 'security_clearance':
      return { name, classes: alternatives.map((a) => a.trim().toLowerCase()) };
    default:
      throw new NotAcceptable(`Unknown filter: ${name}`);
  }
}

function integer(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\s*\d+\s*$/.test(raw)) throw new NotAcceptable(`Invalid ${name}: ${raw} (expected a positive integer)`);
  return Number(raw);
}

function ordering(query: URLSearchParams): OrderSpec[] {
  const fields = query.getAll('ordering').filter((f) => f.trim() !== '');
  const sorts = query.getAll('sort');
  return fields.map((raw, i) => {
    const field = raw.trim();
    if (!isOrderField(field)) throw new NotAcceptable(`Invalid ordering field: ${field}`);
    const direction = (sorts[i] ?? 'asc').trim().toLowerCase();
    if (direction !== 'asc' && direction !== 'desc') throw new NotAcceptable(`Invalid sort: ${sorts[i]} (expected asc or desc)`);
    return { field, desc: direction === 'desc' };
  });
}

export function parseQuery(query: URLSearchParams): CeilingRatesQuery {
  const searches = query
    .getAll('search')
    .map((s) => fieldText('search', s))
    .map(({ field, text }) => ({ field, text: text.trim() }))
    .filter(({ text }) => text !== '');

  const keywordRaw = (query.get('keyword') ?? '').trim();
  if (keywordRaw.length === 1) throw new NotAcceptable('Invalid keyword: at least 2 characters are required');

  const filters = query.getAll('filter').map(parseFilter);

  const exclude = query
    .getAll('exclude')
    .flatMap((e) => e.split('|'))
    .map((e) => e.trim())
    .filter((e) => /^\d+$/.test(e))
    .map(Number);

  const page = integer(query, 'page', 1);
  const pageSize = integer(query, 'page_size', DEFAULT_PAGE_SIZE);
  if (page < 1) throw new NotAcceptable(`Invalid page: ${page} (pages start at 1)`);
  if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) throw new NotAcceptable(`Invalid page_size: ${pageSize} (1 to ${MAX_PAGE_SIZE})`);
  if (page * pageSize > RESULT_WINDOW) {
    throw new NotAcceptable(`Invalid page: page * page_size must not exceed the result window of ${RESULT_WINDOW}`);
  }

  const contains = query.get('suggest-contains');
  let suggestContains: FieldText | null = null;
  if (contains !== null) {
    suggestContains = fieldText('suggest-contains', contains);
    if (suggestContains.text.trim().length < 2) throw new NotAcceptable('Invalid suggest-contains: at least 2 characters are required');
  }
  const suggest = query.getAll('suggest').map((s) => {
    const spec = fieldText('suggest', s);
    if (spec.text.trim().length < 1) throw new NotAcceptable('Invalid suggest: the text is empty');
    return spec;
  });

  const order = ordering(query);
  return {
    searches,
    keyword: keywordRaw === '' ? null : keywordRaw,
    filters,
    exclude,
    ordering: order.length ? order : [{ field: 'current_price', desc: false }],
    defaultOrdering: order.length === 0,
    page,
    pageSize,
    suggestContains,
    suggest,
    export: (query.get('export') ?? '').toLowerCase() === 'y',
  };
}
