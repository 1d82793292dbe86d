/**
 * One visit, then no network at all: the app reloads and answers, a new tab pasted with an API URL shows
 * JSON, and a plain page on the origin gets its fetch() answered with no app window open. The first visit
 * sends the datasets over the network once (the service worker's copy comes from the HTTP cache).
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Manifest } from '../../dataset/artifact/format.ts';
import { launchBrowser, type Browser } from '../../harness/browsers/browser.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { openAppUntilOfflineReady, pageFetch, readManifestFile, servedBy } from '../../harness/browsers/pwa-helpers.ts';

let server: StaticServer;
let browser: Browser;
let distDir: string;
let manifest: Manifest;
const figures: Record<string, unknown> = {};

/** Bytes of every file a visitor could be sent (source maps aside). */
function shippedBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += shippedBytes(path);
    else if (!entry.name.endsWith('.map') && !entry.name.startsWith('.')) total += statSync(path).size;
  }
  return total;
}

beforeAll(async () => {
  distDir = dirname(inject('dataDir'));
  manifest = readManifestFile(join(distDir, 'data'));
  server = await startStaticServer(distDir);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  const out = resolve(import.meta.dirname, '../../.tmp/pwa-figures');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'offline.json'), JSON.stringify(figures, null, 2) + '\n');
  console.log('pwa figures', JSON.stringify(figures));
});

describe('first visit', () => {
  it('caches everything for offline use, with each dataset crossing the network once', async () => {
    await openAppUntilOfflineReady(browser.page, server.origin);
    // The DB worker has its data too once it answers a relayed request.
    expect((await pageFetch(browser.page, '/websites?limit=1')).status).toBe(200);
    expect((await servedBy(browser.page)).relay).toBeGreaterThan(0);

    // The browser downloads each dataset's Brotli transfer copy, once; the gzip'd file not at all.
    for (const artifact of Object.values(manifest.datasets)) {
      const file = (artifact!.transfer ?? artifact!).file;
      const bodies = server.log.filter((r) => r.path === `/data/${file}` && r.status === 200);
      expect(bodies, file).toHaveLength(1);
      if (artifact!.transfer) expect(server.log.filter((r) => r.path === `/data/${artifact!.file}`)).toEqual([]);
    }
    const datasetBytes = Object.values(manifest.datasets).reduce((n, a) => n + (a!.transfer ?? a!).bytes, 0);
    figures.firstVisit = { bytesSent: server.bytesSent(), shippedBytes: shippedBytes(distDir), datasetBytes, requests: server.log.length };
  });
});

describe('offline', () => {
  beforeAll(async () => {
    server.reset();
    server.setOffline(true);
    await browser.context.setOffline(true);
  });

  it('reloads the app and answers from the local data', async () => {
    const page = browser.page;
    const response = await page.reload();
    expect(response?.fromServiceWorker()).toBe(true);
    const answer = await pageFetch(page, '/api/v3/search/ceilingrates/?keyword=engineer&page_size=2');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).hits.hits).toHaveLength(2);
    await page.waitForSelector('app-shell');
  });

  it('opens the app in a new window and answers its first API request', async () => {
    const page = await browser.context.newPage();
    const started = Date.now();
    await page.goto(`${server.origin}/#/websites`);
    const answer = await pageFetch(page, '/websites?limit=2');
    figures.offlineOpenToFirstAnswerMs = Date.now() - started;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).items).toHaveLength(2);
    await page.close();
  });

  it.each([
    ['/websites?limit=2', (body: any) => expect(body.items).toHaveLength(2)],
    ['/api/v3/search/ceilingrates/?keyword=engineer&page_size=2', (body: any) => expect(body.hits.hits).toHaveLength(2)],
  ])('shows JSON for %s pasted into a new tab', async (path, check) => {
    const tab = await browser.context.newPage();
    const response = await tab.goto(server.origin + path);
    expect(response?.fromServiceWorker()).toBe(true);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('application/json; charset=utf-8');
    check(JSON.parse(await response!.text()));
    await tab.close();
  });

  it('answers the playground page with no app window open', async () => {
    for (const page of browser.context.pages()) await page.close();
    const page = await browser.context.newPage();
    const started = Date.now();
    await page.goto(`${server.origin}/playground.html`);
    await page.waitForSelector('body[data-done]');
    figures.playgroundNoAppWindowMs = Date.now() - started;
    expect(await page.getAttribute('body', 'data-done')).toBe('true');
    expect(await page.textContent('#status')).toMatch(/^200 .*service worker/);
    expect(JSON.parse((await page.textContent('#result'))!).items).toHaveLength(3);
    const counts = await servedBy(page);
    expect(counts['service-worker']).toBeGreaterThan(0);

    // The service worker's own engine answers every method the way the engine does.
    const head = await pageFetch(page, '/api/v3/search/ceilingrates/?keyword=engineer', 'HEAD');
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    const options = await pageFetch(page, '/acquisition/calc/v3/api/ceilingrates/', 'OPTIONS');
    expect(options.status).toBe(200);
    expect(options.headers.allow).toBe('GET, HEAD, OPTIONS');
    const post = await pageFetch(page, '/api/v3/search/ceilingrates/', 'POST');
    expect(JSON.parse(post.body)).toEqual({ detail: 'Method "POST" not allowed.' });
    const missing = await pageFetch(page, '/websites/no-such-site.example.gov');
    expect(missing.status).toBe(404);
    // HEAD and the missing site read data; OPTIONS and POST are answered from the route alone.
    const after = await servedBy(page);
    expect([after['service-worker'], after.early]).toEqual([counts['service-worker'] + 2, counts.early + 2]);
  });

  it('asked the server for no app file, data file or API answer', () => {
    // The browser's own background requests (the service worker update check, the installability
    // checker's icon fetches) are not the app's and may still be tried.
    const own = server.refused.filter((r) => !/ \/(sw\.js|icons\/.*|manifest\.webmanifest)$/.test(r));
    expect(own).toEqual([]);
  });
});
