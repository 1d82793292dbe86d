import type { ApiResponse } from '../../engine/http/types.ts';

/** The engine's answer as a fetch Response (the Hono server and the MSW handlers both answer with one). */
export function toResponse(answer: ApiResponse): Response {
  // 204 and HEAD carry no body; a Response refuses one for 204.
  return new Response(answer.body === '' ? null : answer.body, { status: answer.status, headers: answer.headers });
}
