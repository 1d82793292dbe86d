import type { ApiDefinition } from '../../engine/http/routes.ts';
import type { ApiRequest, ApiResponse } from '../../engine/http/types.ts';

/**
 * What answers the API requests behind a Node door: the engine in this thread (an `Engine` is one), or a pool
 * of worker threads each holding one (worker-pool.ts). The door needs the route table to tell the APIs'
 * paths from the app's files, and one call per request; where the answer is computed is the backend's affair.
 */
export interface ApiBackend {
  readonly apis: readonly ApiDefinition[];
  /** `signal`: aborted when the client has gone; a backend that queues may then drop the request. */
  handle(request: ApiRequest, signal?: AbortSignal): ApiResponse | Promise<ApiResponse>;
}
