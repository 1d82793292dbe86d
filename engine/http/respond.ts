import type { ApiResponse } from './types.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

export function json(status: number, value: unknown, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: JSON.stringify(value) };
}

export function text(status: number, body: string, contentType: string, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { 'content-type': contentType, ...headers }, body };
}

/**
 * Every 503 says when to try again (RFC 9110 10.2.3), so a client backs off instead of hammering or giving
 * up: a dataset still loading in the browser is usually there within seconds. Added by route.ts's `finish`.
 */
export const RETRY_AFTER_SECONDS = 5;

/** Why a dataset cannot answer yet, in the words of Django REST Framework's 503 (ceiling rates and the app's own features). */
export const UNAVAILABLE_DETAIL = 'Service temporarily unavailable, try again later.';

/** HEAD answers with the GET's status and headers and no body. */
export function withoutBody(response: ApiResponse): ApiResponse {
  return { ...response, body: '' };
}
