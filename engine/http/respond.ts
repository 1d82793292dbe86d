import type { ApiResponse } from './types.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

export function json(status: number, value: unknown, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: JSON.stringify(value) };
}

export function text(status: number, body: string, contentType: string, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { 'content-type': contentType, ...headers }, body };
}

/** HEAD answers with the GET's status and headers and no body. */
export function withoutBody(response: ApiResponse): ApiResponse {
  return { ...response, body: '' };
}
