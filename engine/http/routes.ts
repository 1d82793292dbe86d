import type { Database } from 'sql.js';
import type { ApiResponse, DatasetName, RoutedToData } from './types.ts';

/** What a handler sees: the routed request (its path parameters, base, query string) and its query read. */
export interface RouteContext extends RoutedToData {
  /**
   * Query parameters in request order: `get` is the first value, `getAll` every one. URLSearchParams
   * decodes `+` as a space and leaves malformed percent sequences as literal text, as both services do.
   */
  query: URLSearchParams;
}

/** The context a handler reads, from a routed request. */
export function contextOf(routed: RoutedToData): RouteContext {
  return { ...routed, query: new URLSearchParams(routed.search) };
}

export type RouteHandler = (ctx: RouteContext) => ApiResponse;

/**
 * A path pattern below a base. `:name` matches one segment; `*name` matches the rest of the path,
 * slashes included (a pasted `https://x.gov/` inside `/websites/{url}`).
 */
export interface RouteSpec {
  name: string;
  pattern: string;
}

/** The error bodies each API answers in its own framework's shape. */
export interface ApiErrors {
  notFound(ctx: { method: string; path: string }): ApiResponse;
  /** A method the route does not answer (the path is the request's, below no base: as the client sent it). */
  methodNotAllowed(ctx: { method: string; path: string }): ApiResponse;
  internal(): ApiResponse;
  unavailable(): ApiResponse;
}

/**
 * One API: where it lives, which routes it has, how it fails, and how it binds to its database.
 * `bind` may precompute (it runs once per opened database, not per request).
 */
export interface ApiDefinition {
  id: string;
  dataset: DatasetName;
  /** Accepted base paths, longest first is not required: matching tries each. */
  bases: readonly string[];
  routes: readonly RouteSpec[];
  /** Methods answered from the route (GET implies HEAD). */
  allow: readonly string[];
  errors: ApiErrors;
  /** True when the API answers older snapshots too, under `/snapshots/<YYYY-MM-DD>/`. */
  snapshots?: boolean;
  /** Answer to OPTIONS on a matched route, when the API has one. */
  options?(ctx: RouteContext): ApiResponse;
  bind(db: Database): Record<string, RouteHandler>;
  /**
   * The production dialect's last shaping step (engine/dialect/): a route's answer, as the interface dialect gives
   * it, in production's names, types and order. Absent: production answers as the interface does.
   */
  production?(ctx: RouteContext, response: ApiResponse): ApiResponse;
  /**
   * For an API whose bind is worth keeping: its precomputation as bytes a platform may keep beside the
   * database file (`save`, once bound), and a bind that reads them instead of the records (`bind`, which
   * throws when the bytes are of another format or plainly of other records; the engine then binds as usual).
   */
  prepared?: {
    save(db: Database): Uint8Array;
    bind(db: Database, prepared: Uint8Array): Record<string, RouteHandler>;
  };
}
