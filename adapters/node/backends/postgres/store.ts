/**
 * What the Postgres door needs of a dataset: how its records are loaded, which tables the load fills, and how
 * a routed request is answered, and its part of the schema. Each dataset declares its store beside its own Postgres module; stores.ts
 * registers them, keyed by the dataset registry's names, so the shared files never name a dataset.
 */
import type pg from 'pg';
import type { Database } from 'sql.js';
import type { ApiDefinition, RouteContext } from '../../../../engine/http/routes.ts';
import type { ApiRequest, ApiResponse } from '../../../../engine/http/types.ts';

/** A dataset's records to load: the engine's SQLite tables, and where they came from. */
export interface LoadSource {
  db: Database;
  origin: string;
}

/** What every store's load may be told (a store ignores what does not concern it). */
export interface LoadOptions {
  /** The date of a dated dataset's snapshot; default: the store's own. */
  snapshot?: string;
}

/** A routed request as a store answers it. */
export interface StoreRequest {
  api: ApiDefinition;
  route: string;
  ctx: RouteContext;
  /** The `/snapshots/<date>/` a path named, else null. */
  snapshot: string | null;
  request: ApiRequest;
}

/** A store's part of the schema (schema.ts runs every store's). */
export interface StoreSchema {
  /** Statements that create its tables and indexes, run by every migration (so each is idempotent). */
  create: string;
  /** What a schema older than version `before` needs beyond `create`, run after it in this order. */
  upgrades: readonly { before: number; sql: string }[];
}

export interface PostgresStore<Loaded> {
  /** Its tables and their migrations. */
  schema: StoreSchema;
  /** The tables a load fills: analyzed once it has committed. */
  tables: readonly string[];
  /** Replace (or add) the dataset's records, inside the caller's transaction. */
  load(client: pg.PoolClient, source: LoadSource, options: LoadOptions): Promise<Loaded>;
  /** The line `load` prints for what it did, `where` being the database as shown. */
  describe(loaded: Loaded, where: string): string;
  /** The answer; thrown database errors become the API's 503, any other error its 500. */
  answer(pool: pg.Pool, request: StoreRequest): Promise<ApiResponse>;
}
