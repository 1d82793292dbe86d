/**
 * A first visit from a plain static host, one that sends no caching header (no ETag, Last-Modified or
 * Cache-Control): the browser can neither revalidate a file nor reuse it unasked, so every app file the page loads
 * and the service worker precaches would cross the network twice unless the precache takes the page's copy
 * (docs/decisions/0400). Counted by the server, per path, once the service worker is installed and the data kept.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type Browser } from './browser.ts';
import { startStaticServer, type StaticServer } from './pwa-server.ts';
import { openAppUntilOfflineReady } from './pwa-helpers.ts';

let server: StaticServer;
let browser: Browser;

/** Path → [answers with a body, body bytes] for the app's files (the datasets have their own rules, 0406). */
function appFilesServed(): Record<string, [number, number]> {
  const served: Record<string, [number, number]> = {};
  for (const request of server.log) {
    if (request.path.startsWith('/data/') || request.status !== 200 || request.method !== 'GET') continue;
    const [count, bytes] = served[request.path] ?? [0, 0];
    served[request.path] = [count + 1, bytes + request.bytes];
  }
  return served;
}

beforeAll(async () => {
  server = await startStaticServer(dirname(inject('dataDir')), { cacheHeaders: false });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  const served = appFilesServed();
  const figures = {
    appFileBytes: Object.values(served).reduce((n, [, bytes]) => n + bytes, 0),
    sentTwiceOrMore: Object.fromEntries(Object.entries(served).filter(([, [count]]) => count > 1)),
    served,
  };
  const out = resolve(import.meta.dirname, '../../.tmp/pwa-figures');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'app-files-once.json'), JSON.stringify(figures, null, 2) + '\n');
  console.log('app files', JSON.stringify(figures));
});

/** Requests the browser makes of its own (the tab's icon, the web app manifest and its icons for installability). */
const BROWSERS_OWN = /^\/(icons\/.*|manifest\.webmanifest)$/;

describe('first visit from a host without caching headers', () => {
  it('sends each app file once: the precache keeps the copy the page loaded', async () => {
    await openAppUntilOfflineReady(browser.page, server.origin);
    // The service worker is active, so its install (the precache) is complete.
    const precached = await browser.page.evaluate(async () => {
      const names = (await caches.keys()).filter((name) => name.startsWith('workbox-precache'));
      const requests = await Promise.all(names.map(async (name) => (await caches.open(name)).keys()));
      return requests.flat().map((request) => new URL(request.url).pathname);
    });
    const served = appFilesServed();
    // The page loaded the DB worker, both wasm files and the app; the precache holds them; each crossed the network once.
    for (const file of [/^\/assets\/db\.worker-.*\.js$/, /^\/assets\/sql-wasm.*\.wasm$/, /^\/assets\/brotli_dec.*\.wasm$/, /^\/assets\/app-.*\.js$/]) {
      const path = Object.keys(served).find((p) => file.test(p));
      expect(path, String(file)).toBeDefined();
      expect(precached, path).toContain(path);
      expect(served[path!][0], path).toBe(1);
    }
    const twice = Object.entries(served).filter(([path, [count]]) => count > 1 && !BROWSERS_OWN.test(path));
    expect(Object.fromEntries(twice)).toEqual({});
  });
});
