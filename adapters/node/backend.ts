import type { ApiDefinition } from '../../engine/http/routes.ts';
import type { ApiRequest, ApiResponse } from '../../engine/http/types.ts';
import { matchRoute } from '../../engine/http/match.ts';
import { splitSnapshotPath } from '../../engine/http/snapshots.ts';

/**
 * An answer whose body is already UTF-8 bytes: a worker thread encodes its answer and transfers the bytes (no
 * copy, no string on the HTTP thread's heap), and the door writes them as they are.
 */
export interface EncodedResponse extends Omit<ApiResponse, 'body'> {
  bytes: Uint8Array;
}

/** What a backend answers: the engine's answer, or the same with its body encoded. */
export type BackendAnswer = ApiResponse | EncodedResponse;

/** The body as text, whichever form the answer has. */
export function bodyText(answer: BackendAnswer): string {
  return 'bytes' in answer ? new TextDecoder().decode(answer.bytes) : answer.body;
}

/**
 * What answers the API requests behind a Node door: the engine in this thread (an `Engine` is one), or a pool
 * of worker threads each holding one (worker-pool.ts), or PostgreSQL (postgres/answers.ts). The door needs the route table to tell the APIs'
 * paths from the app's files, and one call per request; where the answer is computed is the backend's affair.
 */
export interface ApiBackend {
  readonly apis: readonly ApiDefinition[];
  /** `signal`: aborted when the client has gone; a backend that queues may then drop the request. */
  handle(request: ApiRequest, signal?: AbortSignal): BackendAnswer | Promise<BackendAnswer>;
}

/** True when a path is an API's (under `/snapshots/<date>/` too): the backend answers it, not the static files. */
export function isApiPath(backend: ApiBackend, pathname: string): boolean {
  const dated = splitSnapshotPath(pathname);
  return matchRoute(backend.apis, dated ? dated.pathname : pathname) !== null;
}
