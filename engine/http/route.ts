/**
 * The one router: a request becomes a `Routed` once, at the door that received it, and every backend
 * (the engine in this thread, a worker thread's, the DB worker behind the service worker, PostgreSQL)
 * answers that value without routing again. A `Routed` is plain data so it crosses workers and ports.
 *
 * Order of checks, the same for every backend: a malformed URL, a path no API has, a CORS preflight, a
 * path under an API's base that names no route, OPTIONS, a method the route does not take; only then is
 * the route's data read.
 */
import type { ApiRequest, ApiResponse, Routed, RoutedEarly, RoutedToData } from './types.ts';
import { contextOf, type ApiDefinition } from './routes.ts';
import { matchRoute } from './match.ts';
import { json, RETRY_AFTER_SECONDS, withoutBody } from './respond.ts';
import { isPreflight, preflight, withCors } from './cors.ts';
import { isSnapshotList, SNAPSHOT_LIST_ROUTE, splitSnapshotPath } from './snapshots.ts';
import { belowMount, ROOT_MOUNT, type Mount } from './mount.ts';

const ORIGIN = 'http://localhost';

export type { Routed, RoutedEarly, RoutedToData } from './types.ts';

/** The answer to a path that is no API's: Express's words, which is what a client of either API meets. */
export function noRoute(method: string, pathname: string): ApiResponse {
  return json(404, { message: `Cannot ${method} ${pathname}`, error: 'Not Found', statusCode: 404 });
}

/**
 * HEAD is the GET's status and headers with no body, for every answer: 404s and 400s included. Every
 * answer may be read from any origin (cors.ts), and every 503 says when to try again. The one place all
 * three are applied.
 */
export function finish(request: ApiRequest, response: ApiResponse): ApiResponse {
  const retry = response.status === 503 ? { 'retry-after': String(RETRY_AFTER_SECONDS) } : null;
  const answered = withCors(retry ? { ...response, headers: { ...response.headers, ...retry } } : response);
  return request.method.toUpperCase() === 'HEAD' ? withoutBody(answered) : answered;
}

function early(request: ApiRequest, api: ApiDefinition | null, response: ApiResponse): RoutedEarly {
  return { kind: 'early', request, api: api?.id ?? null, dataset: api?.dataset ?? null, response: finish(request, response) };
}

/**
 * The route of a request, or null when its path is no API's (the app's own files, which a door serves
 * itself). `mount`: the deployment's base path (mount.ts), decided once by the door; a path outside it is no
 * API's, and below it everything routes as at an origin's root. Paths under `/snapshots/<YYYY-MM-DD>/` route as
 * the path below the prefix, with the date preserved.
 */
export function route(apis: readonly ApiDefinition[], request: ApiRequest, mount: Mount = ROOT_MOUNT): Routed | null {
  let url: URL;
  try {
    url = new URL(request.url, ORIGIN);
  } catch {
    return early(request, null, json(400, { message: 'Malformed URL', error: 'Bad Request', statusCode: 400 }));
  }
  const pathname = belowMount(url.pathname, mount);
  if (pathname === null) return null;
  if (isSnapshotList(pathname)) return snapshotList(apis, request, url, pathname, mount);
  const dated = splitSnapshotPath(pathname);
  const below = dated ? dated.pathname : pathname;
  const method = request.method.toUpperCase();
  const match = matchRoute(apis, below);
  if (!match) return dated ? early(request, null, noRoute(method, below)) : null;
  const { api } = match;
  if (isPreflight(request)) return early(request, api, preflight(request));
  if (!match.route) return early(request, api, api.errors.notFound({ method, path: below }));

  const routed: RoutedToData = {
    kind: 'route',
    request,
    api: api.id,
    dataset: api.dataset,
    route: match.route.name,
    params: match.params,
    base: match.base,
    path: match.path,
    search: url.search,
    snapshot: dated?.snapshot ?? null,
    pathname,
    // The route's path ends the request's: what comes before it is the mount, the week and the base as sent.
    prefix: url.pathname.slice(0, url.pathname.length - match.path.length),
  };
  if (method === 'OPTIONS' && api.options) return early(request, api, api.options(contextOf(routed)));
  if (method !== 'HEAD' && !api.allow.includes(method)) return early(request, api, api.errors.methodNotAllowed({ method, path: below }));
  // Only an API that answers snapshots has dated paths; which dates are held is the backend's to say.
  if (dated && !api.snapshots) return early(request, api, noRoute(method, pathname));
  return routed;
}

/** `/snapshots`: the weeks held, a route of the API that answers snapshots (each backend lists its own). */
function snapshotList(apis: readonly ApiDefinition[], request: ApiRequest, url: URL, pathname: string, mount: Mount): Routed | null {
  const api = apis.find((candidate) => candidate.snapshots);
  if (!api) return null;
  const method = request.method.toUpperCase();
  if (isPreflight(request)) return early(request, api, preflight(request));
  if (method !== 'GET' && method !== 'HEAD') return early(request, api, api.errors.methodNotAllowed({ method, path: pathname }));
  return {
    kind: 'route',
    request,
    api: api.id,
    dataset: api.dataset,
    route: SNAPSHOT_LIST_ROUTE,
    params: {},
    base: '',
    path: pathname,
    search: url.search,
    snapshot: null,
    pathname,
    prefix: mount,
  };
}

/** The route of any request: a path no API has is answered early with Express's 404 (for callers with no files of their own). */
export function routeAny(apis: readonly ApiDefinition[], request: ApiRequest, mount: Mount = ROOT_MOUNT): Routed {
  const routed = route(apis, request, mount);
  if (routed) return routed;
  return early(request, null, noRoute(request.method.toUpperCase(), new URL(request.url, ORIGIN).pathname));
}

/** The API a routed request belongs to. */
export function apiOf(apis: readonly ApiDefinition[], routed: Routed): ApiDefinition | undefined {
  return routed.api === null ? undefined : apis.find((api) => api.id === routed.api);
}

/**
 * A routed request answered with its API's own failure instead (the engine could not answer, a fault
 * was asked for, the dataset is not here yet), finished like every answer. A URL no API owns gets a 500
 * in Express's words.
 */
export function failed(apis: readonly ApiDefinition[], routed: Routed, failure: 'internal' | 'unavailable'): ApiResponse {
  const api = apiOf(apis, routed);
  const response = api ? api.errors[failure]() : json(500, { message: 'Internal Server Error', statusCode: 500 });
  return finish(routed.request, response);
}
