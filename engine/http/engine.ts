import type { Database } from 'sql.js';
import type { ApiRequest, ApiResponse, DatasetName } from './types.ts';
import type { ApiDefinition, RouteHandler } from './routes.ts';
import { contextOf } from './routes.ts';
import { finish, noRoute, routeAny, type Routed } from './route.ts';
import { json } from './respond.ts';
import { SNAPSHOT_LIST_ROUTE, type WeekEntry, type WeekSource } from './snapshots.ts';
import { DEFAULT_DIALECT, type Dialect } from '../dialect/dialect.ts';

/** What an engine tells its host. */
export interface EngineEvents {
  /**
   * An API that can prepare its bind (`ApiDefinition.prepared`) was bound from the records of `db`:
   * `prepared()` gives the bytes a platform may keep beside that database file, for a later `use` of the same file.
   * It copies the precomputation: call it off the way of an answer, and only while `db` is still in use.
   */
  preparedReady?(dataset: DatasetName, db: Database, prepared: () => Uint8Array): void;
}

/**
 * The one entry point: `answer(routed) → response` for a request a door routed (route.ts), or
 * `handle(request)` to route and answer in one call. Holds one database per dataset and each API's
 * handlers bound to it; swapping a dataset rebinds only the APIs that read it.
 */
export class Engine {
  private readonly bound = new Map<string, Record<string, RouteHandler>>();
  private readonly databases = new Map<DatasetName, Database>();
  /** Bytes an earlier bind of the same database file prepared, until the bind reads them. */
  private readonly prepared = new Map<DatasetName, Uint8Array>();
  /** The snapshot date of a dataset's database, when its API answers snapshots and the date is known. */
  private readonly snapshots = new Map<DatasetName, string>();
  /** The weeks a dataset holds beside its database (its weeks attachment), answered at their dated paths. */
  private readonly weekSources = new Map<DatasetName, WeekSource>();

  constructor(
    readonly apis: readonly ApiDefinition[],
    private readonly events: EngineEvents = {},
    /** The dialect of a request that names none (ApiRequest.dialect). */
    readonly dialect: Dialect = DEFAULT_DIALECT,
  ) {}

  /**
   * Install (or replace, or remove with null) the database behind a dataset. `prepared`: the bytes
   * `preparedReady` gave for this same database file earlier; the bind reads them instead of the records
   * when they fit. `snapshot`: the date of the records, so `/snapshots/<that date>/…` is answered too.
   */
  use(dataset: DatasetName, db: Database | null, prepared: Uint8Array | null = null, snapshot: string | null = null): void {
    // This connection is the file's only reader, so it holds its lock: in SQLite's default mode every
    // statement takes the lock again, looks for a hot journal and rereads page 1 to validate its cache,
    // which (through sql.js's file system) cost a cached search's answer more than the answer itself.
    if (db) {
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      this.databases.set(dataset, db);
    } else {
      this.databases.delete(dataset);
    }
    if (db && snapshot) this.snapshots.set(dataset, snapshot);
    else this.snapshots.delete(dataset);
    if (db && prepared) this.prepared.set(dataset, prepared);
    else this.prepared.delete(dataset);
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

  /**
   * Install (or remove with null) a dataset's attachment, its weeks: `/snapshots/<date>/…` then answers any week it
   * holds, straight from the weeks as stored. The active database goes on answering its own date.
   */
  attach(dataset: DatasetName, source: WeekSource | null): void {
    if (source) this.weekSources.set(dataset, source);
    else this.weekSources.delete(dataset);
  }

  /** The weeks a dataset answers at dated paths, oldest first: its older weeks and its own snapshot date. */
  snapshotList(dataset: DatasetName): WeekEntry[] {
    const weeks = new Map((this.weekSources.get(dataset)?.weeks() ?? []).map((w) => [w.date, w]));
    const own = this.snapshots.get(dataset);
    const db = this.databases.get(dataset);
    if (own && db && !weeks.has(own)) weeks.set(own, { date: own, count: Number(db.exec(`SELECT COUNT(*) FROM "${dataset}"`)[0].values[0][0]) });
    return [...weeks.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
  }

  database(dataset: DatasetName): Database | undefined {
    return this.databases.get(dataset);
  }

  /** Route and answer: for a caller that has a request, not a route (a path no API has gets Express's 404). */
  handle(request: ApiRequest): ApiResponse {
    return this.answer(routeAny(this.apis, request));
  }

  /** Every answer, HEAD and CORS included; a route reads the bound database. */
  answer(routed: Routed): ApiResponse {
    if (routed.kind === 'early') return routed.response;
    const { request } = routed;
    const api = this.apis.find((candidate) => candidate.id === routed.api);
    if (!api) return finish(request, noRoute(request.method.toUpperCase(), routed.pathname));
    if (routed.route === SNAPSHOT_LIST_ROUTE) return finish(request, json(200, { snapshots: this.snapshotList(api.dataset) }));
    // A week other than the active database's own is answered from the weeks as stored; one not held is Express's 404.
    const older = routed.snapshot !== null && routed.snapshot !== this.snapshots.get(api.dataset);
    try {
      const handlers = older ? (this.weekSources.get(api.dataset)?.handlers(routed.snapshot!) ?? null) : this.handlersFor(api);
      if (!handlers) return finish(request, older ? noRoute(request.method.toUpperCase(), routed.pathname) : api.errors.unavailable());
      const ctx = contextOf(routed);
      const answered = handlers[routed.route](ctx);
      // The one place a dialect acts: production's shape made from the interface's answer (no second query).
      const shape = (request.dialect ?? this.dialect) === 'production' ? api.production : undefined;
      return finish(request, shape ? shape.call(api, ctx, answered) : answered);
    } catch (error) {
      // The engine must stay usable: log with the request and answer in the API's own shape.
      console.error('engine: internal error', request.method, request.url, error);
      return finish(request, api.errors.internal());
    }
  }

  private handlersFor(api: ApiDefinition): Record<string, RouteHandler> | null {
    const cached = this.bound.get(api.id);
    if (cached) return cached;
    const db = this.databases.get(api.dataset);
    if (!db) return null;
    const handlers = this.bindPrepared(api, db) ?? this.bindRecords(api, db);
    this.bound.set(api.id, handlers);
    return handlers;
  }

  /** The handlers bound from prepared bytes, or null when there are none or they do not fit (then bound as usual). */
  private bindPrepared(api: ApiDefinition, db: Database): Record<string, RouteHandler> | null {
    const prepared = this.prepared.get(api.dataset);
    if (!prepared || !api.prepared) return null;
    this.prepared.delete(api.dataset);
    try {
      return api.prepared.bind(db, prepared);
    } catch (error) {
      console.warn(`engine: the prepared ${api.dataset} index does not fit its database; binding from the records`, error);
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
