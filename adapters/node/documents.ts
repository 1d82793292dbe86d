import { OPENAPI_DOCUMENTS, type DataLabels } from '../../engine/openapi/documents.ts';
import { json, withoutBody } from '../../engine/http/respond.ts';
import { withCors } from '../../engine/http/cors.ts';
import type { ApiResponse } from '../../engine/http/types.ts';

const cache = new Map<string, string>();

/**
 * The OpenAPI document published at this path, for GET and HEAD, its description naming where the served
 * datasets come from; null for any other path or method (the engine answers those). Readable cross-origin like the APIs, so an API client on another origin loads it.
 */
export function documentFor(pathname: string, method: string, data: DataLabels = {}): ApiResponse | null {
  const make = OPENAPI_DOCUMENTS[pathname];
  const verb = method.toUpperCase();
  if (!make || (verb !== 'GET' && verb !== 'HEAD')) return null;
  const key = `${pathname}\u0000${data.websites ?? ''}\u0000${data.ceilingrates ?? ''}`;
  let body = cache.get(key);
  if (body === undefined) {
    body = JSON.stringify(make(data));
    cache.set(key, body);
  }
  const response = withCors({ ...json(200, null), body });
  return verb === 'HEAD' ? withoutBody(response) : response;
}
