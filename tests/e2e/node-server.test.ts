/**
 * The Node server in Chromium: a prototype page on another origin (a second port) fetches both APIs from
 * the server cross-origin, with an X-Api-Key header that makes the browser send a preflight first; and the
 * built app served by the same server opens its data under the server's Content-Security-Policy header, and its
 * API console links the OpenAPI document.
 */
import { createServer, type Server } from 'node:http';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { launchBrowser, collectPageErrors, type Browser } from '../../harness/browsers/browser.ts';
import { openApp } from '../../harness/browsers/app.ts';
import { openEngine } from '../../adapters/node/datasets/open-engine.ts';
import { startServer, type RunningServer } from '../../adapters/node/doors/server.ts';
import type { Engine } from '../../engine/index.ts';
import type { ApiRequest } from '../../engine/http/types.ts';

let engine: Engine;
let api: RunningServer;
let prototype: Server;
let prototypeOrigin: string;
let browser: Browser;
let errors: string[];
const seen: ApiRequest[] = [];

beforeAll(async () => {
  const dataDir = inject('dataDir');
  ({ engine } = await openEngine({ dataDir }));
  // What reached the engine: the server routes each request once and hands the engine the route.
  const answer = engine.answer.bind(engine);
  vi.spyOn(engine, 'answer').mockImplementation((routed) => {
    seen.push(routed.request);
    return answer(routed);
  });
  api = await startServer({ engine, appDir: dirname(dataDir), port: 0 });
  // The prototype: a page of its own on another port, no relation to the app.
  prototype = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>prototype</title><p>prototype</p>'),
  );
  await new Promise<void>((resolve) => prototype.listen(0, 'localhost', resolve));
  const address = prototype.address();
  prototypeOrigin = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await launchBrowser();
  errors = collectPageErrors(browser.page);
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await new Promise((resolve) => prototype?.close(resolve));
});

interface CrossOriginAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

describe('cross-origin from a prototype on another port', () => {
  it('reads both APIs under both bases, after a preflight that allows X-Api-Key', async () => {
    const page = browser.page;
    await page.goto(`${prototypeOrigin}/`);
    for (const path of [
      '/websites?limit=2',
      '/technology/site-scanning/v1/analysis',
      '/api/v3/search/ceilingrates/?keyword=engineer&page_size=2',
      '/acquisition/calc/v3/api/ceilingrates/?page_size=1',
    ]) {
      seen.length = 0;
      const answer = await page.evaluate(async (url): Promise<CrossOriginAnswer> => {
        const response = await fetch(url, { headers: { 'X-Api-Key': 'DEMO_KEY' }, cache: 'no-store' });
        return { status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
      }, api.url + path);
      const expected = engine.handle({ method: 'GET', url: path });
      expect(answer.status, path).toBe(200);
      expect(answer.contentType, path).toBe(expected.headers['content-type']);
      expect(answer.body.replace(/"took":\d+/, ''), path).toBe(expected.body.replace(/"took":\d+/, ''));
      // What the browser sent: the preflight asking for x-api-key, then the GET with it.
      const preflight = seen.find((r) => r.method === 'OPTIONS');
      expect(preflight?.headers?.['access-control-request-method'], path).toBe('GET');
      expect(preflight?.headers?.['access-control-request-headers'], path).toBe('x-api-key');
      expect(preflight?.headers?.origin, path).toBe(prototypeOrigin);
      const get = seen.find((r) => r.method === 'GET');
      expect(get?.headers?.['x-api-key'], path).toBe('DEMO_KEY');
    }
    expect(errors).toEqual([]);
  });
});

describe('the built app served by the Node server', () => {
  it('opens its data under the header policy (workers may compile wasm) with no violation', async () => {
    const page = await browser.context.newPage();
    const pageErrors = collectPageErrors(page);
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(t: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    const response = await page.goto(`${api.url}/`);
    expect(response?.headers()['content-security-policy']).toContain("'wasm-unsafe-eval'");
    await openApp(page, api.url, '#/websites');
    expect(await page.locator('websites-view').count()).toBe(1);
    // The API console links the OpenAPI document, a file of the app.
    await page.goto(`${api.url}/#/console`);
    const link = page.getByTestId('openapi-link');
    await link.waitFor();
    const href = await link.evaluate((a) => (a as HTMLAnchorElement).href);
    const described = await page.evaluate(async (url) => (await fetch(url)).json(), href);
    expect(described).toMatchObject({ openapi: '3.1.0', paths: { '/websites': {}, '/api/v3/search/ceilingrates': {} } });
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
