/** Response shapes of the ceiling-rates API: the search-engine envelope, its headers, DRF-style errors. */
import type { ApiResponse } from '../http/types.ts';
import { json, JSON_TYPE, text } from '../http/respond.ts';
import { NotAcceptable, parseQuery, RESULT_WINDOW, type CeilingRatesQuery } from './parse-query.ts';
import type { RouteContext } from '../http/routes.ts';
import { sortJson } from './json.ts';

/** Every response carries these, errors included (the production web framework's convention). */
export const HEADERS = { allow: 'GET, HEAD, OPTIONS', vary: 'Accept' } as const;

export const respond = (status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse => json(status, body, { ...HEADERS, ...headers });
export const detail = (status: number, message: string, headers: Record<string, string> = {}): ApiResponse => respond(status, { detail: message }, headers);
/** A JSON body already serialised (search responses splice SQLite's `_source` JSON in as text). */
export const respondJson = (body: string): ApiResponse => text(200, body, JSON_TYPE, { ...HEADERS });
export const csv = (body: string): ApiResponse =>
  text(200, body, 'text/csv; charset=utf-8', { ...HEADERS, 'content-disposition': 'attachment; filename="pricing_results.csv"' });

export interface SearchEnvelope<A> {
  took: number;
  timed_out: false;
  _shards: { total: 1; successful: 1; skipped: 0; failed: 0 };
  hits: {
    total: { value: number; relation: 'eq' | 'gte' };
    max_score: null;
    hits: never[];
  };
  aggregations: A;
}

/** hits.total: the count up to the 10,000 cap, `gte` beyond it. */
export function total(count: number): { value: number; relation: 'eq' | 'gte' } {
  return count > RESULT_WINDOW ? { value: RESULT_WINDOW, relation: 'gte' } : { value: count, relation: 'eq' };
}

export function envelope<A>(started: number, count: number, hits: never[], aggregations: A): SearchEnvelope<A> {
  return {
    took: Math.max(0, Math.round(performance.now() - started)),
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: { total: total(count), max_score: null, hits },
    aggregations,
  };
}

const SHARDS = '{"total":1,"successful":1,"skipped":0,"failed":0}';

/** One hit as JSON text around the record's `_source` JSON; `doubles`: which `sort` values are prices (`15.0`). */
export function hitJson(id: number, sourceJson: string, sort: readonly (number | string | null)[], doubles: readonly boolean[]): string {
  return `{"_index":"ceilingrates","_id":"${id}","_score":null,"_source":${sourceJson},"sort":${sortJson(sort, doubles)}}`;
}

/** The envelope as JSON text, same keys and order as `envelope`, around the aggregations' JSON (json.ts). */
export function envelopeJson(started: number, count: number, hits: readonly string[], aggregationsText: string): string {
  const took = Math.max(0, Math.round(performance.now() - started));
  return `{"took":${took},"timed_out":false,"_shards":${SHARDS},"hits":{"total":${JSON.stringify(total(count))},"max_score":null,"hits":[${hits.join(',')}]},"aggregations":${aggregationsText}}`;
}

/** A search's query, or the 406 answer to parameters the API refuses that way (both backends answer alike). */
export function parseSearch(ctx: RouteContext): { query: CeilingRatesQuery } | { refused: ApiResponse } {
  try {
    return { query: parseQuery(ctx.query, ctx.search) };
  } catch (error) {
    if (error instanceof NotAcceptable) return { refused: detail(406, error.detail) };
    throw error;
  }
}
