import { OPENAPI_DOCUMENTS, type DataLabels } from '../../../engine/openapi/documents.ts';
import { json } from '../../../engine/http/respond.ts';
import { finish } from '../../../engine/http/route.ts';
import type { ApiRequest, ApiResponse } from '../../../engine/http/types.ts';
import { inProductionDialect } from '../../../engine/openapi/production.ts';
import type { Dialect } from '../../../engine/dialect/dialect.ts';

const cache = new Map<string, string>();

/** The paths the OpenAPI documents are published at (GET and HEAD). */
export const DOCUMENT_PATHS: readonly string[] = Object.keys(OPENAPI_DOCUMENTS);

/**
 * The OpenAPI document published at this path, its description naming where the served datasets come from;
 * null for any other path or method (the engine answers those). Finished like an API answer (CORS, HEAD), so
 * an API client on another origin loads it. In the production dialect, the production dialect's document.
 */
export function documentFor(pathname: string, request: ApiRequest, data: DataLabels = {}, dialect: Dialect = 'interface'): ApiResponse | null {
  const make = OPENAPI_DOCUMENTS[pathname];
  const verb = request.method.toUpperCase();
  if (!make || (verb !== 'GET' && verb !== 'HEAD')) return null;
  const key = `${dialect}\u0000${pathname}\u0000${data.websites ?? ''}\u0000${data.ceilingrates ?? ''}`;
  let body = cache.get(key);
  if (body === undefined) {
    body = JSON.stringify(dialect === 'production' ? inProductionDialect(make(data)) : make(data));
    cache.set(key, body);
  }
  return finish(request, { ...json(200, null), body });
}
