import type { Database } from 'sql.js';
import type { ApiRequest, ApiResponse, DatasetName } from './types.ts';
import type { ApiDefinition, RouteHandler } from './routes.ts';
import { dispatch, finish } from './dispatch.ts';

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

  /** Every answer, HEAD and CORS included, as dispatch.ts routes it; the route reads the bound database. */
  handle(request: ApiRequest): ApiResponse {
    return finish(request, this.answer(request));
  }

  private answer(request: ApiRequest): ApiResponse {
    const routed = dispatch(this.apis, request);
    if (routed.kind === 'answered') return routed.response;
    const { api, route, ctx } = routed;
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
