import type { ApiRequest, ApiResponse } from './types.ts';

/**
 * Cross-origin access for every API answer, so a prototype on another origin (or a page opened from a file)
 * reads the same answers as the app: production Site Scanning enables CORS for any origin, and both APIs are
 * read-only and public, so `*` with no credentials is the whole policy.
 */
export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/** Header lookup by lower-cased name: adapters pass headers as they come (fetch lower-cases, others may not). */
export function requestHeader(request: ApiRequest, name: string): string | undefined {
  const headers = request.headers;
  if (!headers) return undefined;
  if (name in headers) return headers[name];
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === lower) return value;
  }
  return undefined;
}

/** A CORS preflight: OPTIONS that names the method it will send. A plain OPTIONS is not one. */
export function isPreflight(request: ApiRequest): boolean {
  return request.method.toUpperCase() === 'OPTIONS' && requestHeader(request, 'access-control-request-method') !== undefined;
}

/** 204 allowing the API's methods and whatever headers the page asked for (X-Api-Key, say). */
export function preflight(request: ApiRequest): ApiResponse {
  const headers: Record<string, string> = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': ALLOWED_METHODS,
    vary: 'Access-Control-Request-Headers',
  };
  const asked = requestHeader(request, 'access-control-request-headers');
  if (asked) headers['access-control-allow-headers'] = asked;
  return { status: 204, headers, body: '' };
}

/** The answer with `Access-Control-Allow-Origin: *` added. */
export function withCors(response: ApiResponse): ApiResponse {
  return { ...response, headers: { ...response.headers, 'access-control-allow-origin': '*' } };
}
