import { formatQuery } from './route.ts';
import {
  ceilingRatesParameter,
  CEILING_RATES_PATH,
  EDUCATION_LEVELS,
  PRICE_FIELDS,
  PRICE_FIGURES_PARAMETERS,
  RECORD_ORDER_FIELDS,
  RESULT_WINDOW,
  SEARCH_FIELDS,
  type FilterName,
  type PriceField,
  type RecordOrderField,
  type SearchField,
} from '../../engine/ceilingrates/parameters.ts';
import { parseFilter, type Filter } from '../../engine/ceilingrates/parse-query.ts';

export { EDUCATION_LEVELS, PRICE_FIELDS, RESULT_WINDOW, SEARCH_FIELDS, type PriceField, type SearchField };

const [YEAR, PROPOSED, MODE, TITLE, PIN] = PRICE_FIGURES_PARAMETERS;
export type SearchMode = (typeof MODE.values)[number];
/** Pools compared side by side at most. */
export const MAX_PINS = 3;
/** Titles a pool holds at most, and the longest title: the worker refuses a pool beyond them (a 406). */
export const MAX_TITLES = TITLE.maxItems;
const TITLE_MAX_LENGTH = TITLE.maxLength;
const isPriceField = (name: string | null): name is PriceField => (PRICE_FIELDS as readonly (string | null)[]).includes(name);

/** The ceiling-rates endpoint, as a prototype would call it. */
export const RATES_PATH = CEILING_RATES_PATH;

/** The view sorts by fields the records hold (the API also accepts two that are always null). */
export type SortField = RecordOrderField;
const isSortField = (name: string): name is SortField => (RECORD_ORDER_FIELDS as readonly string[]).includes(name);

export interface Ordering {
  field: SortField;
  dir: 'asc' | 'desc';
}

/** The view's page sizes (within the API's page_size bounds) and its default, which differs from the API's. */
export const PAGE_SIZES = [25, 50, 100, 200, 300] as const;
export const DEFAULT_PAGE_SIZE = 50;

export type Range = [number | null, number | null];

/** Everything the rates view shows, parsed from (and written back to) the API query itself. */
export interface RatesQuery {
  keyword: string;
  /** An exact-value search picked from the suggestions. */
  search: { field: SearchField; text: string } | null;
  education: string[];
  experience: Range;
  price: Range;
  businessSize: string;
  site: string;
  clearance: string;
  sin: string;
  category: string;
  ordering: Ordering[];
  page: number;
  pageSize: number;
  exclude: string[];
  /** The contract year the figures are computed over (not an API parameter: the DB worker computes them). */
  year: PriceField;
  /** The price being checked against the matches, if any. */
  proposed: number | null;
  /** `titles`: the figures are over a pool of exact labor-category titles (any of them), not the keyword. */
  mode: SearchMode;
  titles: string[];
  /** Pinned queries compared side by side: each the API query string of its search and filters. */
  pins: string[];
}

export function emptyRatesQuery(): RatesQuery {
  return {
    keyword: '',
    search: null,
    education: [],
    experience: [null, null],
    price: [null, null],
    businessSize: '',
    site: '',
    clearance: '',
    sin: '',
    category: '',
    ordering: [],
    page: 1,
    pageSize: DEFAULT_PAGE_SIZE,
    exclude: [],
    year: YEAR.default,
    proposed: null,
    mode: MODE.default,
    titles: [],
    pins: [],
  };
}

/**
 * A shared link can say anything, so the state keeps what the API's request size limits allow (the
 * parameter table's): the first filters, alternatives, ids and characters, and each ordering field once
 * (its first occurrence, as the API does). Whatever the link, the view's request stays within the limits.
 */
const FILTER_LIMITS = ceilingRatesParameter('filter');
const EXCLUDE_LIMITS = ceilingRatesParameter('exclude');
const firstAlternatives = (value: string, max: number): string => value.split('|', max).join('|');

/** One `filter=` value read by the engine's own parser; a value it refuses (a hand-edited hash) is dropped. */
function readFilter(raw: string): Filter | null {
  try {
    return parseFilter(firstAlternatives(raw.slice(0, FILTER_LIMITS.maxLength), FILTER_LIMITS.maxListItems));
  } catch {
    return null;
  }
}

/** The view holds one range; the API takes several alternatives, of which the first is shown. */
function firstRange(ranges: [number, number][]): Range {
  return ranges.length ? [ranges[0][0], ranges[0][1]] : [null, null];
}

function positiveInt(text: string | null, fallback: number): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

export function parseRatesQuery(params: URLSearchParams): RatesQuery {
  const q = emptyRatesQuery();
  q.keyword = (params.get('keyword') ?? '').slice(0, ceilingRatesParameter('keyword').maxLength);
  const search = params.get('search')?.slice(0, ceilingRatesParameter('search').maxLength);
  if (search) {
    const at = search.indexOf(':');
    const field = search.slice(0, at);
    const known = (SEARCH_FIELDS as readonly string[]).includes(field);
    if (at > 0 && known) q.search = { field: field as SearchField, text: search.slice(at + 1) };
  }
  for (const raw of params.getAll('filter').slice(0, FILTER_LIMITS.maxItems)) {
    const filter = readFilter(raw);
    if (!filter) continue;
    switch (filter.name) {
      case 'education_level':
        q.education = filter.values.filter(Boolean);
        break;
      case 'experience_range':
        q.experience = firstRange(filter.ranges);
        break;
      case 'price_range':
        q.price = firstRange(filter.ranges);
        break;
      case 'business_size':
        q.businessSize = filter.values.join('|');
        break;
      case 'site':
        q.site = filter.phrases.join('|');
        break;
      case 'security_clearance':
        q.clearance = filter.classes.join('|');
        break;
      case 'sin':
        q.sin = filter.codes.join('|');
        break;
      case 'category':
        q.category = filter.values.join('|');
        break;
    }
  }
  const sorts = params.getAll('sort');
  const fields = params.getAll('ordering');
  const seen = new Set<SortField>();
  q.ordering = fields.flatMap((field, i): Ordering[] => {
    if (!isSortField(field) || seen.has(field)) return [];
    seen.add(field);
    return [{ field, dir: sorts[i] === 'desc' ? 'desc' : 'asc' }];
  });
  q.page = positiveInt(params.get('page'), 1);
  q.pageSize = positiveInt(params.get('page_size'), DEFAULT_PAGE_SIZE);
  q.exclude = (params.get('exclude') ?? '').split('|', EXCLUDE_LIMITS.maxListItems).filter(Boolean);
  const year = params.get(YEAR.name);
  if (isPriceField(year)) q.year = year;
  const proposed = params.get(PROPOSED.name);
  if (proposed !== null && proposed.trim() !== '' && Number.isFinite(Number(proposed))) q.proposed = Number(proposed);
  if (params.get(MODE.name) === 'titles') q.mode = 'titles';
  q.titles = linkTitles(params).slice(0, MAX_TITLES);
  q.pins = [...new Set(params.getAll(PIN.name))].slice(0, MAX_PINS);
  return q;
}

/** A link's pool: each title once, none blank or longer than any the worker takes (no stored title is). */
const linkTitles = (params: URLSearchParams): string[] =>
  [...new Set(params.getAll(TITLE.name))].filter((t) => t.trim() !== '' && t.length <= TITLE_MAX_LENGTH);

/** Titles of a link's pool beyond what a pool holds (MAX_TITLES), which the view leaves out and says so. */
export function titlesLeftOut(params: URLSearchParams): number {
  return Math.max(0, linkTitles(params).length - MAX_TITLES);
}

/** An open-ended range still has to be sent as two numbers. */
function rangeText(range: Range, low: number, high: number): string | null {
  if (range[0] === null && range[1] === null) return null;
  return `${range[0] ?? low},${range[1] ?? high}`;
}

/** The API parameters for a query, in a stable order. */
export function ratesParams(q: RatesQuery, options: { pageSize?: 'always' | 'if-not-default' } = {}): URLSearchParams {
  const p = new URLSearchParams();
  if (q.search) p.append('search', `${q.search.field}:${q.search.text}`);
  if (q.keyword.trim()) p.append('keyword', q.keyword.trim());
  const filter = (name: FilterName, value: string) => p.append('filter', `${name}:${value}`);
  if (q.education.length) filter('education_level', q.education.join('|'));
  const exp = rangeText(q.experience, 0, 99);
  if (exp) filter('experience_range', exp);
  const price = rangeText(q.price, 0, 100_000);
  if (price) filter('price_range', price);
  if (q.businessSize) filter('business_size', q.businessSize);
  if (q.site) filter('site', q.site);
  if (q.clearance) filter('security_clearance', q.clearance);
  if (q.sin.trim()) filter('sin', q.sin.trim());
  if (q.category.trim()) filter('category', q.category.trim());
  for (const o of q.ordering) {
    p.append('ordering', o.field);
    p.append('sort', o.dir);
  }
  if (q.page !== 1) p.append('page', String(q.page));
  if (options.pageSize === 'always' || q.pageSize !== DEFAULT_PAGE_SIZE) p.append('page_size', String(q.pageSize));
  if (q.exclude.length) p.append('exclude', q.exclude.join('|'));
  return p;
}

/** The view's URL state: the API's parameters, then the price figures' own (year, proposed price). */
export function ratesHashParams(q: RatesQuery): URLSearchParams {
  const p = ratesParams(q);
  if (q.year !== YEAR.default) p.append(YEAR.name, q.year);
  if (q.proposed !== null) p.append(PROPOSED.name, String(q.proposed));
  if (q.mode !== MODE.default) p.append(MODE.name, q.mode);
  for (const title of q.titles) p.append(TITLE.name, title);
  for (const pin of q.pins) p.append(PIN.name, pin);
  return p;
}

/** What a pin holds: the query's search and filters, as the API takes them (no paging, ordering or exclusions). */
export function pinOf(q: RatesQuery): string {
  return formatQuery(ratesParams({ ...q, ordering: [], page: 1, pageSize: DEFAULT_PAGE_SIZE }));
}

/** The API URL the view asks for. The page size is always sent: the view's default differs from the API's. */
export function ratesApiUrl(q: RatesQuery, extra: Record<string, string> = {}): string {
  const p = ratesParams(q, { pageSize: 'always' });
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  return `${RATES_PATH}?${formatQuery(p)}`;
}

/** The same filters and search, for a suggestion or an export: no paging or ordering. */
export function ratesFilterOnly(q: RatesQuery): RatesQuery {
  return { ...q, ordering: [], page: 1, pageSize: DEFAULT_PAGE_SIZE };
}

/** Clicking a column: sort by it alone, or flip it when it already is the only key; with `add`, it joins (or flips within) the keys. */
export function toggleOrdering(current: Ordering[], field: SortField, add: boolean): Ordering[] {
  const at = current.findIndex((o) => o.field === field);
  const flipped = (o: Ordering): Ordering => ({ field: o.field, dir: o.dir === 'asc' ? 'desc' : 'asc' });
  if (add) {
    if (at === -1) return [...current, { field, dir: 'asc' }];
    return current.map((o, i) => (i === at ? flipped(o) : o));
  }
  if (at !== -1 && current.length === 1) return [flipped(current[0])];
  if (at === -1 && current.length === 0 && field === 'current_price') return [{ field, dir: 'desc' }];
  return [{ field, dir: 'asc' }];
}

/** The last page that the result window allows. */
export function lastPage(total: number, pageSize: number): number {
  return Math.max(1, Math.min(Math.ceil(total / pageSize), Math.floor(RESULT_WINDOW / pageSize)));
}
