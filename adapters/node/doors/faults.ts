import { isPreflight } from '../../../engine/http/cors.ts';
import { failed, type Routed } from '../../../engine/http/route.ts';
import type { ApiResponse } from '../../../engine/http/types.ts';
import type { ApiBackend } from '../backends/backend.ts';

/** Made-up trouble for a client's resilience tests; none by default. */
export interface Faults {
  /** Milliseconds to wait before every API answer. */
  delayMs?: number;
  /** Share of API requests (0..1) answered with the API's own 500 or 503 instead. */
  failRate?: number;
  /** Source of randomness, for tests. */
  random?: () => number;
}

export type AsyncAnswer = (routed: Routed, signal?: AbortSignal) => Promise<ApiResponse>;

/**
 * The backend as an asynchronous door with the faults applied: a delay, then either the backend's answer or,
 * at the given rate, the API's own internal-error or unavailable answer (half of each). Preflights are
 * never failed: a failed preflight is a CORS error in the browser, not an API answer to test against.
 */
export function withFaults(backend: ApiBackend, faults: Faults = {}): AsyncAnswer {
  const { delayMs = 0, failRate = 0, random = Math.random } = faults;
  return async (routed, signal) => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (failRate > 0 && !isPreflight(routed.request) && random() < failRate) {
      return failed(backend.apis, routed, random() < 0.5 ? 'internal' : 'unavailable');
    }
    return backend.answer(routed, signal);
  };
}
