/**
 * A ceiling-rates query as SQL over the tables `load` wrote (ceilingrates-tables.ts): the matching condition
 * (search, keyword, suggest-contains' text, filters, exclude) and the order. Every text comparison is against a
 * form the engine computed at load (folded values, worksite words, clearance classes, SIN codes, list
 * elements); the request's side is computed here with the same engine functions, so both sides are the
 * engine's. The rules are the engine's `query/match.ts` and `query/order.ts`.
 */
import { SEARCH_FIELDS, type CeilingRatesQuery, type FieldText, type Filter, type SearchField } from '../../../engine/ceilingrates/parse-query.ts';
import { RECORD_ORDER_FIELDS, type RecordOrderField } from '../../../engine/ceilingrates/parameters.ts';
import { fold } from '../../../engine/ceilingrates/text.ts';
import { codeColumn, COVERED, rankColumn, spacedWords, type TermField } from './ceilingrates-tables.ts';
import { notNullRateField } from './schema.ts';

/** Statement parameters, each added with its type. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
}

/**
 * Postgres text cannot hold U+0000, so no stored value contains one: a text with it matches nothing (as in the
 * engine, whose values hold none either) and is never sent (Postgres would refuse the statement).
 */
const storable = (text: string): boolean => !text.includes('\u0000');

/**
 * The records whose value of `field` passes `condition` (over `ceilingrate_terms`' columns). The codes as an
 * array (computed once), so the rows are found through the field's code index (ceilingrates-tables.ts).
 */
const inTerms = (field: TermField, condition: string): string =>
  `r.${codeColumn(field)} = ANY(ARRAY(SELECT code FROM ceilingrate_terms WHERE field = '${field}' AND ${condition}))`;

/** The records whose value of `field` holds one of `tokens` as a whole part (a SIN code, a list element). */
function inTokens(field: 'sin' | 'category' | 'subcategory', tokens: readonly string[], params: Params): string {
  const wanted = tokens.filter(storable);
  if (wanted.length === 0) return 'false';
  return `r.${codeColumn(field)} = ANY(ARRAY(SELECT code FROM ceilingrate_tokens WHERE field = '${field}' AND token = ANY(${params.add(wanted, 'text[]')})))`;
}

/**
 * The codes of a search field's values whose folded form contains a folded text, and how many values the field
 * has: the load's dictionary, matched in Node (ceilingrates-counts.ts `dictionariesOf`).
 */
export interface Dictionaries {
  containing(field: SearchField, needle: string): number[];
  size(field: SearchField): number;
}

/**
 * The records whose code in `field` is one of `codes` (of `size`): as the codes, through the field's index, or
 * for more than half of them as the codes left out, so no array is longer than half the dictionary.
 */
function inCodes(field: SearchField, codes: readonly number[], size: number, params: Params): string {
  if (codes.length === 0) return 'false';
  if (codes.length === size) return 'true';
  const column = `r.${codeColumn(field)}`;
  if (codes.length <= size / 2) return `${column} = ANY(${params.add(codes, 'int4[]')})`;
  const left: number[] = [];
  for (let code = 0, at = 0; code < size; code++) {
    if (codes[at] === code) at++;
    else left.push(code);
  }
  return `NOT (${column} = ANY(${params.add(left, 'int4[]')}))`;
}

/**
 * keyword and suggest-contains: the (trimmed, case-folded) text inside the folded value of a field, one
 * condition per field (any of which matches).
 */
function containsConditions(fields: readonly SearchField[], text: string, params: Params, dictionaries: Dictionaries): string[] {
  const needle = fold(text.trim());
  if (!storable(needle)) return ['false'];
  // Every value, the null one's '' included, contains the empty text.
  if (needle === '') return ['true'];
  return fields.map((field) => inCodes(field, dictionaries.containing(field, needle), dictionaries.size(field), params));
}

const anyOf = (conditions: readonly string[]): string => `(${conditions.join(' OR ')})`;

/** Inclusive ranges of a numeric column, any of which matches; a null value matches none. */
function inRanges(column: string, ranges: readonly (readonly [number, number])[], params: Params): string {
  if (ranges.length === 0) return 'false';
  return `(${ranges.map(([lo, hi]) => `r.${column} BETWEEN ${params.add(lo, 'float8')} AND ${params.add(hi, 'float8')}`).join(' OR ')})`;
}

function filterCondition(filter: Filter, params: Params): string {
  switch (filter.name) {
    case 'education_level':
    case 'business_size': {
      const values = filter.values.filter(storable);
      return values.length === 0 ? 'false' : inTerms(filter.name, `value = ANY(${params.add(values, 'text[]')})`);
    }
    case 'site': {
      const phrases = filter.phrases.map(spacedWords).filter((p): p is string => p !== null);
      if (phrases.length === 0) return 'false';
      return inTerms('worksite', `EXISTS (SELECT 1 FROM unnest(${params.add(phrases, 'text[]')}) AS phrase WHERE strpos(words, phrase) > 0)`);
    }
    case 'security_clearance': {
      const classes = filter.classes.filter(storable);
      return classes.length === 0 ? 'false' : inTerms('security_clearance', `clearance = ANY(${params.add(classes, 'text[]')})`);
    }
    case 'min_years_experience':
      return `r.min_years_experience = ANY(${params.add(filter.values, 'float8[]')})`;
    case 'experience_range':
      return inRanges('min_years_experience', filter.ranges, params);
    case 'current_price':
      return `r.current_price = ANY(${params.add(filter.values, 'float8[]')})`;
    case 'price_range':
      return inRanges('current_price', filter.ranges, params);
    case 'sin':
      return inTokens('sin', filter.codes, params);
    case 'category':
    case 'subcategory':
      return inTokens(filter.name, filter.values, params);
  }
}

/**
 * The conditions a record must all pass: search, keyword, every filter (suggest-contains' text), not excluded.
 * `filterSql` writes a filter's (matchCondition: filterCondition).
 */
function matchParts(query: CeilingRatesQuery, contains: FieldText | null, params: Params, dictionaries: Dictionaries, filterSql = filterCondition): string[] {
  const parts: string[] = [];
  // search: the whole stored value equals the text, case-sensitive and untrimmed.
  for (const { field, text } of query.searches) parts.push(storable(text) ? inTerms(field, `value = ${params.add(text, 'text')}`) : 'false');
  if (query.keyword !== null) parts.push(anyOf(containsConditions(SEARCH_FIELDS, query.keyword, params, dictionaries)));
  if (contains) parts.push(anyOf(containsConditions([contains.field], contains.text, params, dictionaries)));
  for (const filter of query.filters) parts.push(filterSql(filter, params));
  if (query.exclude.length > 0) parts.push(`NOT (r.id::float8 = ANY(${params.add(query.exclude, 'float8[]')}))`);
  return parts;
}

/** The records a query selects: search AND keyword AND every filter (AND suggest-contains' text), minus the excluded ids. */
export function matchCondition(query: CeilingRatesQuery, contains: FieldText | null, params: Params, dictionaries: Dictionaries): string {
  const parts = matchParts(query, contains, params, dictionaries);
  return parts.length === 0 ? 'true' : parts.join(' AND ');
}

/** A part of a query's matches: the rows of `from` (a relation `r` of ceilingrate_rows) passing `where`. */
export interface Branch {
  from: string;
  where: string;
}

/** The filters whose columns the labor category's index holds (ceilingrates-tables.ts COVERING_INDEX_SQL). */
const COVERED_FILTERS: ReadonlySet<Filter['name']> = new Set<Filter['name']>([
  'education_level',
  'business_size',
  'site',
  'security_clearance',
  'min_years_experience',
  'experience_range',
  'current_price',
  'price_range',
]);

/** Whether a search reads only columns the labor category's index holds: its filters', and a page in price or id order. */
const covered = (query: CeilingRatesQuery): boolean =>
  query.filters.every((filter) => COVERED_FILTERS.has(filter.name)) && orderFields(query).every(({ field }) => field === 'current_price');

/** Sorted codes as runs of consecutive codes: each run's first and last. */
function runsOf(codes: readonly number[]): [number[], number[]] {
  const firsts: number[] = [];
  const lasts: number[] = [];
  codes.forEach((code, i) => {
    if (i > 0 && codes[i - 1] === code - 1) lasts[lasts.length - 1] = code;
    else {
      firsts.push(code);
      lasts.push(code);
    }
  });
  return [firsts, lasts];
}

/**
 * The records a query selects as parts whose union is matchCondition's: a keyword's fields one by one, each
 * read through its own field's index (the labor category's covers a search's columns: ceilingrates-tables.ts),
 * not a bitmap of the three visiting nearly every table page. A labor category's matching codes are read as
 * runs of consecutive codes (values sharing a beginning sort together): one index descent a run, not one a
 * code (engineer: 372 runs of 3,005 labor codes). The parts overlap where a rate matches in two fields: the
 * reader keeps each rate once (row-codes.ts rowCodesOf, or UNION), where a part less the fields before it
 * cost more planning and comparing than the few rates it drops.
 */
export function matchBranches(query: CeilingRatesQuery, params: Params, dictionaries: Dictionaries): Branch[] {
  const rows = 'ceilingrate_rows r';
  const needle = query.keyword === null ? '' : fold(query.keyword.trim());
  // No keyword, or one every value holds or none can, or a search reading columns the index does not hold (its
  // parts would fetch every match's row one by one, where one bitmap of them reads each page once): one part.
  if (needle === '' || !storable(needle) || !covered(query)) return [{ from: rows, where: matchCondition(query, null, params, dictionaries) }];
  const others = matchParts({ ...query, keyword: null }, null, params, dictionaries).join(' AND ') || 'true';
  const branches: Branch[] = [];
  for (const field of SEARCH_FIELDS) {
    const codes = dictionaries.containing(field, needle);
    if (codes.length === 0) continue;
    if (field === COVERED) {
      const [firsts, lasts] = runsOf(codes);
      branches.push({
        from: `unnest(${params.add(firsts, 'int4[]')}, ${params.add(lasts, 'int4[]')}) AS k(first, last) JOIN ${rows} ON r.${codeColumn(field)} BETWEEN k.first AND k.last`,
        where: others,
      });
    } else {
      // The codes as an array: the planner estimates each code's rates, where a run's (a range joined to the
      // runs) is a guess that can turn a few hundred matches into a pass over every rate.
      branches.push({ from: rows, where: `r.${codeColumn(field)} = ANY(${params.add(codes, 'int4[]')}) AND ${others}` });
    }
  }
  // No field matches: still one part, naming every parameter the other conditions added.
  return branches.length > 0 ? branches : [{ from: rows, where: `false AND ${others}` }];
}

/**
 * The values outside inclusive ranges, as open ranges an index reads (below the lowest, between two, above the
 * highest), or a null value.
 */
function outsideRanges(column: string, ranges: readonly (readonly [number, number])[], params: Params): string {
  const merged: [number, number][] = [];
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last && lo <= last[1]) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  const c = `r.${column}`;
  const gaps = [`${c} IS NULL`];
  merged.forEach(([lo, hi], i) => {
    if (i === 0) gaps.push(`${c} < ${params.add(lo, 'float8')}`);
    const above = `${c} > ${params.add(hi, 'float8')}`;
    gaps.push(i === merged.length - 1 ? above : `(${above} AND ${c} < ${params.add(merged[i + 1][0], 'float8')})`);
  });
  return gaps.join(' OR ');
}

/**
 * The records a query leaves out (the complement of matchCondition): those failing one of its conditions, a
 * null one included. A range filter's complement is written as ranges, so a search matching most rates (the
 * app's default: price and experience ranges) finds the few others by index instead of reading every rate.
 */
export function restCondition(query: CeilingRatesQuery, params: Params, dictionaries: Dictionaries): string {
  // A filter's complement; every other condition's is "not true" (false or null).
  const failing = (filter: Filter, p: Params): string => {
    if (filter.name === 'price_range' && filter.ranges.length > 0) return outsideRanges('current_price', filter.ranges, p);
    if (filter.name === 'experience_range' && filter.ranges.length > 0) return outsideRanges('min_years_experience', filter.ranges, p);
    return NOT_TRUE(filterCondition(filter, p));
  };
  const parts = matchParts(query, null, params, dictionaries, failing);
  if (parts.length === 0) return 'false';
  const filtersFrom = query.searches.length + (query.keyword !== null ? 1 : 0);
  return parts.map((sql, i) => (i >= filtersFrom && i < filtersFrom + query.filters.length ? sql : NOT_TRUE(sql))).join(' OR ');
}

const NOT_TRUE = (sql: string): string => `(${sql}) IS NOT TRUE`;

export const isRecordOrderField = (field: string): field is RecordOrderField => (RECORD_ORDER_FIELDS as readonly string[]).includes(field);

/** The orderable fields a query's keys name that records hold (the others are null everywhere: no key). */
export function orderFields(query: CeilingRatesQuery): { field: RecordOrderField; desc: boolean }[] {
  return query.ordering.filter((o): o is { field: RecordOrderField; desc: boolean } => isRecordOrderField(o.field));
}

/**
 * ORDER BY of the query's keys over a relation `alias` holding the rank columns: nulls last either way, then id.
 * A field no record leaves empty has no null rank, so its descending key is written plainly (nulls first, which
 * orders the same): a backward scan of its rank index then yields it, where NULLS LAST would need a second index.
 */
export function orderBy(query: CeilingRatesQuery, alias: string): string {
  const keys = orderFields(query).map(
    ({ field, desc }) => `${alias}.${rankColumn(field)} ${desc ? 'DESC' : 'ASC'}${notNullRateField(field) ? '' : ' NULLS LAST'}`,
  );
  return [...keys, `${alias}.id`].join(', ');
}
