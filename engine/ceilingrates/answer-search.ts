/**
 * GET /api/v3/search/ceilingrates/ answered over any store of the rates: the parsing, the dispatch between
 * suggest, suggest-contains, export and search, the aggregations (counted with the store's tables) and the
 * envelope are this one definition; a store only finds the rows (`RatesStore`). The in-memory index is a store
 * that answers at once, a database one that answers later: `answerSearch` is a generator that yields each
 * store call's result to be waited for, and `answerNow` or `answerLater` runs it.
 */
import type { RouteContext } from '../http/routes.ts';
import type { ApiResponse } from '../http/types.ts';
import type { CeilingRatesQuery, FieldText } from './parse-query.ts';
import type { RatesTables } from './rates-tables.ts';
import type { MatchSet } from './query/match-set.ts';
import { isDoubleOrder } from './columns/order-columns.ts';
import { cachedMatch, matchKey, type SearchCache } from './query/search-cache.ts';
import { containsAggregation, suggestBody, suggestJson } from './query/suggest.ts';
import { bucketsAggregation } from './query/terms.ts';
import { aggregationsJson } from './json.ts';
import { exportHead } from './export.ts';
import { csv, envelope, envelopeJson, hitJson, parseSearch, respond, respondJson } from './shape.ts';

/** A value now, or one to wait for. */
export type Awaitable<T> = T | PromiseLike<T>;

/** A hit of a page: the record's id, its `_source` JSON and its values of the order's fields (null for none). */
export interface PageHit {
  id: number;
  source: string;
  sort: readonly (number | string | null)[];
}

/** What a store found for a search: the tables it planned with, the match set, and the query's page of it. */
export interface Found {
  tables: RatesTables;
  match: MatchSet;
  page: PageHit[];
}

/** suggest-contains' matches: how many, and the field's code of each, `codes[rows[i]]` (codes by row) or `codes[i]`. */
export interface FieldCodes {
  tables: RatesTables;
  count: number;
  codes: ArrayLike<number>;
  rows?: ArrayLike<number>;
}

/**
 * Where the rates are: the tables searches are planned and counted with, and the rows a query selects. A store
 * plans a query with its tables (`matchPlan`) and executes the plan its own way.
 */
export interface RatesStore {
  /** The tables (a database's are its newest load's, read once per load). */
  tables(): Awaitable<RatesTables>;
  /** The searches cached by what they match, for a store whose records never change. */
  readonly searches?: SearchCache;
  /** The query's match set (`cached`, when one was cached) and its page in the query's order. */
  find(query: CeilingRatesQuery, cached: MatchSet | null): Awaitable<Found>;
  /** suggest-contains: the matches' count and each match's code of the text's field. */
  fieldCodes(query: CeilingRatesQuery, contains: FieldText): Awaitable<FieldCodes>;
  /** export=y: the matches' CSV rows (each ending in CRLF) in the query's order, up to the result window. */
  exportRows(query: CeilingRatesQuery, cached: MatchSet | null): Awaitable<string>;
}

/** An answer being made: it yields what it waits for and is resumed with its value. */
export type Answering<T> = Generator<Awaitable<unknown>, T, unknown>;

/** The value of a store call, waited for when the store answers later. */
function* awaited<T>(value: Awaitable<T>): Answering<T> {
  return (yield value) as T;
}

const isPending = (value: unknown): value is PromiseLike<unknown> => typeof (value as PromiseLike<unknown> | null)?.then === 'function';

/** The answer of a store that answers at once. */
export function answerNow<T>(answering: Answering<T>): T {
  for (let step = answering.next(); ;) {
    if (step.done) return step.value;
    if (isPending(step.value)) throw new Error('answerNow: the store answered later');
    step = answering.next(step.value);
  }
}

/** The answer of a store that answers later. */
export async function answerLater<T>(answering: Answering<T>): Promise<T> {
  for (let step = answering.next(); ;) {
    if (step.done) return step.value;
    step = answering.next(await step.value);
  }
}

export function* answerSearch(store: RatesStore, ctx: RouteContext): Answering<ApiResponse> {
  const started = performance.now();
  const parsed = parseSearch(ctx);
  if ('refused' in parsed) return parsed.refused;
  const { query } = parsed;
  if (query.suggest.length > 0) {
    const tables = yield* awaited(store.tables());
    return respondJson(suggestJson(suggestBody(tables, query.suggest)));
  }
  if (query.suggestContains) {
    const { field, tooShort } = query.suggestContains;
    // Under the minimum length (a typeahead's first key press): the same shape, matching nothing.
    if (tooShort) return respond(200, envelope(started, 0, [], { [field]: bucketsAggregation([], 0) }));
    const { tables, count, codes, rows } = yield* awaited(store.fieldCodes(query, query.suggestContains));
    return respond(200, envelope(started, count, [], { [field]: containsAggregation(tables, field, codes, rows) }));
  }
  const key = matchKey(query);
  const cached = store.searches?.get(key);
  // An export has no aggregations: a search cached earlier lends its matches, a new one is matched only.
  if (query.export) return csv(exportHead(ctx.query) + (yield* awaited(store.exportRows(query, cached?.match ?? null))));
  const { tables, match, page } = yield* awaited(store.find(query, cached?.match ?? null));
  let aggregations = cached?.aggregationsJson;
  if (aggregations === undefined) {
    aggregations = match.count === tables.size ? tables.everyRowAggregations() : aggregationsJson(tables.aggregator.aggregate(match));
    store.searches?.set(key, { match: cachedMatch(match), aggregationsJson: aggregations });
  }
  const doubles = query.ordering.map(({ field }) => isDoubleOrder(field));
  const hits = page.map(({ id, source, sort }) => hitJson(id, source, sort, doubles));
  return respondJson(envelopeJson(started, match.count, hits, aggregations));
}
