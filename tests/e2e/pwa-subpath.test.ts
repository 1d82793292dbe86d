/**
 * The app built for a sub-path (`BASE=/apps/gov/ npm run build`) and hosted by a plain static server under that path,
 * as GitHub Pages (`org.github.io/repo/`) or cloud.gov Pages host it: installable there, both APIs answered under the
 * base (app-root and gateway paths, relative URLs from a page), links kept under it, and all of it again with no
 * network. A prototype's own page added beside the build (not shipped in it) keeps working offline once opened.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type Browser } from '../../harness/browsers/browser.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { pageFetch, servedBy, untilOfflineReady } from '../../harness/browsers/pwa-helpers.ts';
import { assemblePublicDir, buildApp } from '../../harness/browsers/build-app.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const HOST_ROOT = resolve(ROOT, '.tmp/e2e-subpath');
const BASE = '/apps/gov/';
const APP_DIR = resolve(HOST_ROOT, `.${BASE}`);

/** A prototype's page, written beside the build after it: no precache lists it. Its URLs are relative to it. */
const PROTOTYPE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>My prototype</title><link rel="stylesheet" href="style.css"></head>
<body><p id="out">…</p><script type="module" src="app.js"></script></body></html>
`;
const PROTOTYPE_JS = `const sites = await (await fetch('../websites?limit=2')).json();
const rates = await (await fetch('../api/v3/search/ceilingrates/?keyword=engineer&page_size=1')).json();
document.getElementById('out').textContent = JSON.stringify({ sites: sites.items.length, next: sites.links.next, rates: rates.hits.hits.length });
document.body.dataset.done = 'true';
`;

let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  const reuse = process.env.E2E_REUSE_BUILD === '1' && existsSync(resolve(APP_DIR, 'index.html'));
  if (!reuse) {
    const publicDir = resolve(ROOT, '.tmp/e2e-subpath-public');
    assemblePublicDir(publicDir, inject('dataDir'));
    await buildApp({ outDir: APP_DIR, publicDir, base: BASE });
  }
  mkdirSync(resolve(APP_DIR, 'my-prototype'), { recursive: true });
  writeFileSync(resolve(APP_DIR, 'my-prototype/index.html'), PROTOTYPE_HTML);
  writeFileSync(resolve(APP_DIR, 'my-prototype/app.js'), PROTOTYPE_JS);
  writeFileSync(resolve(APP_DIR, 'my-prototype/style.css'), 'body { font-family: sans-serif; }\n');
  server = await startStaticServer(HOST_ROOT);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const app = (path = ''): string => `${server.origin}${BASE}${path}`;

describe('online, under /apps/gov/', () => {
  it('installs there: the service worker scope, the web app manifest and its icons', async () => {
    const page = browser.page;
    await page.goto(app());
    await untilOfflineReady(page);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)).toBe(app());

    const cdp = await browser.context.newCDPSession(page);
    expect(((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] }).installabilityErrors).toEqual([]);
    const { url, errors } = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect([url, errors]).toEqual([app('manifest.webmanifest'), []]);
    const { appId } = (await cdp.send('Page.getAppId')) as { appId?: string };
    expect(appId).toBe(app());
    const manifest = JSON.parse((await pageFetch(page, url)).body) as { start_url: string; scope: string; icons: { src: string }[] };
    expect([new URL(manifest.start_url, url).href, new URL(manifest.scope, url).href]).toEqual([app(), app()]);
    for (const icon of manifest.icons) {
      const answer = await pageFetch(page, new URL(icon.src, url).href);
      expect([icon.src, answer.status, answer.headers['content-type']]).toEqual([icon.src, 200, 'image/png']);
    }
  });

  it('answers both APIs under the base, at the app-root and gateway paths, with links under the path asked', async () => {
    const page = browser.page;
    const relative = JSON.parse((await pageFetch(page, 'websites?limit=2')).body);
    expect(relative.items).toHaveLength(2);
    expect(relative.links.next).toBe(`${BASE}websites?page=2&limit=2`);
    const gateway = JSON.parse((await pageFetch(page, app('technology/site-scanning/v1/websites?limit=2'))).body);
    expect(gateway.items).toEqual(relative.items);
    expect(gateway.links.next).toBe(`${BASE}technology/site-scanning/v1/websites?page=2&limit=2`);
    expect((await pageFetch(page, app(`websites/${relative.items[0].target_url}`))).status).toBe(200);
    for (const path of ['api/v3/search/ceilingrates/?keyword=engineer&page_size=2', 'acquisition/calc/v3/api/ceilingrates/?keyword=engineer&page_size=2']) {
      const answer = await pageFetch(page, app(path));
      expect([path, answer.status]).toEqual([path, 200]);
      expect(JSON.parse(answer.body).hits.hits).toHaveLength(2);
    }
    // The origin's root is not this deployment's: the host answers it, not the service worker.
    const root = await pageFetch(page, `${server.origin}/websites?limit=1`);
    expect([root.status, root.body]).toEqual([404, 'Not found']);
  });

  it('the API console shows and sends its request under the base', async () => {
    const page = browser.page;
    await page.goto(app('#/console'));
    const apiConsole = page.locator('api-console');
    await expect.poll(() => apiConsole.getByTestId('request-url').textContent()).toMatch(/^GET \/apps\/gov\/websites\?/);
    const path = (await apiConsole.getByTestId('request-url').textContent())!.slice('GET '.length);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === server.origin + path),
      apiConsole.getByRole('button', { name: 'Send' }).click(),
    ]);
    expect([response.fromServiceWorker(), response.status()]).toEqual([true, 200]);
    await expect(apiConsole.getByTestId('response-status').textContent()).resolves.toMatch(/^200/);
  });

  it("opens a prototype's own page beside the build, which reaches the APIs by relative URLs", async () => {
    const tab = await browser.context.newPage();
    await tab.goto(app('my-prototype/'));
    await tab.waitForSelector('body[data-done]');
    expect(JSON.parse((await tab.textContent('#out'))!)).toEqual({ sites: 2, next: `${BASE}websites?page=2&limit=2`, rates: 1 });
    await tab.close();
  });
});

describe('offline, under /apps/gov/', () => {
  beforeAll(async () => {
    server.reset();
    server.setOffline(true);
    await browser.context.setOffline(true);
  });

  it('reloads the app and answers both APIs from the local data', async () => {
    const page = browser.page;
    expect((await page.reload())?.fromServiceWorker()).toBe(true);
    await page.waitForSelector('app-shell');
    expect(JSON.parse((await pageFetch(page, 'websites?limit=1')).body).links.next).toBe(`${BASE}websites?page=2&limit=1`);
    expect(JSON.parse((await pageFetch(page, app('api/v3/search/ceilingrates/?keyword=engineer&page_size=2'))).body).hits.hits).toHaveLength(2);
  });

  it('shows JSON for a gateway path pasted into a new tab', async () => {
    const tab = await browser.context.newPage();
    const response = await tab.goto(app('technology/site-scanning/v1/websites?limit=1'));
    expect([response?.fromServiceWorker(), response?.status()]).toEqual([true, 200]);
    expect(JSON.parse(await response!.text()).links.first).toBe(`${BASE}technology/site-scanning/v1/websites?limit=1`);
    await tab.close();
  });

  it("keeps the prototype's page opened once, and the playground, answering with no app window open", async () => {
    for (const page of browser.context.pages()) await page.close();
    const tab = await browser.context.newPage();
    const response = await tab.goto(app('my-prototype/'));
    expect(response?.fromServiceWorker()).toBe(true);
    await tab.waitForSelector('body[data-done]');
    expect(JSON.parse((await tab.textContent('#out'))!)).toMatchObject({ sites: 2, rates: 1 });
    expect(await tab.evaluate(() => getComputedStyle(document.body).fontFamily)).toBe('sans-serif');
    await tab.goto(app('playground.html'));
    await tab.waitForSelector('body[data-done]');
    expect(await tab.getAttribute('body', 'data-done')).toBe('true');
    expect((await servedBy(tab))['service-worker']).toBeGreaterThan(0);
  });

  it('asked the host for nothing but what a browser asks of its own', () => {
    const own = server.refused.filter((r) => !/ \/apps\/gov\/(sw\.js|icons\/.*|manifest\.webmanifest)$/.test(r));
    expect(own).toEqual([]);
  });
});
