/**
 * Firefox ESR, a first visit from a host that sends no caching header: each app file crosses the network once, the
 * precache keeping the copy the page loaded (docs/decisions/0400; Chromium's: pwa-app-files-once.test.ts).
 */
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { firefoxPage, launchFirefox, type FirefoxBrowser } from '../../harness/browsers/firefox.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { untilOfflineReady } from '../../harness/browsers/pwa-helpers.ts';
import { appFilesServed, expectEachAppFileSentOnce, servedFigures } from './served-files.ts';

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
    await firefox.page.goto(`${server.origin}/`);
    const page = firefoxPage(firefox.page);
    await untilOfflineReady(page);
    await expectEachAppFileSentOnce(page, server.log);
  });
});
