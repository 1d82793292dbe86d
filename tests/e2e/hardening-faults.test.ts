/**
 * Issue 7: faults. The DB worker is lost while a request waits on it (its context closes, or it throws
 * an uncaught error): the request gets an error, a notice says so, a new worker opens the data and the
 * views and the service worker's relay answer again. The service worker is replaced by a new build while
 * the page keeps fetching: every fetch answers. A dataset in the service worker's cache is corrupted: the
 * app says which file and why, the other dataset answers, and Reset fetches a good copy.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dirname } from 'node:path';
import { NEXT_RELEASE } from '../../harness/browsers/build-app.ts';
import type { Page, Worker } from 'playwright-core';
import { launchBrowser, type Browser } from '../../harness/browsers/browser.ts';
import { dropKeptDatabases, waitForData, waitForRendered } from '../../harness/browsers/app.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { openAppUntilOfflineReady, pageFetch, servedBy, waitUntilControlled } from '../../harness/browsers/pwa-helpers.ts';

const RATES = '/api/v3/search/ceilingrates/';

/** Faults injected, for the report. */
const injected: string[] = [];

afterAll(() => {
  console.log(`hardening: ${injected.length} faults injected: ${injected.join('; ')}`);
});

function dbWorker(page: Page, not?: Worker): Worker {
  const found = page.workers().filter((w) => /db\.worker/.test(w.url()) && w !== not);
  if (found.length !== 1)
    throw new Error(
      `expected one DB worker, found ${found.length}: ${page
        .workers()
        .map((w) => w.url())
        .join(', ')}`,
    );
  return found[0];
}

async function waitForNewDbWorker(page: Page, old: Worker): Promise<Worker> {
  await expect.poll(() => page.workers().filter((w) => /db\.worker/.test(w.url()) && w !== old).length, { timeout: 30_000 }).toBe(1);
  return dbWorker(page, old);
}

/**
 * Make the DB worker fail on the next API request it answers, at the moment it would answer: the reply is
 * never posted, and instead the worker closes itself or throws an uncaught error. The request was taken
 * and worked on, so the page has a call waiting on a worker that is going away.
 */
function trapNextRequest(worker: Worker, how: 'close' | 'throw'): Promise<void> {
  return worker.evaluate((how) => {
    const scope = self as unknown as { postMessage(message: unknown, transfer?: Transferable[]): void; close(): void };
    const post = scope.postMessage.bind(scope);
    let sprung = false;
    scope.postMessage = (message: unknown, transfer?: Transferable[]) => {
      // Comlink's reply to handle/handleBinary: the engine's answer (status, headers, body) under an id.
      const value = (message as { id?: string; value?: { status?: unknown; headers?: unknown } } | null)?.value;
      const isAnswer = typeof value?.status === 'number' && typeof value.headers === 'object';
      if (sprung || !isAnswer) return post(message, transfer);
      sprung = true;
      if (how === 'close') scope.close();
      else
        setTimeout(() => {
          throw new Error('injected crash');
        });
    };
  }, how);
}

/** Ask the DB client directly; the answer, or the error's name and message. */
function askDb(page: Page, url: string): Promise<string> {
  return page.evaluate(async (url) => {
    const db = (document.querySelector('app-shell') as unknown as { db: { request(u: string): Promise<{ status: number }> } }).db;
    try {
      return `answered ${(await db.request(url)).status}`;
    } catch (error) {
      return `${(error as Error).name}: ${(error as Error).message}`;
    }
  }, url);
}

const notice = (page: Page) => page.locator('app-shell worker-notice p');

describe('the DB worker is lost mid-request', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(`${inject('baseUrl')}/#/rates`);
    await waitForData(page);
    await waitForRendered(page, 'rates-view', `${RATES}?page_size=50`);
    await waitUntilControlled(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  for (const how of ['close', 'throw'] as const) {
    it(`(${how === 'close' ? 'its context closes' : 'it throws an uncaught error'}): the request gets an error, the notice says so, a new worker answers`, async () => {
      const old = dbWorker(page);
      await trapNextRequest(old, how);
      injected.push(`DB worker ${how === 'close' ? 'closed' : 'uncaught error'} mid-request`);
      const answer = await askDb(page, `${RATES}?keyword=engineer`);
      expect(answer).toMatch(how === 'close' ? /^WorkerLostError: the data worker stopped/ : /^WorkerLostError: the data worker failed: .*injected crash/);

      await expect.poll(() => notice(page).getAttribute('data-phase'), { timeout: 60_000 }).toBe('recovered');
      expect(await notice(page).textContent()).toMatch(/was replaced: the data is open again\. (One request|\d+ requests) it was answering got an error\./);
      const replacement = await waitForNewDbWorker(page, old);
      expect(replacement).not.toBe(old);
      expect(await askDb(page, `${RATES}?keyword=engineer`)).toBe('answered 200');

      // The view asks the new worker.
      await page.evaluate(() => (location.hash = '#/rates?keyword=analyst'));
      await waitForRendered(page, 'rates-view', `${RATES}?keyword=analyst&page_size=50`);
      await page.evaluate(() => (location.hash = '#/rates'));
      await waitForRendered(page, 'rates-view', `${RATES}?page_size=50`);

      // The service worker's relay reaches the new worker (its ports to the old one were dropped).
      const before = await servedBy(page);
      const relayed = await pageFetch(page, `${RATES}?page_size=1`);
      expect(relayed.status).toBe(200);
      expect((await servedBy(page)).relay).toBe(before.relay + 1);

      await page.getByRole('button', { name: 'Dismiss' }).click();
      expect(await notice(page).count()).toBe(0);
    });
  }

  it('a view waiting on the lost worker draws its answer once the data is open again', async () => {
    const old = dbWorker(page);
    await trapNextRequest(old, 'close');
    injected.push('DB worker closed while a view waited');
    await page.evaluate(() => (location.hash = '#/rates?keyword=engineer'));
    await expect.poll(() => notice(page).getAttribute('data-phase'), { timeout: 60_000 }).toBe('recovered');
    await waitForRendered(page, 'rates-view', `${RATES}?keyword=engineer&page_size=50`);
    expect(await page.locator('rates-view').getByRole('alert').count()).toBe(0);
    expect(await page.locator('rates-table tbody tr').count()).toBeGreaterThan(0);
  });
});

const SWAP = 'service worker replaced (skipWaiting) while the page fetched';

describe('the service worker is replaced while the page fetches', () => {
  let server: StaticServer;
  let next: string;
  const current = () => dirname(inject('dataDir'));

  beforeAll(async () => {
    // The served build again with one more file: its sw.js differs, so the browser installs it as an update.
    next = inject('nextBuildDir');
    server = await startStaticServer(current());
  });

  afterAll(async () => {
    await server?.close();
  });

  // Each attempt starts from a fresh profile on the current build. The browser activates the new version only
  // once the old one has no event in flight; now and then (about one full suite in five on this 2-core machine) it
  // does not within minutes, with the page pausing between bursts: such an attempt stops after two minutes and
  // the test runs once more. Every fetch of every attempt must still answer.
  it('every fetch made before, during and after the new version takes over answers', { retry: 1, timeout: 300_000 }, async () => {
    server.setRoot(current());
    const browser = await launchBrowser();
    try {
      await swapWhileFetching(browser);
    } finally {
      await browser.close();
    }
  });

  async function swapWhileFetching(browser: Browser): Promise<void> {
    await openAppUntilOfflineReady(browser.page, server.origin);
    await waitForData(browser.page);
    const page = browser.page;
    const first = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL + ' ' + (navigator.serviceWorker.controller as ServiceWorker).state);
    expect(first).toMatch(/sw\.js activated$/);
    server.setRoot(next);
    await page.evaluate(async () => {
      const registration = (await navigator.serviceWorker.getRegistration())!;
      await registration.update();
      const installing = registration.installing ?? registration.waiting;
      if (!installing) throw new Error('no new service worker');
      if (installing.state !== 'installed') {
        await new Promise<void>((resolve, reject) =>
          installing.addEventListener('statechange', () =>
            installing.state === 'installed' ? resolve() : installing.state === 'redundant' && reject(new Error('install failed')),
          ),
        );
      }
    });
    if (!injected.includes(SWAP)) injected.push(SWAP);
    // Fetch in a loop from the page; skip waiting in the middle; keep fetching until the new one controls
    // the page and has answered a few more.
    const run = await page.evaluate(async (rates) => {
      const urls = [`${rates}?page_size=5`, '/websites?limit=3', '/analysis', `${rates}?keyword=engineer&page_size=2`, '/websites/does-not-exist.gov'];
      const results: { url: string; status: number; ok: boolean; era: string }[] = [];
      let era = 'old';
      navigator.serviceWorker.addEventListener('controllerchange', () => (era = 'new'));
      const registration = (await navigator.serviceWorker.getRegistration())!;
      const one = async (url: string) => {
        const seen = era;
        const response = await fetch(url, { cache: 'no-store' });
        const body = await response.text();
        let ok = false;
        try {
          ok = typeof JSON.parse(body) === 'object';
        } catch {
          ok = false;
        }
        results.push({ url, status: response.status, ok, era: seen });
      };
      let sent = 0;
      const started = Date.now();
      // Counted by the era a fetch started in, as the results record it: a burst that began under the old
      // version and ended under the new one counts as the old one's.
      const afterSwap = () => results.filter((r) => r.era === 'new').length;
      while (afterSwap() < 40) {
        const batch = urls.map((u) => one(u));
        if (sent === 20) registration.waiting!.postMessage({ type: 'SKIP_WAITING' });
        sent += batch.length;
        await Promise.all(batch);
        if (sent > 3_000 || Date.now() - started > 120_000) break;
        // A page fetches in bursts: the old version finishes its fetches between bursts, the moment the
        // browser waits for before it activates the new one (it never cuts a fetch off). The pauses grow
        // while the old version is still in charge (on a loaded machine 10 ms was not always enough).
        await new Promise((resolve) => setTimeout(resolve, era === 'old' && sent > 100 ? Math.min(20 * (sent / 100), 500) : 10));
      }
      return { results, era, active: registration.active?.state };
    }, RATES);
    console.log(`hardening: ${run.results.length} fetches across the service worker swap (${run.results.filter((r) => r.era === 'new').length} after it)`);
    expect(run.era).toBe('new');
    expect(['activating', 'activated']).toContain(run.active);
    expect(run.results.filter((r) => r.era === 'old').length).toBeGreaterThan(0);
    expect(run.results.filter((r) => r.era === 'new').length).toBeGreaterThanOrEqual(40);
    const wrong = run.results.filter((r) => !r.ok || r.status !== (r.url.includes('does-not-exist') ? 404 : 200));
    expect(wrong).toEqual([]);
    // The new version serves the new build's files.
    expect(await page.evaluate(async (file) => (await fetch(`/${file}`)).text(), NEXT_RELEASE.file)).toBe(NEXT_RELEASE.text);
  }
});

describe('a dataset corrupted in the service worker cache', () => {
  let browser: Browser;
  let server: StaticServer;

  beforeAll(async () => {
    server = await startStaticServer(dirname(inject('dataDir')));
    browser = await launchBrowser();
    await openAppUntilOfflineReady(browser.page, server.origin);
    await waitForData(browser.page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('is reported by name, the other dataset answers, and Reset loads a good copy from the server', async () => {
    const page = browser.page;
    // The unpacked copies the first load kept go too: the corrupted download is then what reopening reads.
    await dropKeptDatabases(page, ['websites', 'ceilingrates'], true);
    const cacheName = await page.evaluate(async () => {
      const name = (await caches.keys()).find((k) => k.startsWith('offline-gov-api-data-'));
      if (!name) throw new Error('no dataset cache');
      const cache = await caches.open(name);
      const url = new URL('/data/ceilingrates.sqlite.br', location.href).href;
      const stored = (await cache.match(url))!;
      const bytes = new Uint8Array(await stored.arrayBuffer());
      bytes[bytes.length >> 1] ^= 0xff;
      await cache.put(url, new Response(bytes, { headers: stored.headers }));
      return name;
    });
    expect(cacheName).toMatch(/^offline-gov-api-data-/);
    injected.push('one byte of a cached dataset flipped (sha256 mismatch)');
    server.reset();
    await page.goto(`${server.origin}/#/rates`);
    // Offline, so the damaged copy cannot be replaced by a download on the way (online, it would be at once).
    await browser.context.setOffline(true);
    await page.reload();
    const alert = page.locator('app-shell').getByRole('alert').filter({ hasText: 'could not be loaded' });
    await expect.poll(() => alert.textContent(), { timeout: 60_000 }).toMatch(/ceilingrates\.sqlite\.br: sha256 mismatch/);
    await browser.context.setOffline(false);
    await expect.poll(() => page.locator('rates-view').getByRole('alert').textContent(), { timeout: 30_000 }).toMatch(/HTTP 503/);
    // The websites were not touched and answer.
    await page.getByRole('link', { name: 'Websites' }).click();
    await waitForRendered(page, 'websites-view', '/websites?page=1&limit=25');

    await page.getByRole('link', { name: 'Datasets' }).click();
    await page.getByRole('button', { name: 'Reset (download everything again)' }).click();
    await expect.poll(() => page.locator('[data-dataset="ceilingrates"] .badge').textContent(), { timeout: 60_000 }).toBe('Loaded');
    // The good copy came from the server, not the cache.
    expect(server.log.some((r) => r.path === '/data/ceilingrates.sqlite.br' && r.status === 200 && r.bytes > 0)).toBe(true);
    await page.getByRole('link', { name: 'Ceiling rates' }).click();
    await waitForRendered(page, 'rates-view', `${RATES}?page_size=50`);

    // The good copy replaced the corrupted one in the cache: the next visit, offline, loads it.
    await browser.context.setOffline(true);
    await page.reload();
    await waitForRendered(page, 'rates-view', `${RATES}?page_size=50`);
    await browser.context.setOffline(false);
  });
});
