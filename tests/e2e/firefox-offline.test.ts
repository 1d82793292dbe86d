/**
 * Firefox ESR, as a laptop in the field may run it: a first visit installs the service worker and keeps the data,
 * both APIs answer a page's fetch() through the service worker, and the browser, quit and opened again with no
 * network, shows the app and answers both APIs from what it kept, with and without an app window.
 */
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { firefoxPage, launchFirefox, type FirefoxBrowser } from '../../harness/browsers/firefox.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { comparableBody, expectedHeaders, pageFetch, referenceEngine, servedBy, untilOfflineReady } from '../../harness/browsers/pwa-helpers.ts';
import type { Engine } from '../../engine/index.ts';

let server: StaticServer;
let firefox: FirefoxBrowser;
let engine: Engine;
const errors: string[] = [];

const REQUESTS = ['/websites?limit=2', '/api/v3/search/ceilingrates/?q=engineer&page_size=2'];

function watchErrors(page: Page): void {
  page.on('pageerror', (error) => errors.push(`pageerror: ${error instanceof Error ? error.message : String(error)}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
}

/** Each request answered in the page as the engine answers it in Node over the same files. */
async function expectEngineAnswers(page: Page): Promise<void> {
  for (const path of REQUESTS) {
    const answer = await pageFetch(firefoxPage(page), path);
    const reference = engine.handle({ method: 'GET', url: server.origin + path });
    expect(answer.status, path).toBe(reference.status);
    expect(answer.headers, path).toMatchObject(expectedHeaders(reference));
    expect(comparableBody(answer), path).toEqual(comparableBody(reference));
  }
}

beforeAll(async () => {
  const dataDir = inject('dataDir');
  server = await startStaticServer(dirname(dataDir));
  engine = await referenceEngine(dataDir);
  firefox = await launchFirefox();
  watchErrors(firefox.page);
});

afterAll(async () => {
  await firefox?.close();
  await server?.close();
});

describe('Firefox ESR, first visit', () => {
  it('runs the app, installs the service worker and keeps every dataset for it', async () => {
    const page = firefox.page;
    await page.goto(`${server.origin}/`);
    await untilOfflineReady(firefoxPage(page));
    await page.waitForSelector('app-shell');
  });

  it('answers both APIs through the service worker', async () => {
    const before = await servedBy(firefoxPage(firefox.page));
    await expectEngineAnswers(firefox.page);
    const after = await servedBy(firefoxPage(firefox.page));
    expect(after.relay + after['service-worker']).toBe(before.relay + before['service-worker'] + REQUESTS.length);
  });
});

describe('Firefox ESR, reopened with no network', () => {
  beforeAll(async () => {
    await firefox.quit();
    server.reset();
    server.setOffline(true);
    firefox = await launchFirefox({ userDataDir: firefox.userDataDir });
    watchErrors(firefox.page);
  });

  it('shows the app and answers both APIs from the kept data', async () => {
    const page = firefox.page;
    await page.goto(`${server.origin}/#/websites`);
    await page.waitForSelector('app-shell');
    expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
    await expectEngineAnswers(page);
  });

  it('answers a page with no app window from the service worker itself', async () => {
    const page = await firefox.browser.newPage();
    await firefox.page.close();
    await page.goto(`${server.origin}/playground.html`);
    await page.waitForSelector('body[data-done]');
    expect(await page.evaluate(() => document.body.dataset.done)).toBe('true');
    expect(await page.evaluate(() => document.querySelector('#status')?.textContent)).toMatch(/^200 .*service worker/);
    const before = await servedBy(firefoxPage(page));
    await expectEngineAnswers(page);
    expect((await servedBy(firefoxPage(page)))['service-worker']).toBe(before['service-worker'] + REQUESTS.length);
  });

  it('asked the server for nothing of its own and logged no error', () => {
    // The browser's own requests (the service worker's update check, the tab's default favicon) may still be
    // tried; no app file, data file or API request.
    const browsersOwn = new Set(['GET /sw.js', 'GET /favicon.ico']);
    expect(server.refused.filter((request) => !browsersOwn.has(request))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
