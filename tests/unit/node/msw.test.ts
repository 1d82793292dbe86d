import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import { http, HttpResponse } from 'msw';
import type { Engine } from '../../../engine/http/engine.ts';
import { createHandlers } from '../../../adapters/node/doors/msw.ts';
import { engineOver, generatedDatabase } from '../../../harness/engine.ts';
import { comparable, SAMPLE_REQUESTS } from './samples.ts';
import { fixture } from './cli-process.ts';

let engine: Engine;
let server: ReturnType<typeof setupServer>;

beforeAll(async () => {
  engine = engineOver('websites', await generatedDatabase('websites'));
  engine.use('ceilingrates', await generatedDatabase('ceilingrates'));
  // The prototype's own handler for its own API comes after ours and still answers.
  server = setupServer(
    ...createHandlers(engine),
    http.get('http://localhost:5173/api/own', () => HttpResponse.json({ own: true })),
  );
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => server?.close());

describe('MSW handlers in setupServer', () => {
  it("answer every sampled request as the engine does, on the prototype's origin and at production's URLs", async () => {
    for (const origin of ['http://localhost:5173', 'https://api.gsa.gov']) {
      for (const { method, url } of SAMPLE_REQUESTS) {
        const expected = engine.handle({ method, url });
        const response = await fetch(origin + url, { method });
        const label = `${method} ${origin}${url}`;
        expect(response.status, label).toBe(expected.status);
        for (const [name, value] of Object.entries(expected.headers)) expect(response.headers.get(name), `${label} ${name}`).toBe(value);
        expect(comparable(await response.text()), label).toBe(comparable(expected.body));
      }
    }
  });

  it('publish the OpenAPI documents', async () => {
    const { siteScanningDocument } = await import('../../../engine/openapi/documents.ts');
    expect(await (await fetch('https://api.gsa.gov/technology/site-scanning/v1/api-json')).json()).toEqual(siteScanningDocument());
  });

  it('leave other paths to the handlers after them', async () => {
    expect(await (await fetch('http://localhost:5173/api/own')).json()).toEqual({ own: true });
  });

  it('with origins set, answer only those', async () => {
    // Prepended in this order, before the any-origin handlers: a request ours decline reaches the 418.
    server.use(
      ...createHandlers(engine, { origins: ['https://api.gsa.gov'] }),
      http.all('http://localhost:5173/*', () => HttpResponse.text('not the engine', { status: 418 })),
    );
    expect((await fetch('http://localhost:5173/websites?limit=1')).status).toBe(418);
    expect((await fetch('https://api.gsa.gov/technology/site-scanning/v1/websites?limit=1')).status).toBe(200);
    server.resetHandlers();
  });
});

describe('the package entries, by name', () => {
  it('resolve through package.json exports to the bundles: an engine of the library answers through its MSW handlers', async () => {
    const { createHandlers: handlersOf } = await import('offline-gov-api/msw');
    const { openEngine } = await import('offline-gov-api');
    const { engine: own } = await openEngine({ dataDir: false, files: { websites: fixture('websites-current.csv') } });
    server.use(...handlersOf(own, { origins: ['http://prototype.test'] }));
    const expected = own.handle({ method: 'GET', url: '/analysis' });
    const response = await fetch('http://prototype.test/analysis');
    expect(await response.text()).toBe(expected.body);
    expect(JSON.parse(expected.body).total).toBeGreaterThan(0);
    server.resetHandlers();
  });
});
