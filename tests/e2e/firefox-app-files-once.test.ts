/**
 * Firefox ESR, a first visit from a host that sends no caching header: each app file crosses the network once, the
 * precache keeping the copy the page loaded (docs/decisions/0400; Chromium's: pwa-app-files-once.test.ts).
 */
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { firefoxOpenUntilOfflineReady, launchFirefox, type FirefoxBrowser } from './firefox.ts';
import { startStaticServer, type StaticServer } from './pwa-server.ts';
import { appFilesServed, PAGE_LOADED, sentTwice, servedFigures } from './served-files.ts';

let server: StaticServer;
let firefox: FirefoxBrowser;

beforeAll(async () => {
  server = await startStaticServer(dirname(inject('dataDir')), { cacheHeaders: false });
  firefox = await launchFirefox();
});

afterAll(async () => {
  await firefox?.close();
  await server?.close();
  console.log('app files, Firefox', JSON.stringify(servedFigures(appFilesServed(server.log))));
});

describe('Firefox ESR, first visit from a host without caching headers', () => {
  it('sends each app file once: the precache keeps the copy the page loaded', async () => {
    const page = firefox.page;
    await firefoxOpenUntilOfflineReady(page, server.origin);
    const precached = await page.evaluate(async () => {
      const names = (await caches.keys()).filter((name) => name.startsWith('workbox-precache'));
      const requests = await Promise.all(names.map(async (name) => (await caches.open(name)).keys()));
      return requests.flat().map((request) => new URL(request.url).pathname);
    });
    const served = appFilesServed(server.log);
    for (const file of PAGE_LOADED) {
      const path = Object.keys(served).find((p) => file.test(p));
      expect(path, String(file)).toBeDefined();
      expect(precached, path).toContain(path);
      expect(served[path!][0], path).toBe(1);
    }
    expect(sentTwice(served)).toEqual({});
  });
});
