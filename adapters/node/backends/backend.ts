import type { ApiDefinition } from '../../../engine/http/routes.ts';
import type { ApiResponse } from '../../../engine/http/types.ts';
import type { Routed } from '../../../engine/http/route.ts';

/**
 * What answers the API requests behind a Node door: the engine in this thread (an `Engine` is one), or a pool
 * of worker threads each holding one (worker-pool.ts), or PostgreSQL (postgres/answers.ts). The door routes
 * each request once (engine/http/route.ts) and hands the route over; where the answer is computed is the
 * backend's affair.
 */
export interface ApiBackend {
  readonly apis: readonly ApiDefinition[];
  /** `signal`: aborted when the client has gone; a backend that queues may then drop the request. */
  answer(routed: Routed, signal?: AbortSignal): ApiResponse | Promise<ApiResponse>;
}
