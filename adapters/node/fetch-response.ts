import type { BackendAnswer } from './backend.ts';

/** The engine's answer as a fetch Response (the Hono server and the MSW handlers both answer with one). */
export function toResponse(answer: BackendAnswer): Response {
  const body = 'bytes' in answer ? answer.bytes : answer.body;
  // 204 and HEAD carry no body; a Response refuses one for 204.
  return new Response(body.length === 0 ? null : (body as string | Uint8Array<ArrayBuffer>), { status: answer.status, headers: answer.headers });
}
