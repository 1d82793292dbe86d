import { matchRoute } from '../../engine/http/match.ts';
import { isPreflight, withCors } from '../../engine/http/cors.ts';
import { withoutBody } from '../../engine/http/respond.ts';
import type { ApiRequest, ApiResponse } from '../../engine/http/types.ts';
import type { ApiBackend, BackendAnswer } from './backend.ts';

/** Made-up trouble for a client's resilience tests; none by default. */
export interface Faults {
  /** Milliseconds to wait before every API answer. */
  delayMs?: number;
  /** Share of API requests (0..1) answered with the API's own 500 or 503 instead. */
  failRate?: number;
  /** Source of randomness, for tests. */
  random?: () => number;
}

export type AsyncHandle = (request: ApiRequest, signal?: AbortSignal) => Promise<BackendAnswer>;

/**
 * The engine as an asynchronous door with the faults applied: a delay, then either the engine's answer or,
 * at the given rate, the API's own internal-error or unavailable answer (half of each). Preflights are
 * never failed: a failed preflight is a CORS error in the browser, not an API answer to test against.
 */
export function withFaults(engine: ApiBackend, faults: Faults = {}): AsyncHandle {
  const { delayMs = 0, failRate = 0, random = Math.random } = faults;
  return async (request, signal) => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (failRate > 0 && !isPreflight(request) && random() < failRate) {
      const match = matchRoute(engine.apis, new URL(request.url, 'http://localhost').pathname);
      if (match) {
        const failed = withCors(random() < 0.5 ? match.api.errors.internal() : match.api.errors.unavailable());
        return request.method.toUpperCase() === 'HEAD' ? withoutBody(failed) : failed;
      }
    }
    return engine.handle(request, signal);
  };
}
