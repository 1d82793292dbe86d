import type { ApiRequest } from '../../engine/http/types.ts';

/** Plain data for the engine or the relay: the method, the URL as the page asked it, and the headers. */
export function toApiRequest(request: Request): ApiRequest {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { method: request.method, url: request.url, headers };
}
