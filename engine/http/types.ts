import type { Dialect } from '../dialect/dialect.ts';

/** The whole API surface: one request in, one response out. Plain data so it crosses workers and ports. */
export interface ApiRequest {
  method: string;
  /** Absolute URL or path with query, e.g. `/websites?limit=3`. */
  url: string;
  headers?: Record<string, string>;
  /** The answer dialect (engine/dialect/dialect.ts); absent: the engine's own, `interface` unless it was opened otherwise. */
  dialect?: Dialect;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text, CSV text, or '' (HEAD, 204). */
  body: string;
}

/**
 * The datasets the engine can hold, one key each; each API reads exactly one. The registry
 * (engine/dataset-registry.ts) lists the built-in ones; another dataset adds its name by declaration merging
 * (`declare module '<path>/engine/http/types.ts' { interface DatasetNames { name: true } }`) beside its API.
 */
export interface DatasetNames {
  websites: true;
  ceilingrates: true;
}
export type DatasetName = keyof DatasetNames;

/** A request routed once by engine/http/route.ts: plain data, so it crosses workers and ports. */
export interface RoutedBase {
  request: ApiRequest;
  /** The API the path belongs to (its `id`); null only for a URL that could not be read. */
  api: string | null;
  dataset: DatasetName | null;
}

/** Answered before any data is read: a 400, 404, 405, preflight or OPTIONS, finished (CORS, HEAD). */
export interface RoutedEarly extends RoutedBase {
  kind: 'early';
  response: ApiResponse;
}

/** A route of an API to answer from its data. */
export interface RoutedToData extends RoutedBase {
  kind: 'route';
  api: string;
  dataset: DatasetName;
  /** The route's name in its API's handlers. */
  route: string;
  params: Record<string, string>;
  /** The accepted base the request came under ('' for the app root) and the path below it. */
  base: string;
  path: string;
  /** The URL's query string, `?` included ('' when none). */
  search: string;
  /** `/snapshots/<date>/…`: the Site Scanning snapshot asked for; null for the newest. */
  snapshot: string | null;
  /** The path below the deployment's mount, the snapshot prefix included (for the 404 of a snapshot nobody holds). */
  pathname: string;
  /**
   * Everything the request's path has before the route's own path, as sent: the deployment's mount, a
   * `/snapshots/<date>` prefix and the API's base (`/apps/gov/technology/site-scanning/v1`; '' at the app root).
   * Where the answer's own links point, so a client following them stays where it asked.
   */
  prefix: string;
}

export type Routed = RoutedEarly | RoutedToData;
