/**
 * Every API answered from Postgres, as an ApiBackend for the HTTP server. Everything but the data access
 * is the engine's: dispatch (routes, preflight, OPTIONS, methods, 404s), CORS and HEAD, the parsers, the
 * error bodies and the envelopes. The data access is the API's dataset's store (stores.ts).
 *
 * When the database is down, unreachable or holds no data, the request gets the API's own 503 and the log
 * one line; the server keeps answering, and the pool reconnects once the database is back.
 */
import type pg from 'pg';
import { APIS } from '../../../../engine/index.ts';
import { finish, routeAny, type Routed } from '../../../../engine/http/route.ts';
import { contextOf, type ApiDefinition, type RouteContext } from '../../../../engine/http/routes.ts';
import type { ApiRequest, ApiResponse } from '../../../../engine/http/types.ts';
import type { ApiBackend } from '../backend.ts';
import { storeOf } from './stores.ts';
import { oneLine } from './pool.ts';

/** An error of the database or of reaching it (pg's errors carry a SQLSTATE or a system error code). */
const isDatabaseError = (error: unknown): boolean =>
  typeof (error as { code?: unknown }).code === 'string' || /connect|terminat|timeout/i.test(String((error as Error).message));

/**
 * Postgres' "undefined table" and "undefined column": a database no `load` has written to, or none of this
 * version (a table or column it adds).
 */
const OLDER_LAYOUT = new Set(['42P01', '42703']);

export class PostgresAnswers implements ApiBackend {
  readonly apis: readonly ApiDefinition[] = APIS;
  /** The last problem logged, so a database that stays down is not logged once per request. */
  private lastProblem = '';

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: (line: string) => void = (line) => console.error(line),
  ) {}

  /** Route and answer, for a caller with a plain request (the bench, tests). */
  handle(request: ApiRequest): Promise<ApiResponse> {
    return this.answer(routeAny(this.apis, request));
  }

  async answer(routed: Routed): Promise<ApiResponse> {
    if (routed.kind === 'early') return routed.response;
    const { request } = routed;
    const api = this.apis.find((candidate) => candidate.id === routed.api)!;
    try {
      const response = await this.read(api, routed.route, contextOf(routed), routed.snapshot, request);
      this.lastProblem = '';
      return finish(request, response);
    } catch (error) {
      this.report(error);
      return finish(request, api.errors.unavailable());
    }
  }

  /** Reach the database once now, so a replica that cannot says so at start. */
  async warm(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  /** Nothing is held beside the pool (which its owner ends). */
  close(): void {}

  private async read(api: ApiDefinition, route: string, ctx: RouteContext, snapshot: string | null, request: ApiRequest): Promise<ApiResponse> {
    const store = storeOf(api.dataset);
    if (!store) return api.errors.unavailable();
    try {
      return await store.answer(this.pool, { api, route, ctx, snapshot, request });
    } catch (error) {
      // A database problem is the 503 answer() gives; anything else is the API's 500, as in the engine.
      if (isDatabaseError(error)) throw error;
      // As the engine does: an internal error is logged with its request and answered in the API's shape.
      console.error('engine: internal error', request.method, request.url, error);
      return api.errors.internal();
    }
  }

  private report(error: unknown): void {
    const code = (error as { code?: string }).code;
    const line =
      code !== undefined && OLDER_LAYOUT.has(code)
        ? 'postgres: the database holds no offline-gov-api data, or an older layout of it; run `offline-gov-api load --database <url>`'
        : `postgres: ${oneLine(error)}`;
    if (line !== this.lastProblem) this.log(line);
    this.lastProblem = line;
  }
}
