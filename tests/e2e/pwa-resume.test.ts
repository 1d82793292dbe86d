/**
 * The field link through the real app (issue 24): a first visit whose dataset download is cut resumes where
 * it stopped when the app is opened again, says so ("Resuming at …"), and completes with the manifest's
 * sha256, no byte crossing twice; a server without Range still gets the app its data; and while a dataset is
 * on its way, a page's fetch() gets the API's own 503 with Retry-After and the other API answers. Behaviour
 * only: the link is cut and held by the test server, never timed.
 */
import { dirname } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../../harness/browsers/browser.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { pageFetch, readManifestFile, waitUntilControlled, waitUntilDataKept } from '../../harness/browsers/pwa-helpers.ts';
import { waitForData } from '../../harness/browsers/app.ts';
import type { DatasetArtifact, Manifest } from '../../dataset/artifact/format.ts';
import { downloadText } from '../../ui/components/app-shell/download-text.ts';

let manifest: Manifest;
/** The rates file the browser downloads: its Brotli transfer copy (the browsers have the decoder). */
let rates: Pick<DatasetArtifact, 'file' | 'bytes' | 'sha256'>;
/** The sha256 the opened dataset reports: the artifact's (the database is the same whichever file carried it). */
let ratesSha: string;
let server: StaticServer;
let browser: Browser;

beforeAll(() => {
  manifest = readManifestFile(inject('dataDir'));
  const artifact = manifest.datasets.ceilingrates!;
  rates = artifact.transfer ?? artifact;
  ratesSha = artifact.sha256;
});

beforeEach(async () => {
  server = await startStaticServer(dirname(inject('dataDir')));
  browser = await launchBrowser();
});

afterEach(async () => {
  await browser?.close();
  await server?.close();
});

/** The sha256 of each dataset as the DB worker opened it. */
function openedSha(page: Page): Promise<Record<string, string | null>> {
  return page.evaluate(async () => {
    const shell = document.querySelector('app-shell') as unknown as { db: { status(): Promise<{ datasets: { name: string; sha256: string | null }[] }> } };
    return Object.fromEntries((await shell.db.status()).datasets.map((d) => [d.name, d.sha256]));
  });
}

function bodyBytes(file: string): number {
  return server.log.filter((r) => r.path === `/data/${file}`).reduce((n, r) => n + r.bytes, 0);
}

/** Bytes of the rates file kept in the origin-private file system so far (its chunks, in the page's origin). */
function keptBytes(page: Page): Promise<number> {
  return page.evaluate(async (prefix) => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle('partial-downloads', { create: true });
    let total = 0;
    for await (const [name, handle] of dir as unknown as AsyncIterable<[string, FileSystemFileHandle]>) {
      if (name.startsWith(prefix) && name.endsWith('.part')) total += (await handle.getFile()).size;
    }
    return total;
  }, `ceilingrates.${rates.sha256}.`);
}

/**
 * Cut the first visit's rates download after `at` bytes and wait until what arrived is kept: returns how much
 * (at most `at`: bytes still in flight when the link went may never reach the page).
 */
async function cutFirstVisit(page: Page, at: number): Promise<number> {
  // The rates view's dataset downloads first: the cut lands in it.
  server.cutDataAfter(at);
  await page.goto(`${server.origin}/#/rates`);
  const alert = page.locator('app-shell').getByRole('alert').filter({ hasText: 'could not be loaded' });
  // The page says the load failed, how far it got and that the next try resumes (the browser's words last).
  await expect
    .poll(() => alert.textContent(), { timeout: 60_000 })
    .toMatch(/could not be loaded: .*the download broke off after [\d,]+ of [\d,]+ bytes; the [\d,]+ bytes received are kept .*\(network error\)/);
  expect(bodyBytes(rates.file)).toBe(at);
  let kept = -1;
  await expect
    .poll(
      async () => {
        const now = await keptBytes(page);
        const stable = now === kept;
        kept = now;
        return stable && now > 0;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBe(true);
  expect(kept).toBeLessThanOrEqual(at);
  return kept;
}

describe('a first visit whose download is cut', () => {
  it.each([0.3, 0.85])('at %f of the file resumes there when the app is opened again, says so, and completes with the right sha256', async (fraction) => {
    const page = browser.page;
    const cut = Math.floor(rates.bytes * fraction);
    const at = await cutFirstVisit(page, cut);

    const release = server.holdData();
    await page.reload();
    const line = page.locator('load-progress li[data-dataset="ceilingrates"]');
    const expected = downloadText({ phase: 'download', received: at, total: rates.bytes, resumedAt: at });
    await expect.poll(() => line.textContent(), { timeout: 30_000 }).toBe(`The ceiling rates are still on their way: ${expected}.`);
    expect(expected).toMatch(/^Resuming at [\d.]+ of [\d.]+ (KB|MB)$/);
    release();
    await waitForData(page);

    const requests = server.log.filter((r) => r.path === `/data/${rates.file}`);
    expect(requests.map((r) => [r.status, r.range ?? null])).toEqual([
      [200, null],
      [206, `bytes=${at}-`],
    ]);
    // Only what never reached the page crossed twice, and what was opened is the manifest's file.
    expect(bodyBytes(rates.file)).toBe(rates.bytes + (cut - at));
    expect((await openedSha(page)).ceilingrates).toBe(ratesSha);
    await waitUntilControlled(page);
    await waitUntilDataKept(page);
    expect((await pageFetch(page, '/api/v3/search/ceilingrates/?page=1')).status).toBe(200);
  });

  it('from a server without Range support still completes: the whole file comes again', async () => {
    const page = browser.page;
    const at = await cutFirstVisit(page, Math.floor(rates.bytes / 2));
    server.setRanges(false);
    await page.reload();
    await waitForData(page);
    const requests = server.log.filter((r) => r.path === `/data/${rates.file}`);
    expect(requests.map((r) => [r.status, r.range ?? null])).toEqual([
      [200, null],
      [200, `bytes=${at}-`],
    ]);
    expect((await openedSha(page)).ceilingrates).toBe(ratesSha);
  });
});

describe('while a dataset is on its way', () => {
  it("a page's fetch() gets the API's own 503 with Retry-After; the dataset already here answers", async () => {
    const page = browser.page;
    // The first visit opens on the websites: they arrive first; the rates are held back by the server.
    const release = server.holdData(`/data/${rates.file}`);
    expect(rates.file).toMatch(/\.br$/);
    await page.goto(`${server.origin}/#/websites`);
    await waitUntilControlled(page);
    await expect.poll(async () => (await pageFetch(page, '/websites?limit=1')).status, { timeout: 60_000 }).toBe(200);
    const answer = await pageFetch(page, '/api/v3/search/ceilingrates/?page=1');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(answer.body)).toMatchObject({ detail: expect.any(String) });
    const line = page.locator('load-progress li[data-dataset="ceilingrates"]');
    expect(await line.textContent()).toMatch(/^The ceiling rates are still on their way: /);
    release();
    await waitForData(page);
    expect((await pageFetch(page, '/api/v3/search/ceilingrates/?page=1')).status).toBe(200);
  });
});
