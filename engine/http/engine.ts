import type { Database } from 'sql.js';
import type { ApiRequest, ApiResponse, DatasetName } from './types.ts';
import type { ApiDefinition, RouteHandler } from './routes.ts';
import { contextOf } from './routes.ts';
import { finish, noRoute, routeAny, type Routed } from './route.ts';
import { json } from './respond.ts';
import { SNAPSHOT_LIST_ROUTE, type SnapshotEntry, type WeekSource } from './snapshots.ts';

/** One older week bound for dated requests: its database and each API's handlers over it. */
interface BoundWeek {
  db: Database;
  handlers: Map<string, Record<string, RouteHandler>>;
}
import { DEFAULT_DIALECT, type Dialect } from '../dialect/dialect.ts';

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
 * The one entry point: `answer(routed) → response` for a request a door routed (route.ts), or
 * `handle(request)` to route and answer in one call. Holds one database per dataset and each API's
 * handlers bound to it; swapping a dataset rebinds only the APIs that read it.
 */
export class Engine {
  private readonly bound = new Map<string, Record<string, RouteHandler>>();
  private readonly databases = new Map<DatasetName, Database>();
  /** Bytes an earlier bind of the same database file kept, until the bind reads them. */
  private readonly kept = new Map<DatasetName, Uint8Array>();
  /** The snapshot date of a dataset's database, when its API keeps snapshots and the date is known. */
  private readonly snapshots = new Map<DatasetName, string>();
  /** The weeks a dataset holds beside its database (the built-in weeks dataset), answered at their dated paths. */
  private readonly weekSources = new Map<DatasetName, WeekSource>();
  /** The weeks bound lately, least recently used first (a week's database is rebuilt, ~50 MB: few are kept). */
  private readonly boundWeeks = new Map<string, BoundWeek>();
  /** How many weeks stay bound at once: two is what comparing any two weeks asks for. */
  static readonly WEEKS_BOUND = 2;

  constructor(
    readonly apis: readonly ApiDefinition[],
    private readonly events: EngineEvents = {},
    /** The dialect of a request that names none (ApiRequest.dialect). */
    readonly dialect: Dialect = DEFAULT_DIALECT,
  ) {}

  /**
   * Install (or replace, or remove with null) the database behind a dataset. `kept`: the bytes
   * `preparedReady` gave for this same database file earlier; the bind reads them instead of the records
   * when they fit. `snapshot`: the date of the records, so `/snapshots/<that date>/…` is answered too.
   */
  use(dataset: DatasetName, db: Database | null, kept: Uint8Array | null = null, snapshot: string | null = null): void {
    // This connection is the file's only reader, so it keeps its lock: in SQLite's default mode every
    // statement takes the lock again, looks for a hot journal and rereads page 1 to validate its cache,
    // which (through sql.js's file system) cost a kept search's answer more than the answer itself.
    if (db) {
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      this.databases.set(dataset, db);
    } else {
      this.databases.delete(dataset);
    }
    if (db && snapshot) this.snapshots.set(dataset, snapshot);
    else this.snapshots.delete(dataset);
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

  /**
   * Install (or remove with null) the older weeks of a dataset: `/snapshots/<date>/…` then answers any week it
   * holds, each week's database made on its first request. The active database keeps answering its own date.
   */
  useWeeks(dataset: DatasetName, source: WeekSource | null): void {
    for (const [key, week] of this.boundWeeks) {
      if (key.startsWith(`${dataset}\u0000`)) {
        week.db.close();
        this.boundWeeks.delete(key);
      }
    }
    if (source) this.weekSources.set(dataset, source);
    else this.weekSources.delete(dataset);
  }

  /** The weeks a dataset answers at dated paths, oldest first: its older weeks and its own snapshot date. */
  snapshotList(dataset: DatasetName): SnapshotEntry[] {
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
    const older = routed.snapshot !== null && routed.snapshot !== this.snapshots.get(api.dataset);
    if (
      older &&
      !this.weekSources
        .get(api.dataset)
        ?.weeks()
        .some((w) => w.date === routed.snapshot)
    ) {
      return finish(request, noRoute(request.method.toUpperCase(), routed.pathname));
    }
    try {
      const handlers = older ? this.weekHandlers(api, routed.snapshot!) : this.handlersFor(api);
      if (!handlers) return finish(request, api.errors.unavailable());
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

  /**
   * A week the dataset holds beside its database, as its dated requests read it, or null when it holds no such
   * week: the features read the same copy (comparing two weeks rebuilds neither when requests bound them). The
   * engine keeps it: not to be closed, and read before a third week is asked for (WEEKS_BOUND).
   */
  heldWeek(dataset: DatasetName, date: string): Database | null {
    return this.bindWeek(dataset, date)?.db ?? null;
  }

  /** An older week's handlers: bound on its first request. */
  private weekHandlers(api: ApiDefinition, date: string): Record<string, RouteHandler> | null {
    const week = this.bindWeek(api.dataset, date);
    if (!week) return null;
    let handlers = week.handlers.get(api.id);
    if (!handlers) week.handlers.set(api.id, (handlers = api.bind(week.db)));
    return handlers;
  }

  /** A week's database, made on its first need; the least recently asked week closed beyond WEEKS_BOUND. */
  private bindWeek(dataset: DatasetName, date: string): BoundWeek | null {
    const key = `${dataset}\u0000${date}`;
    let week = this.boundWeeks.get(key);
    if (week) {
      this.boundWeeks.delete(key);
    } else {
      const db = this.weekSources.get(dataset)?.open(date);
      if (!db) return null;
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      week = { db, handlers: new Map() };
      for (const [old, bound] of this.boundWeeks) {
        if (this.boundWeeks.size < Engine.WEEKS_BOUND) break;
        bound.db.close();
        this.boundWeeks.delete(old);
      }
    }
    this.boundWeeks.set(key, week);
    return week;
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
