/**
 * The HTTP door: one Hono app that answers every API path from the engine (the router's matchRoute decides
 * which paths are the APIs'), publishes the OpenAPI documents, and serves the built app for the rest. Same
 * answers as the service worker gives in the browser, for other origins, curl, Python and Postman.
 */
import { existsSync } from 'node:fs';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { isApiPath, type AnswerSource } from './answer-source.ts';
import { toResponse } from './fetch-response.ts';
import { withFaults, type Faults } from './faults.ts';
import { staticFiles } from './static-files.ts';
import { documentFor } from './documents.ts';
import type { DataLabels } from '../../engine/openapi/documents.ts';

export interface ServerOptions {
  /** The in-memory engine, or another backend answering the same APIs (`serve --database`). */
  engine: AnswerSource;
  /** The built app to serve beside the APIs; null (or a missing directory) serves the APIs alone. */
  appDir?: string | null;
  faults?: Faults;
  /** Where each served dataset comes from, for the OpenAPI documents' descriptions. */
  dataLabels?: DataLabels;
}

export function createApp({ engine, appDir = null, faults, dataLabels = {} }: ServerOptions): Hono {
  const app = new Hono();
  const handle = withFaults(engine, faults);
  app.all('*', async (c, next) => {
    const url = new URL(c.req.url);
    const document = documentFor(url.pathname, c.req.method, dataLabels);
    if (document) return toResponse(document);
    if (!isApiPath(engine, url.pathname)) return next();
    const headers = Object.fromEntries(c.req.raw.headers);
    return toResponse(await handle({ method: c.req.method, url: url.pathname + url.search, headers }));
  });
  if (appDir && existsSync(appDir)) app.use('*', staticFiles(appDir));
  app.notFound((c) => c.text('Not found', 404));
  return app;
}

export interface RunningServer {
  /** e.g. http://localhost:4173 */
  url: string;
  close(): Promise<void>;
}

export interface ListenOptions extends ServerOptions {
  port?: number;
  host?: string;
}

/** Listen on host:port (port 0 picks a free one) and resolve once it accepts connections. */
export function startServer({ port = 4173, host = 'localhost', ...options }: ListenOptions): Promise<RunningServer> {
  const app = createApp(options);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${info.port}`,
        close: () => new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done()))),
      });
    });
    server.once('error', reject);
  });
}
