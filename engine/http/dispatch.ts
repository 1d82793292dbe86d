/**
 * Which answer a request gets before any data is read: a malformed URL, a path no API has, a CORS preflight,
 * a path under an API's base that names no route, OPTIONS, or a method the route does not take; otherwise
 * the route to answer and its context. One definition for every backend (the in-memory engine and the
 * Postgres backend in adapters/node/postgres), so they differ only in how a route reads its data.
 */
import type { ApiRequest, ApiResponse } from './types.ts';
import type { ApiDefinition, RouteContext, RouteSpec } from './routes.ts';
import { matchRoute } from './match.ts';
import { json, withoutBody } from './respond.ts';
import { isPreflight, preflight, withCors } from './cors.ts';

const ORIGIN = 'http://localhost';

export type Dispatch =
  | { kind: 'answered'; response: ApiResponse }
  | { kind: 'route'; api: ApiDefinition; route: RouteSpec; ctx: RouteContext };

/** The answer to a path that is no API's: Express's words, which is what a client of either API meets. */
export function noRoute(method: string, pathname: string): ApiResponse {
  return json(404, { message: `Cannot ${method} ${pathname}`, error: 'Not Found', statusCode: 404 });
}

export function dispatch(apis: readonly ApiDefinition[], request: ApiRequest): Dispatch {
  let url: URL;
  try {
    url = new URL(request.url, ORIGIN);
  } catch {
    return { kind: 'answered', response: json(400, { message: 'Malformed URL', error: 'Bad Request', statusCode: 400 }) };
  }
  const method = request.method.toUpperCase();
  const match = matchRoute(apis, url.pathname);
  if (!match) return { kind: 'answered', response: noRoute(method, url.pathname) };
  if (isPreflight(request)) return { kind: 'answered', response: preflight(request) };
  const { api, route } = match;
  if (!route) return { kind: 'answered', response: api.errors.notFound({ method, path: url.pathname }) };

  const ctx: RouteContext = { request, url, query: url.searchParams, params: match.params, base: match.base, path: match.path };
  if (method === 'OPTIONS' && api.options) return { kind: 'answered', response: api.options(ctx) };
  const isHead = method === 'HEAD';
  if (!isHead && !api.allow.includes(method)) return { kind: 'answered', response: api.errors.methodNotAllowed({ method, path: url.pathname }) };
  return { kind: 'route', api, route, ctx };
}

/**
 * HEAD is the GET's status and headers with no body, for every answer: 404s and 400s included. Every
 * answer may be read from any origin (cors.ts).
 */
export function finish(request: ApiRequest, response: ApiResponse): ApiResponse {
  const answered = withCors(response);
  return request.method.toUpperCase() === 'HEAD' ? withoutBody(answered) : answered;
}
