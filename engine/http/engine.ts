import type { Database } from 'sql.js';
import type { ApiRequest, ApiResponse, DatasetName } from './types.ts';
import type { ApiDefinition, RouteHandler } from './routes.ts';
import { matchRoute } from './match.ts';
import { json, withoutBody } from './respond.ts';
import { isPreflight, preflight, withCors } from './cors.ts';

const ORIGIN = 'http://localhost';

/** What an engine tells its host. */
export interface EngineEvents {
  /**
   * An API that can keep its bind (`ApiDefinition.prepared`) was bound from the records of `db`:
   * `prepared()` gives the bytes to keep beside that database file, for a later `use` of the same file.
   * It copies the precomputation: call it off the way of an answer, and only while `db` is still in use.
   */
  preparedReady?(dataset: DatasetName, db: Database, prepared: () => Uint8Array): void;
}

/**
 * The one entry point: `handle(request) → response`. Holds one database per dataset and each API's
 * handlers bound to it; swapping a dataset rebinds only the APIs that read it.
 */
export class Engine {
  private readonly bound = new Map<string, Record<string, RouteHandler>>();
  private readonly databases = new Map<DatasetName, Database>();
  /** Bytes an earlier bind of the same database file kept, until the bind reads them. */
  private readonly kept = new Map<DatasetName, Uint8Array>();

  constructor(
    readonly apis: readonly ApiDefinition[],
    private readonly events: EngineEvents = {},
  ) {}

  /**
   * Install (or replace, or remove with null) the database behind a dataset. `kept`: the bytes
   * `preparedReady` gave for this same database file earlier; the bind reads them instead of the records
   * when they fit.
   */
  use(dataset: DatasetName, db: Database | null, kept: Uint8Array | null = null): void {
    if (db) this.databases.set(dataset, db);
    else this.databases.delete(dataset);
    if (db && kept) this.kept.set(dataset, kept);
    else this.kept.delete(dataset);
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
    const handlers = this.bindKept(api, db) ?? this.bindRecords(api, db);
    this.bound.set(api.id, handlers);
    return handlers;
  }

  /** The handlers bound from kept bytes, or null when there are none or they do not fit (then bound as usual). */
  private bindKept(api: ApiDefinition, db: Database): Record<string, RouteHandler> | null {
    const kept = this.kept.get(api.dataset);
    if (!kept || !api.prepared) return null;
    this.kept.delete(api.dataset);
    try {
      return api.prepared.bind(db, kept);
    } catch (error) {
      console.warn(`engine: the kept ${api.dataset} index does not fit its database; binding from the records`, error);
      return null;
    }
  }

  private bindRecords(api: ApiDefinition, db: Database): Record<string, RouteHandler> {
    const handlers = api.bind(db);
    const { prepared } = api;
    if (prepared) this.events.preparedReady?.(api.dataset, db, () => prepared.save(db));
    return handlers;
  }
}
