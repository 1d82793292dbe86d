import type { ApiRequest } from '../../engine/http/types.ts';
import type { Routed } from '../../engine/http/route.ts';
import type { Dialect } from '../../engine/dialect/dialect.ts';

/** Plain data for the engine or the relay: the method, the URL as the page asked it, and the headers. */
export function toApiRequest(request: Request): ApiRequest {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { method: request.method, url: request.url, headers };
}

/** The routed request in the app's answer dialect: the relay's DB worker and the engine here both read it from the request. */
export function inAppDialect<R extends Routed>(routed: R, dialect: Dialect): R {
  return dialect === 'interface' ? routed : { ...routed, request: { ...routed.request, dialect } };
}
