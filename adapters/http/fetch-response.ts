import type { ApiResponse } from '../../engine/http/types.ts';

/** An answer whose body is text (the engine's) or UTF-8 bytes (relayed from the DB worker). */
export type AnswerBody = Omit<ApiResponse, 'body'> & { body: string | Uint8Array };

/** Statuses whose response may not carry a body (the Response constructor throws otherwise). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * The engine's answer as a fetch Response, for every door that answers with one (the service worker, the
 * Hono server, the MSW handlers). The answer is finished already (CORS, and HEAD's empty body: route.ts).
 */
export function toFetchResponse(answer: AnswerBody): Response {
  const empty = NULL_BODY_STATUS.has(answer.status) || answer.body.length === 0;
  return new Response(empty ? null : (answer.body as string | Uint8Array<ArrayBuffer>), { status: answer.status, headers: answer.headers });
}
