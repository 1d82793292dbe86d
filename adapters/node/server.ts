/**
 * The HTTP door: one Hono app that answers every API path from the engine (the router's matchRoute decides
 * which paths are the APIs'), publishes the OpenAPI documents, and serves the built app for the rest. Same
 * answers as the service worker gives in the browser, for other origins, curl, Python and Postman.
 */
import { existsSync } from 'node:fs';
import { Hono } from 'hono';
import { serve, type HttpBindings } from '@hono/node-server';
import type { Server } from 'node:http';
import { toResponse } from './fetch-response.ts';
import { withFaults, type Faults } from './faults.ts';
import { staticFiles } from './static-files.ts';
import { documentFor } from './documents.ts';
import type { DataLabels } from '../../engine/openapi/documents.ts';
import { isApiPath, type ApiBackend } from './backend.ts';
import { hostProblem, refuseConnect } from './http-guards.ts';
import { closeGracefully, DEFAULT_GRACE_MS } from './graceful-close.ts';

export interface ServerOptions {
  /** What answers the APIs: an `Engine` in this thread, or a worker pool (worker-pool.ts). */
  engine: ApiBackend;
  /** The built app to serve beside the APIs; null (or a missing directory) serves the APIs alone. */
  appDir?: string | null;
  faults?: Faults;
  /** Where each served dataset comes from, for the OpenAPI documents' descriptions. */
  dataLabels?: DataLabels;
}

export function createApp({ engine, appDir = null, faults, dataLabels = {} }: ServerOptions): Hono {
  const app = new Hono();
  const handle = withFaults(engine, faults);
  app.use('*', async (c, next) => {
    // Only over a real socket (not `app.request` in a test) are the raw headers there to count.
    const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
    const problem = incoming ? hostProblem(incoming.rawHeaders, incoming.httpVersion) : null;
    if (problem) return c.text(problem, 400, { 'X-Content-Type-Options': 'nosniff' });
    await next();
    // No answer of this server is to be read as another type than it says (a CSV export as HTML, say).
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
  });
  app.all('*', async (c, next) => {
    const url = new URL(c.req.url);
    const document = documentFor(url.pathname, c.req.method, dataLabels);
    if (document) return toResponse(document);
    if (!isApiPath(engine, url.pathname)) return next();
    const headers = Object.fromEntries(c.req.raw.headers);
    return toResponse(await handle({ method: c.req.method, url: url.pathname + url.search, headers }, c.req.raw.signal));
  });
  if (appDir && existsSync(appDir)) app.use('*', staticFiles(appDir));
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
