/**
 * MSW request handlers over the engine: a prototype mounts both APIs in its own MSW setup (setupServer in
 * its tests, setupWorker in its pages) and fetches them on its own origin, or at production's URLs, which
 * the engine's production base paths match. `msw` (2.x) is an optional peer dependency: only this entry
 * imports it.
 */
import { http, type HttpHandler } from 'msw';
import type { Engine } from '../../engine/http/engine.ts';
import { matchRoute } from '../../engine/http/match.ts';
import { toResponse } from './fetch-response.ts';
import { withFaults, type Faults } from './faults.ts';
import { documentFor } from './documents.ts';

export interface HandlerOptions {
  /**
   * Only requests to these origins (e.g. `https://api.gsa.gov`); by default any origin, so relative URLs on
   * the prototype's own origin and production's absolute URLs both reach the engine.
   */
  origins?: readonly string[];
  /** A delay or a share of failed answers, as `offline-gov-api serve --delay/--fail-rate`. */
  faults?: Faults;
}

/**
 * One handler for every API path the engine answers, with any method (the engine answers 405 itself), and
 * for the OpenAPI documents.
 */
export function createHandlers(engine: Engine, options: HandlerOptions = {}): HttpHandler[] {
  const handle = withFaults(engine, options.faults);
  const ours = (request: Request): boolean => {
    const url = new URL(request.url);
    if (options.origins && !options.origins.includes(url.origin)) return false;
    return documentFor(url.pathname, request.method) !== null || matchRoute(engine.apis, url.pathname) !== null;
  };
  return [
    http.all(
      ({ request }) => ours(request),
      async ({ request }) => {
        const url = new URL(request.url);
        const document = documentFor(url.pathname, request.method);
        if (document) return toResponse(document);
        const headers = Object.fromEntries(request.headers);
        return toResponse(await handle({ method: request.method, url: url.pathname + url.search, headers }));
      },
    ),
  ];
}
