import type { ApiRequest, ApiResponse } from '../../engine/http/types.ts';
import type { BinaryResponse } from '../browser/relay-protocol.ts';
import { APIS, matchRoute } from '../../engine/index.ts';
import { withCors } from '../../engine/http/cors.ts';
import type { ApiDefinition } from '../../engine/http/routes.ts';

/**
 * The API a same-origin URL belongs to, or null for the app's own files. Pure: decided from the path
 * alone, before any database is open.
 */
export function apiFor(url: URL, origin: string): ApiDefinition | null {
  if (url.origin !== origin) return null;
  return matchRoute(APIS, url.pathname)?.api ?? null;
}

/** Plain data for the engine or the relay: the method, the URL as the page asked it, and the headers. */
export function toApiRequest(request: Request): ApiRequest {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { method: request.method, url: request.url, headers };
}

/** Statuses whose response may not carry a body (the Response constructor throws otherwise). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** The engine's status, headers and body (its own text, or the relayed UTF-8 bytes), unchanged, as a fetch Response. */
export function toResponse(answer: ApiResponse | BinaryResponse, method: string): Response {
  const noBody = method.toUpperCase() === 'HEAD' || NULL_BODY_STATUS.has(answer.status);
  return new Response(noBody ? null : (answer.body as string | Uint8Array<ArrayBuffer>), { status: answer.status, headers: answer.headers });
}

/**
 * The answer when the service worker itself cannot answer (neither the relay nor its own engine): the API's own
 * 500 body, readable from any origin like every other answer of the engine's.
 */
export function internalErrorResponse(api: ApiDefinition, method: string): Response {
  return toResponse(withCors(api.errors.internal()), method);
}
