/**
 * A first visit from a plain static host, one that sends no caching header (no ETag, Last-Modified or
 * Cache-Control): the browser can neither revalidate a file nor reuse it unasked, so every app file the page loads
 * and the service worker precaches would cross the network twice unless the precache takes the page's copy
 * (docs/decisions/0400). Counted by the server, per path, once the service worker is installed and the data kept.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { openOfflineReadyApp, type OfflineReadyApp } from '../../harness/browsers/pwa-helpers.ts';
import { appFilesServed, expectEachAppFileSentOnce, servedFigures } from './served-files.ts';

let app: OfflineReadyApp;

beforeAll(async () => {
  app = await openOfflineReadyApp(dirname(inject('dataDir')), { cacheHeaders: false });
});

afterAll(async () => {
  if (!app) return;
  await app.close();
  const figures = servedFigures(appFilesServed(app.server.log));
  const out = resolve(import.meta.dirname, '../../.tmp/pwa-figures');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'app-files-once.json'), JSON.stringify(figures, null, 2) + '\n');
  console.log('app files', JSON.stringify(figures));
});

describe('first visit from a host without caching headers', () => {
  it('sends each app file once: the precache keeps the copy the page loaded', async () => {
    await expectEachAppFileSentOnce(app.browser.page, app.server.log);
  });
});
