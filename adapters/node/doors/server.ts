/**
 * The HTTP door: one Hono app whose router sends each request to the OpenAPI documents, the APIs or the
 * built app's files. Which paths are the APIs' is the engine router's decision (engine/http/route.ts), taken
 * once per request in Hono's `getPath` and carried with the request to the API handler. Same answers as the
 * service worker gives in the browser, for other origins, curl, Python and Postman.
 */
import { existsSync } from 'node:fs';
import { Hono } from 'hono';
import { serve, type HttpBindings } from '@hono/node-server';
import type { Server } from 'node:http';
import { failed, finish, route, type Routed } from '../../../engine/http/route.ts';
import type { ApiResponse } from '../../../engine/http/types.ts';
import { toFetchResponse } from '../../http/fetch-response.ts';
import { apiRequestOf } from '../../http/fetch-request.ts';
import { withFaults, type Faults } from './faults.ts';
import { staticFiles } from './static-files.ts';
import { DOCUMENT_PATHS, documentFor } from './documents.ts';
import type { DataLabels } from '../../../engine/openapi/documents.ts';
import type { ApiBackend } from '../backends/backend.ts';
import { hostProblem, refuseConnect } from './http-guards.ts';
import { closeGracefully, DEFAULT_GRACE_MS } from './graceful-close.ts';
import type { Dialect } from '../../../engine/dialect/dialect.ts';
import { Gateway, type GatewayOptions } from './gateway.ts';

export interface ServerOptions {
  /** What answers the APIs: an `Engine` in this thread, a worker pool (worker-pool.ts) or PostgreSQL. */
  engine: ApiBackend;
  /** The built app to serve beside the APIs; null (or a missing directory) serves the APIs alone. */
  appDir?: string | null;
  /**
   * A folder of the user's own pages (`serve --pages`), served at the root beside the APIs and the app: a path the
   * app's files have is the app's. No Content-Security-Policy of the app's is sent with them.
   */
  pagesDir?: string | null;
  /** api.data.gov's gateway rehearsed (`--require-key`, `--rate-limit`; gateway.ts); none by default. */
  gateway?: GatewayOptions;
  faults?: Faults;
  /** Where each served dataset comes from, for the OpenAPI documents' descriptions. */
  dataLabels?: DataLabels;
  /** The answer dialect of every API request (`serve --dialect`); absent: the backend's own, `interface`. */
  dialect?: Dialect;
}

/** The router key of every API request: no request path starts with it and is also routed by the engine. */
const API_ROUTE = '/.api';

/** The answer with the gateway's headers added (its rate-limit counts). */
function withHeaders(response: ApiResponse, headers: Record<string, string>): ApiResponse {
  return Object.keys(headers).length ? { ...response, headers: { ...response.headers, ...headers } } : response;
}

export function createApp({ engine, appDir = null, pagesDir = null, faults, dataLabels = {}, dialect, gateway: gatewayOptions = {} }: ServerOptions): Hono {
  const answer = withFaults(engine, faults);
  const gateway = new Gateway(gatewayOptions);
  const routes = new WeakMap<Request, Routed>();
  const app = new Hono({
    getPath: (request) => {
      const pathname = new URL(request.url).pathname;
      // A document path that is also an API's (production's Site Scanning one) is the API's for other methods.
      if (DOCUMENT_PATHS.includes(pathname) && (request.method === 'GET' || request.method === 'HEAD')) return pathname;
      const routed = route(engine.apis, apiRequestOf(request, dialect));
      if (!routed) return pathname;
      routes.set(request, routed);
      return API_ROUTE;
    },
  });
  app.use('*', async (c, next) => {
    // Only over a real socket (not `app.request` in a test) are the raw headers there to count.
    const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
    const problem = incoming ? hostProblem(incoming.rawHeaders, incoming.httpVersion) : null;
    if (problem) return c.text(problem, 400, { 'X-Content-Type-Options': 'nosniff' });
    await next();
    // No answer of this server is to be read as another type than it says (a CSV export as HTML, say).
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
  });
  app.all(API_ROUTE, async (c, next) => {
    const routed = routes.get(c.req.raw);
    if (!routed) return next();
    // Production's gateway stands in front of both APIs: its refusals come before any API answer or fault.
    const client = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket.remoteAddress ?? 'unknown';
    const passage = gateway.pass(routed, client);
    if ('refused' in passage) return toFetchResponse(finish(routed.request, passage.refused));
    try {
      return toFetchResponse(withHeaders(await answer(routed, c.req.raw.signal), passage.headers));
    } catch (error) {
      // A backend that could not answer (a worker thread lost with the request): the API's own 500, not a bare one.
      console.error('offline-gov-api: an API request failed', error);
      return toFetchResponse(failed(engine.apis, routed, 'internal'));
    }
  });
  for (const path of DOCUMENT_PATHS) {
    app.on(['GET', 'HEAD'], path, (c) => toFetchResponse(documentFor(path, apiRequestOf(c.req.raw), dataLabels, dialect)!));
  }
  if (appDir && existsSync(appDir)) app.use('*', staticFiles(appDir));
  if (pagesDir) app.use('*', staticFiles(pagesDir, { appPolicy: false }));
  app.notFound((c) => c.text('Not found', 404));
  return app;
}

export interface RunningServer {
  /** e.g. http://localhost:4173 */
  url: string;
  /**
   * Stop accepting, finish the answers in flight, and cut the connections still busy after the grace
   * period (a request half sent); resolves once every connection is closed.
   */
  close(): Promise<void>;
}

export interface ListenOptions extends ServerOptions {
  port?: number;
  host?: string;
  /** How long `close` waits for busy connections before cutting them (default 10 s). */
  graceMs?: number;
}

/** Listen on host:port (port 0 picks a free one) and resolve once it accepts connections. */
export function startServer({ port = 4173, host = 'localhost', graceMs = DEFAULT_GRACE_MS, ...options }: ListenOptions): Promise<RunningServer> {
  const app = createApp(options);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({ url: `http://${shown}:${info.port}`, close: () => closeGracefully(server as Server, graceMs) });
    }) as Server;
    refuseConnect(server);
    server.once('error', reject);
  });
}
