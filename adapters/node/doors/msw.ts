/**
 * MSW request handlers over the engine: a prototype mounts both APIs in its own MSW setup (setupServer in
 * its tests, setupWorker in its pages) and fetches them on its own origin, or at production's URLs, which
 * the engine's production base paths match. `msw` (2.x) is an optional peer dependency: only this entry
 * imports it.
 */
import { http, type HttpHandler } from 'msw';
import type { Engine } from '../../../engine/http/engine.ts';
import { route, type Routed } from '../../../engine/http/route.ts';
import { toFetchResponse } from '../../http/fetch-response.ts';
import { withFaults, type Faults } from './faults.ts';
import { documentFor } from './documents.ts';
import { apiRequestOf } from '../../http/fetch-request.ts';
import type { Dialect } from '../../../engine/dialect/dialect.ts';

export interface HandlerOptions {
  /**
   * Only requests to these origins (e.g. `https://api.gsa.gov`); by default any origin, so relative URLs on
   * the prototype's own origin and production's absolute URLs both reach the engine.
   */
  origins?: readonly string[];
  /** A delay or a share of failed answers, as `offline-gov-api serve --delay/--fail-rate`. */
  faults?: Faults;
  /** The answer dialect: `production` answers as production did in 2026 (docs/api/differences.md); default: the engine's. */
  dialect?: Dialect;
}

/**
 * One handler for every API path the engine answers, with any method (the engine answers 405 itself), and
 * for the OpenAPI documents. The predicate routes the request once; the resolver answers that route.
 */
export function createHandlers(engine: Engine, options: HandlerOptions = {}): HttpHandler[] {
  const answer = withFaults(engine, options.faults);
  const routes = new WeakMap<Request, Routed>();
  const ours = (request: Request): boolean => {
    const url = new URL(request.url);
    if (options.origins && !options.origins.includes(url.origin)) return false;
    if (documentFor(url.pathname, apiRequestOf(request)) !== null) return true;
    const routed = route(engine.apis, apiRequestOf(request, options.dialect));
    if (routed) routes.set(request, routed);
    return routed !== null;
  };
  return [
    http.all(
      ({ request }) => ours(request),
      async ({ request }) => {
        const routed = routes.get(request);
        if (routed) return toFetchResponse(await answer(routed));
        return toFetchResponse(documentFor(new URL(request.url).pathname, apiRequestOf(request), {}, options.dialect)!);
      },
    ),
  ];
}
