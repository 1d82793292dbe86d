/**
 * Query parameters → a typed query, or a 406 `NotAcceptable` naming the bad parameter
 * (the API reference: "Matching", "Order and paging", "Suggestions").
 */
import { clearanceFilterClass, educationCode, worksiteWords } from './vocabulary.ts';
import { isOrderField } from './columns/order-columns.ts';
import { sizeProblem, type SizeProblem } from '../http/request-size.ts';
import {
  CEILING_RATES_PARAMETERS,
  ceilingRatesParameter,
  FILTERS,
  IGNORED_FILTERS,
  RESULT_WINDOW,
  SEARCH_FIELDS,
  SORT_DIRECTIONS,
  type FilterGrammar,
  type OrderField,
  type SearchField,
} from './parameters.ts';
import { normalizeSinCode } from './text.ts';

export class NotAcceptable extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}

// Re-exported for the modules that read them here (matching, shaping); parameters.ts declares them.
export { RESULT_WINDOW, SEARCH_FIELDS, type SearchField };
const isSearchField = (name: string): name is SearchField => (SEARCH_FIELDS as readonly string[]).includes(name);

const PAGE = ceilingRatesParameter('page');
const PAGE_SIZE = ceilingRatesParameter('page_size');

/** What each filter grammar (parameters.ts) parses its `|`-separated alternatives into. */
interface GrammarValues {
  /** Exact, case-sensitive values. */
  exact: { values: string[] };
  trimmed: { values: string[] };
  /** Inclusive numeric ranges, any of which matches. */
  range: { ranges: [number, number][] };
  number: { values: number[] };
  /** SIN codes without decimal suffix. */
  sin: { codes: string[] };
  /** Word phrases matched case-insensitively inside worksite. */
  phrase: { phrases: string[] };
  /** Lower-cased `yes` / `no` (other words match nothing). */
  class: { classes: string[] };
}

type FilterSpecs = (typeof FILTERS)[number];
export type Filter = { [F in FilterSpecs as F['name']]: { name: F['name'] } & GrammarValues[F['grammar']] }[FilterSpecs['name']];

const FILTER_GRAMMAR: ReadonlyMap<string, FilterGrammar> = new Map(FILTERS.map((f) => [f.name, f.grammar]));

/** A `filter=` value's name and value: split at the first colon (no colon: all name). */
function splitFilter(raw: string): { name: string; value: string } {
  const colon = raw.indexOf(':');
  return colon < 0 ? { name: raw, value: '' } : { name: raw.slice(0, colon), value: raw.slice(colon + 1) };
}

const isIgnoredFilter = (raw: string): boolean => (IGNORED_FILTERS as readonly string[]).includes(splitFilter(raw).name);

export interface FieldText {
  field: SearchField;
  text: string;
}

export interface OrderSpec {
  field: OrderField;
  desc: boolean;
}

/** suggest-contains' field and text; `tooShort` when the text has fewer characters than the minimum. */
export interface SuggestContains extends FieldText {
  tooShort: boolean;
}

export interface CeilingRatesQuery {
  /** Each text exactly as sent (untrimmed); an empty text is dropped. */
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
  suggestContains: SuggestContains | null;
  suggest: FieldText[];
  export: boolean;
}

/**
 * `<field>:<text>`, the text being everything after the first colon — for `search`, only up to a second colon:
 * production splits the value on colons and matches the second piece, so `search=labor_category:Engineer 1: Sr.
 * Naval Architect` finds the `Engineer 1` records (recorded 2026-10-10, tests/unit/ceilingrates/recorded.test.ts).
 */
function fieldText(param: string, value: string, { toSecondColon = false } = {}): FieldText {
  const colon = value.indexOf(':');
  if (colon < 0) throw new NotAcceptable(`Invalid ${param}: expected <field>:<text>`);
  const field = value.slice(0, colon);
  if (!isSearchField(field)) throw new NotAcceptable(`Invalid ${param} field: ${field}`);
  const text = value.slice(colon + 1);
  const second = toSecondColon ? text.indexOf(':') : -1;
  return { field, text: second < 0 ? text : text.slice(0, second) };
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

const GRAMMARS: { [G in FilterGrammar]: (alternatives: string[], name: string) => GrammarValues[G] } = {
  exact: (alternatives) => ({ values: alternatives }),
  trimmed: (alternatives) => ({ values: alternatives.map((a) => a.trim()) }),
  range: (alternatives, name) => ({ ranges: alternatives.map((a) => range(a, name)) }),
  number: (alternatives, name) => ({ values: alternatives.map((a) => number(a, name)) }),
  sin: (alternatives) => ({ codes: alternatives.map((a) => normalizeSinCode(a.trim())) }),
  phrase: (alternatives) => ({ phrases: alternatives }),
  class: (alternatives) => ({ classes: alternatives.map((a) => a.trim().toLowerCase()) }),
};

/**
 * One `filter=` value (`<name>:<value>`) → a typed filter, or NotAcceptable. Pure: the UI reads its
 * hash's filters with it too.
 */
export function parseFilter(raw: string): Filter {
  const { name, value } = splitFilter(raw);
  const grammar = FILTER_GRAMMAR.get(name);
  if (grammar === undefined) throw new NotAcceptable(`Unknown filter: ${name}`);
  const alternatives = value.split('|');
  const ours = PRODUCTION_VALUES[name];
  // The table pairs each name with its grammar; TypeScript cannot follow a Map lookup to that pairing.
  return { name, ...GRAMMARS[grammar](ours ? alternatives.map(ours) : alternatives, name) } as Filter;
}

/** Filter values in production's 2026 vocabulary read as the data holds them (vocabulary.ts), in every dialect. */
const PRODUCTION_VALUES: Partial<Record<string, (value: string) => string>> = {
  education_level: educationCode,
  security_clearance: clearanceFilterClass,
  site: worksiteWords,
};

function integer(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\s*\d+\s*$/.test(raw)) throw new NotAcceptable(`Invalid ${name}: ${raw} (expected a positive integer)`);
  return Number(raw);
}

/**
 * The orderings with their paired sorts. A field given again is redundant (its first occurrence already
 * decides every tie the repeat could): the repeat and its sort are skipped, so there are at most as many
 * keys as orderable fields. Every value is still validated.
 */
function ordering(query: URLSearchParams): OrderSpec[] {
  const fields = query.getAll('ordering').filter((f) => f.trim() !== '');
  const sorts = query.getAll('sort');
  const seen = new Set<OrderField>();
  const specs: OrderSpec[] = [];
  fields.forEach((raw, i) => {
    const field = raw.trim();
    if (!isOrderField(field)) throw new NotAcceptable(`Invalid ordering field: ${field}`);
    const direction = (sorts[i] ?? ceilingRatesParameter('sort').default).trim().toLowerCase();
    if (!(SORT_DIRECTIONS as readonly string[]).includes(direction)) {
      throw new NotAcceptable(`Invalid sort: ${sorts[i]} (expected ${SORT_DIRECTIONS.join(' or ')})`);
    }
    if (seen.has(field)) return;
    seen.add(field);
    specs.push({ field, desc: direction === 'desc' });
  });
  return specs;
}

/** A size problem (engine/http/request-size.ts) as a 406 detail naming the parameter and the limit. */
export function sizeDetail(problem: SizeProblem): string {
  switch (problem.kind) {
    case 'query-length':
      return `Invalid query: at most ${problem.limit} characters (got ${problem.actual})`;
    case 'parameters':
      return `Invalid query: at most ${problem.limit} parameters (got ${problem.actual})`;
    case 'count':
      return `Invalid ${problem.parameter}: at most ${problem.limit} values (got ${problem.actual})`;
    case 'length':
      return `Invalid ${problem.parameter}: at most ${problem.limit} characters (got ${problem.actual})`;
    case 'list':
      return problem.parameter === 'exclude'
        ? `Invalid exclude: at most ${problem.limit} ids (got ${problem.actual})`
        : `Invalid ${problem.parameter}: at most ${problem.limit} alternatives (got ${problem.actual})`;
  }
}

/**
 * Query parameters → a typed query. `search` is the URL's query string as sent (`?…`), measured against the
 * request size limits first.
 */
export function parseQuery(query: URLSearchParams, search = `?${query.toString()}`): CeilingRatesQuery {
  const problem = sizeProblem(CEILING_RATES_PARAMETERS, search, query);
  if (problem) throw new NotAcceptable(sizeDetail(problem));
  return parseWithinLimits(query);
}

function parseWithinLimits(query: URLSearchParams): CeilingRatesQuery {
  const searches = query
    .getAll('search')
    .map((s) => fieldText('search', s, { toSecondColon: true }))
    .filter(({ text }) => text !== '');

  const keywordRaw = (query.get('keyword') ?? '').trim();
  const keywordMin = ceilingRatesParameter('keyword').minLength;
  if (keywordRaw.length > 0 && keywordRaw.length < keywordMin) {
    throw new NotAcceptable(`Invalid keyword: at least ${keywordMin} characters are required`);
  }

  const filters = query
    .getAll('filter')
    .filter((raw) => !isIgnoredFilter(raw))
    .map(parseFilter);

  const exclude = query
    .getAll('exclude')
    .flatMap((e) => e.split('|'))
    .map((e) => e.trim())
    .filter((e) => /^\d+$/.test(e))
    .map(Number);

  const page = integer(query, PAGE.name, PAGE.default);
  const pageSize = integer(query, PAGE_SIZE.name, PAGE_SIZE.default);
  if (page < PAGE.min) throw new NotAcceptable(`Invalid page: ${page} (pages start at ${PAGE.min})`);
  if (pageSize < PAGE_SIZE.min || pageSize > PAGE_SIZE.max) {
    throw new NotAcceptable(`Invalid page_size: ${pageSize} (${PAGE_SIZE.min} to ${PAGE_SIZE.max})`);
  }
  if (page * pageSize > RESULT_WINDOW) {
    throw new NotAcceptable(`Invalid page: page * page_size must not exceed the result window of ${RESULT_WINDOW}`);
  }

  const contains = query.get('suggest-contains');
  let suggestContains: SuggestContains | null = null;
  if (contains !== null) {
    const spec = fieldText('suggest-contains', contains);
    // A typeahead's first key press: production answers with no buckets, not an error.
    suggestContains = { ...spec, tooShort: spec.text.trim().length < (ceilingRatesParameter('suggest-contains').emptyBelow ?? 0) };
  }
  const suggest = query.getAll('suggest').map((s) => {
    const spec = fieldText('suggest', s);
    if (spec.text.trim().length < ceilingRatesParameter('suggest').minLength) throw new NotAcceptable('Invalid suggest: the text is empty');
    return spec;
  });

  const order = ordering(query);
  return {
    searches,
    keyword: keywordRaw === '' ? null : keywordRaw,
    filters,
    exclude,
    ordering: order.length ? order : [{ field: ceilingRatesParameter('ordering').default, desc: false }],
    defaultOrdering: order.length === 0,
    page,
    pageSize,
    suggestContains,
    suggest,
    export: (query.get('export') ?? '').toLowerCase() === 'y',
  };
}
