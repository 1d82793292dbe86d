import type { Database } from 'sql.js';
import type { ApiRequest, ApiResponse, DatasetName } from './types.ts';
import type { ApiDefinition, RouteHandler } from './routes.ts';
import { matchRoute } from './match.ts';
import { json, withoutBody } from './respond.ts';
import { isPreflight, preflight, withCors } from './cors.ts';

const ORIGIN = 'http://localhost';

/**
 * The one entry point: `handle(request) → response`. Holds one database per dataset and each API's
 * handlers bound to it; swapping a dataset rebinds only the APIs that read it.
 */
export class Engine {
  private readonly bound = new Map<string, Record<string, RouteHandler>>();
  private readonly databases = new Map<DatasetName, Database>();

  constructor(readonly apis: readonly ApiDefinition[]) {}

  /** Install (or replace, or remove with null) the database behind a dataset. */
  use(dataset: DatasetName, db: Database | null): void {
    if (db) this.databases.set(dataset, db);
    else this.databases.delete(dataset);
    for (const api of this.apis) {
      if (api.dataset === dataset) this.bound.delete(api.id);
    }
  }

  /**
   * Bind now the APIs that read this dataset (their precomputation, which the first request would
   * otherwise pay), so a caller can choose when that CPU work runs.
   */
  prepare(dataset: DatasetName): void {
    for (const api of this.apis) if (api.dataset === dataset) this.handlersFor(api);
  }

  database(dataset: DatasetName): Database | undefined {
    return this.databases.get(dataset);
  }

  /**
   * HEAD is the GET's status and headers with no body, for every answer: 404s and 400s included. Every
   * answer may be read from any origin (cors.ts).
   */
  handle(request: ApiRequest): ApiResponse {
    const response = withCors(this.answer(request));
    return request.method.toUpperCase() === 'HEAD' ? withoutBody(response) : response;
  }

  private answer(request: ApiRequest): ApiResponse {
    let url: URL;
    try {
      url = new URL(request.url, ORIGIN);
    } catch {
      return json(400, { message: 'Malformed URL', error: 'Bad Request', statusCode: 400 });
    }
    const method = request.method.toUpperCase();
    const match = matchRoute(this.apis, url.pathname);
    if (!match) {
      return json(404, { message: `Cannot ${method} ${url.pathname}`, error: 'Not Found', statusCode: 404 });
    }
    if (isPreflight(request)) return preflight(request);
    const { api, route } = match;
    if (!route) return api.errors.notFound({ method, path: url.pathname });

    const ctx = {
      request,
      url,
      query: url.searchParams,
      params: match.params,
      base: match.base,
      path: match.path,
    };
    if (method === 'OPTIONS' && api.options) return api.options(ctx);
    const isHead = method === 'HEAD';
    if (!isHead && !api.allow.includes(method)) return api.errors.methodNotAllowed({ method, path: url.pathname });

    try {
      const handlers = this.handlersFor(api);
      if (!handlers) return api.errors.unavailable();
      return handlers[route.name](ctx);
    } catch (error) {
      // The engine must stay usable: log with the request and answer in the API's own shape.
      console.error('engine: internal error', request.method, request.url, error);
      return api.errors.internal();
    }
  }

  private handlersFor(api: ApiDefinition): Record<string, RouteHandler> | null {
    const cached = this.bound.get(api.id);
    if (cached) return cached;
    const db = this.databases.get(api.dataset);
    if (!db) return null;
    const handlers = api.bind(db);
    this.bound.set(api.id, handlers);
    return handlers;
  }
}
