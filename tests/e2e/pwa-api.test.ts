/**
 * After the first load and the service worker's activation, a page's fetch() to any API path gets the
 * engine's answer (status, headers, body) from the service worker, for GET, HEAD, OPTIONS and the methods
 * the APIs refuse, under every base path.
 */
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  comparableBody,
  expectedHeaders,
  openOfflineReadyApp,
  pageFetch,
  referenceEngine,
  servedBy,
  type OfflineReadyApp,
} from '../../harness/browsers/pwa-helpers.ts';
import type { EvaluatingPage } from '../../harness/browsers/browser-driver.ts';
import type { Engine } from '../../engine/index.ts';

let app: OfflineReadyApp;
let engine: Engine;

beforeAll(async () => {
  const dataDir = inject('dataDir');
  engine = await referenceEngine(dataDir);
  app = await openOfflineReadyApp(dirname(dataDir));
});

afterAll(() => app?.close());

const ENDPOINTS = [
  '/websites?limit=2',
  '/websites?page=3&limit=5&final_url_live=true',
  '/technology/site-scanning/v1/websites?limit=2&api_key=anything',
  '/analysis?final_url_live=true',
  '/technology/site-scanning/v1/analysis',
  '/websites?limit=500',
  '/websites/no-such-site.example.gov',
  '/api/v3/search/ceilingrates/?keyword=engineer&page_size=2',
  '/acquisition/calc/v3/api/ceilingrates/?filter=education_level:BA|MA&ordering=vendor_name&sort=desc&page_size=3',
  '/api/v3/search/ceilingrates/?suggest-contains=labor_category:eng',
  '/api/v3/search/ceilingrates/?suggest=vendor_name:a',
  '/api/v3/search/ceilingrates/?filter=bogus:1',
  '/api/v3/search/ceilingrates/?keyword=engineer&export=y',
];

describe('page fetch() through the service worker', () => {
  it.each(ENDPOINTS)('GET %s is the engine answer, from the service worker', async (path) => {
    const page = app.browser.page;
    const [response, answer] = await Promise.all([page.waitForResponse((r) => r.url() === app.server.origin + path), pageFetch(page, path)]);
    expect(response.fromServiceWorker()).toBe(true);
    const reference = engine.handle({ method: 'GET', url: app.server.origin + path });
    expect(answer.status).toBe(reference.status);
    expect(answer.headers).toMatchObject(expectedHeaders(reference));
    expect(comparableBody(answer)).toEqual(comparableBody(reference));
  });

  it('answers one website by its target URL, as listed', async () => {
    const list = JSON.parse((await pageFetch(app.browser.page, '/websites?limit=1')).body) as { items: { target_url: string }[] };
    const target = list.items[0].target_url;
    const one = await pageFetch(app.browser.page, `/websites/${encodeURIComponent(target)}`);
    expect(one.status).toBe(200);
    expect(JSON.parse(one.body)).toEqual(list.items[0]);
  });

  it('HEAD: the GET status and headers, no body', async () => {
    for (const path of ['/websites?limit=2', '/api/v3/search/ceilingrates/?keyword=engineer']) {
      const [response, answer] = await Promise.all([
        app.browser.page.waitForResponse((r) => r.url() === app.server.origin + path && r.request().method() === 'HEAD'),
        pageFetch(app.browser.page, path, 'HEAD'),
      ]);
      expect(response.fromServiceWorker()).toBe(true);
      const reference = engine.handle({ method: 'HEAD', url: app.server.origin + path });
      expect(answer.status).toBe(200);
      expect(answer.headers).toMatchObject(expectedHeaders(reference));
      expect(answer.body).toBe('');
    }
  });

  it('OPTIONS and a refused method: the API answers them itself', async () => {
    const path = '/api/v3/search/ceilingrates/';
    const [response, options] = await Promise.all([
      app.browser.page.waitForResponse((r) => r.url() === app.server.origin + path && r.request().method() === 'OPTIONS'),
      pageFetch(app.browser.page, path, 'OPTIONS'),
    ]);
    expect(response.fromServiceWorker()).toBe(true);
    const reference = engine.handle({ method: 'OPTIONS', url: path });
    expect(options.status).toBe(reference.status);
    expect(options.headers).toMatchObject(expectedHeaders(reference));
    expect(JSON.parse(options.body)).toEqual(JSON.parse(reference.body));

    const post = await pageFetch(app.browser.page, path, 'POST');
    expect(post.status).toBe(405);
    expect(JSON.parse(post.body)).toEqual({ detail: 'Method "POST" not allowed.' });
  });

  it('relays the app window requests to its DB worker (one copy of the data)', async () => {
    const before = await servedBy(app.browser.page);
    await pageFetch(app.browser.page, '/websites?limit=1');
    const after = await servedBy(app.browser.page);
    expect(after.relay).toBe(before.relay + 1);
    expect(after['service-worker']).toBe(before['service-worker']);
  });

  it('shows JSON when the app tab itself navigates to an API URL, and the app again on the way back', async () => {
    const page = app.browser.page;
    const response = await page.goto(`${app.server.origin}/websites?limit=2`);
    expect(response?.fromServiceWorker()).toBe(true);
    expect(response?.headers()['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(await response!.text()).items).toHaveLength(2);
    const back = await page.goto(`${app.server.origin}/#/websites`);
    expect(back?.fromServiceWorker()).toBe(true);
    await page.waitForSelector('app-shell');
  });

  it('leaves other requests alone: app files come from the precache, unknown files from the server', async () => {
    const missing = await pageFetch(app.browser.page, '/no-such-file.txt');
    expect(missing.status).toBe(404);
    expect(missing.body).toBe('Not found');
    expect(app.server.log.some((r) => r.path === '/no-such-file.txt')).toBe(true);
    // Chromium logs every 4xx answer ("Failed to load resource"); the error statuses above are deliberate.
    expect(app.errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
  });
});

describe('API console', () => {
  it('sends the request it shows through the service worker and offers it against production', async () => {
    const page = app.browser.page;
    await page.goto(`${app.server.origin}/#/console`);
    const apiConsole = page.locator('api-console');
    await apiConsole.getByRole('combobox', { name: 'Endpoint' }).selectOption('ceilingrates');
    await apiConsole.getByLabel('keyword').fill('engineer');
    await apiConsole.getByLabel('filter 1').fill('education_level:BA|MA');
    await apiConsole.getByLabel('page_size').fill('2');
    const path = '/api/v3/search/ceilingrates/?keyword=engineer&filter=education_level:BA|MA&page_size=2';
    await expect(apiConsole.getByTestId('request-url').textContent()).resolves.toBe(`GET ${path}`);

    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === app.server.origin + path),
      apiConsole.getByRole('button', { name: 'Send' }).click(),
    ]);
    expect(response.fromServiceWorker()).toBe(true);
    await expect(apiConsole.getByTestId('response-status').textContent()).resolves.toMatch(/^200/);
    const shown = JSON.parse((await apiConsole.getByTestId('response-body').textContent())!);
    const reference = engine.handle({ method: 'GET', url: app.server.origin + path });
    expect(comparableBody({ body: JSON.stringify(shown), headers: reference.headers })).toEqual(comparableBody(reference));
    await expect(apiConsole.getByTestId('response-headers').textContent()).resolves.toContain('application/json; charset=utf-8');

    const production = 'https://api.gsa.gov/acquisition/calc/v3/api/ceilingrates/?keyword=engineer&filter=education_level:BA|MA&page_size=2&api_key=DEMO_KEY';
    await expect(apiConsole.getByTestId('curl-command').textContent()).resolves.toBe(`curl -sS '${production}'`);
    await expect(apiConsole.getByTestId('fetch-snippet').textContent()).resolves.toContain(`fetch('${production}')`);
  });
});

/**
 * Production's routing ignores a trailing slash and the letter case of the route words (docs/api/site-scanning.md).
 * Both browser paths that answer a page's fetch() recognise such paths: the relay to the app window's DB worker, and
 * the service worker's own engine when no app window is open. Last in this file: it closes the app window.
 */
describe('a trailing slash and letter case in the path, in the browser', () => {
  const PATHS = ['/Websites/?limit=1', '/analysis/'];

  const expectEngineJson = async (page: EvaluatingPage, path: string) => {
    const answer = await pageFetch(page, path);
    const reference = engine.handle({ method: 'GET', url: app.server.origin + path });
    expect(reference.status, path).toBe(200);
    expect(answer.status, path).toBe(200);
    expect(answer.headers['content-type'], path).toBe('application/json; charset=utf-8');
    expect(comparableBody(answer), path).toEqual(comparableBody(reference));
  };

  it('fetch("/Websites/?limit=1") and fetch("/analysis/") from the app window: JSON from the DB worker relay', async () => {
    const page = app.browser.page;
    await page.goto(`${app.server.origin}/#/websites`);
    await page.waitForSelector('app-shell');
    for (const path of PATHS) {
      const before = await servedBy(page);
      await expectEngineJson(page, path);
      const after = await servedBy(page);
      expect(after.relay, path).toBe(before.relay + 1);
      expect(after['service-worker'], path).toBe(before['service-worker']);
    }
  });

  it('the same from a page with no app window open: JSON from the service worker', async () => {
    for (const open of app.browser.context.pages()) await open.close();
    const plain = await app.browser.context.newPage();
    try {
      await plain.goto(`${app.server.origin}/playground.html`);
      await plain.waitForSelector('body[data-done]');
      for (const path of PATHS) {
        const before = await servedBy(plain);
        await expectEngineJson(plain, path);
        const after = await servedBy(plain);
        expect(after['service-worker'], path).toBe(before['service-worker'] + 1);
        expect(after.relay, path).toBe(before.relay);
      }
    } finally {
      await plain.close();
    }
  });
});
