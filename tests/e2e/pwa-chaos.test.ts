/**
 * A first visit over a bad link (issue 39): a throttled link that is cut in each dataset download while tabs are
 * closed and opened again, views switched, and the service worker left to answer alone. After each scenario: the
 * link carried no dataset file from its first byte twice (a cut one is resumed from its kept chunks), the data
 * bytes carried are at most the shipped bytes plus 1 MiB, both APIs answer with the manifest's data (nothing
 * half-written was opened), and what answered before a cut still answers. Behaviour only: the cuts are counted
 * in bytes, never timed. The browser is driven through harness/browsers/browser-driver.ts.
 */
import { dirname } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { startChaosLink, type ChaosLink } from './chaos-link.ts';
import { DRIVERS, pageUntil, waitForServiceWorker, type BrowserDriver, type DriverPage } from '../../harness/browsers/browser-driver.ts';
import { readManifestFile } from '../../harness/browsers/pwa-helpers.ts';
import type { Manifest } from '../../dataset/artifact/format.ts';
import type { DatasetName } from '../../engine/http/types.ts';

const MiB = 1024 * 1024;
/** A download cut mid-body, as each browser words it (Chromium, Firefox, WebKit). */
const CUT_ERROR = /network error|Failed to fetch|Error in input stream|Load failed/;
/** The two APIs of the first visit (the registry may hold more datasets than the build ships). */
type Api = 'websites' | 'ceilingrates';
const URLS: Record<Api, string> = { websites: '/websites?limit=3', ceilingrates: '/api/v3/search/ceilingrates/?page=1' };

let manifest: Manifest;
/** The file the browser downloads for each dataset (its Brotli transfer copy) and its size. */
let files: Record<Api, { path: string; bytes: number }>;
let shipped: number;
let server: StaticServer;
let link: ChaosLink;
let driver: BrowserDriver;

/** Bytes carried per scenario, for docs/decisions/0406 (printed; `npx vitest run --project e2e tests/e2e/pwa-chaos.test.ts`). */
const figures: Record<string, { carried: number; shipped: number; requests: string[] }> = {};

beforeAll(() => {
  manifest = readManifestFile(inject('dataDir'));
  const entry = (name: Api) => {
    const artifact = manifest.datasets[name]!;
    const file = artifact.transfer ?? artifact;
    return { path: `/data/${file.file}`, bytes: file.bytes };
  };
  files = { websites: entry('websites'), ceilingrates: entry('ceilingrates') };
  shipped = files.websites.bytes + files.ceilingrates.bytes;
});

interface Status {
  datasets: { name: DatasetName; loaded: boolean; error: string | null; sha256: string | null }[];
}

function status(page: DriverPage): Promise<Status> {
  return page.evaluate(async () => {
    const shell = document.querySelector('app-shell') as unknown as { db: { status(): Promise<Status> } };
    return shell.db.status();
  }, null);
}

/** The app's load is over in this tab: every dataset opened or failed. */
function loadSettled(page: DriverPage): Promise<void> {
  return pageUntil(
    page,
    async (shipped: string[]) => {
      const shell = document.querySelector('app-shell') as unknown as { db?: { status(): Promise<Status> } } | null;
      if (!shell?.db) return false;
      return (await shell.db.status()).datasets.every((d) => !shipped.includes(d.name) || d.loaded || d.error !== null);
    },
    Object.keys(manifest.datasets),
    'the load settled',
  );
}

function answer(page: DriverPage, url: string): Promise<{ status: number; body: string }> {
  return page.evaluate(async (u) => {
    const response = await fetch(u, { cache: 'no-store' });
    return { status: response.status, body: await response.text() };
  }, url);
}

/** An answer without its timing (`took` differs between two runs of the same search). */
function comparable(body: string): unknown {
  const value = JSON.parse(body) as Record<string, unknown>;
  delete value.took;
  return value;
}

/** The app answers both APIs from the manifest's data, opened whole, in this tab. */
async function expectWholeAndAnswering(page: DriverPage): Promise<Record<Api, unknown>> {
  await pageUntil(page, async () => !!navigator.serviceWorker.controller, null, 'controlled');
  await loadSettled(page);
  const opened = await status(page);
  for (const d of opened.datasets.filter((d) => manifest.datasets[d.name])) {
    expect(d.error, d.name).toBeNull();
    // What was opened is the manifest's file: a half-written one never passes the sha256.
    expect(d.sha256, d.name).toBe(manifest.datasets[d.name]!.sha256);
  }
  const answers = {} as Record<Api, unknown>;
  for (const name of ['websites', 'ceilingrates'] as const) {
    const got = await answer(page, URLS[name]);
    expect(got.status, name).toBe(200);
    answers[name] = comparable(got.body);
  }
  return answers;
}

/** The link carried no dataset file from its first byte twice, and at most the shipped bytes plus 1 MiB. */
function expectEachFileOnce(scenario: string): void {
  const carried = link.data.reduce((n, r) => n + r.bytes, 0);
  figures[scenario] = { carried, shipped, requests: link.data.map((r) => `${r.path} ${r.status} ${r.range ?? 'from 0'} ${r.bytes}${r.cut ? ' cut' : ''}`) };
  console.log(`${scenario}: ${carried} data bytes carried for ${shipped} shipped\n  ${figures[scenario].requests.join('\n  ')}`);
  for (const { path, bytes } of Object.values(files)) {
    const requests = link.data.filter((r) => r.path === path);
    expect(
      requests.filter((r) => r.range === null),
      path,
    ).toHaveLength(1);
    // Every later request resumes: only bytes in flight at a cut may cross twice.
    for (const r of requests.slice(1)) expect(r.status, path).toBe(206);
    expect(
      requests.reduce((n, r) => n + r.bytes, 0),
      path,
    ).toBeGreaterThanOrEqual(bytes);
  }
  expect(carried).toBeLessThanOrEqual(shipped + MiB);
}

/** The dataset's error in this tab's status (null: it opened). */
async function errorOf(page: DriverPage, name: Api): Promise<string | null> {
  return (await status(page)).datasets.find((d) => d.name === name)!.error;
}

describe.each(Object.entries(DRIVERS))('a first visit over a link that is cut (%s)', (_name, launch) => {
  beforeEach(async () => {
    server = await startStaticServer(dirname(inject('dataDir')));
    link = await startChaosLink(server.origin);
    driver = await launch();
  });

  afterEach(async () => {
    await driver?.close();
    await link?.close();
    await server?.close();
  });

  it('tabs closed at cuts in both files and opened on the other view: each file is resumed, never downloaded again', async () => {
    const { websites, ceilingrates: rates } = files;
    // Tab 1 opens on the websites: their file is cut at 40 %, then the rates' (which follow) at half.
    link.cutAfter(Math.floor(websites.bytes * 0.4), Math.floor(websites.bytes * 0.4 + rates.bytes * 0.5));
    const first = await driver.open(`${link.origin}/#/websites`);
    await loadSettled(first);
    expect(await errorOf(first, 'websites')).toMatch(CUT_ERROR);
    expect(await errorOf(first, 'ceilingrates')).toMatch(CUT_ERROR);
    await first.close();
    // Tab 2 opens on the rates: they resume first and are cut again; the websites resume after them and open.
    link.cutAfter(Math.floor(rates.bytes * 0.2));
    const second = await driver.open(`${link.origin}/#/rates`);
    await loadSettled(second);
    expect(await errorOf(second, 'ceilingrates')).toMatch(CUT_ERROR);
    const websitesThen = await answer(second, URLS.websites);
    expect(websitesThen.status).toBe(200);
    await second.close();
    // Tab 3: the rates resume and open; the websites, here before, answer as they did.
    const third = await driver.open(`${link.origin}/#/websites`);
    const answers = await expectWholeAndAnswering(third);
    expect(answers.websites).toEqual(comparable(websitesThen.body));
    expectEachFileOnce(`${driver.name}: tabs closed at cuts in both files`);
  });

  it('the service worker alone resumes what a closed tab left; the next tab downloads nothing', async () => {
    link.cutAfter(Math.floor(files.ceilingrates.bytes * 0.3));
    const app = await driver.open(`${link.origin}/#/rates`);
    await waitForServiceWorker(app);
    await loadSettled(app);
    await app.close();
    // No app window: a plain page of the origin is answered by the service worker's own engine.
    const plain = await driver.open(`${link.origin}/playground.html`);
    await waitForServiceWorker(plain);
    const alone = {} as Record<Api, unknown>;
    for (const name of ['ceilingrates', 'websites'] as const) {
      const got = await answer(plain, URLS[name]);
      expect(got.status, name).toBe(200);
      alone[name] = comparable(got.body);
    }
    await plain.close();
    const carriedBefore = link.data.length;
    const next = await driver.open(`${link.origin}/#/websites`);
    expect(await expectWholeAndAnswering(next)).toEqual(alone);
    // Every file was here: the new tab's worker brought none over the link.
    expect(link.data.length).toBe(carriedBefore);
    expectEachFileOnce(`${driver.name}: service worker alone`);
  });

  it('the service worker and a new tab asking at once, after a cut tab: each file crosses once', async () => {
    link.cutAfter(Math.floor(files.ceilingrates.bytes * 0.4));
    const app = await driver.open(`${link.origin}/#/rates`);
    await waitForServiceWorker(app);
    await loadSettled(app);
    await app.close();
    // A slow link, so the service worker's engine is still bringing the rates when the new tab's worker asks for them.
    link.setRate(64 * 1024);
    const plain = await driver.open(`${link.origin}/playground.html`);
    await waitForServiceWorker(plain);
    await plain.evaluate((url) => {
      (globalThis as unknown as { asked: Promise<number> }).asked = fetch(url, { cache: 'no-store' }).then((r) => r.status);
    }, URLS.ceilingrates);
    const next = await driver.open(`${link.origin}/#/rates`);
    await expectWholeAndAnswering(next);
    expect(await plain.evaluate(() => (globalThis as unknown as { asked: Promise<number> }).asked, null)).toBe(200);
    expectEachFileOnce(`${driver.name}: service worker and a new tab at once`);
  });

  it('views switched while the files arrive and a cut in each: what answered before still answers, and a reload completes', async () => {
    const { websites, ceilingrates: rates } = files;
    link.cutAfter(Math.floor(websites.bytes * 0.7), Math.floor(websites.bytes * 0.7 + rates.bytes * 0.2));
    const page = await driver.open(`${link.origin}/#/websites`);
    // Switched once the websites' file is arriving (WebKit can take the switch before the app has asked for any
    // file, and the rates, then first, would take the first cut).
    await vi.waitFor(() => expect(link.data.map((r) => r.path)).toContain(websites.path), { timeout: 30_000, interval: 20 });
    await page.evaluate(() => void (location.hash = '#/rates'), null);
    await loadSettled(page);
    // Reopened on the rates: they resume first and are cut again, halfway through what they still lack (how far the
    // first cut left them depends on when the switch was taken); the websites resume and open.
    const ratesRequests = () => link.data.filter((r) => r.path === rates.path);
    const ratesCarried = ratesRequests().reduce((n, r) => n + r.bytes, 0);
    expect(ratesCarried, 'the rates were cut in the first load').toBeLessThan(rates.bytes);
    link.cutAfter(Math.floor((rates.bytes - ratesCarried) / 2));
    const asked = ratesRequests().length;
    await page.reload();
    // Switched once the rates are resuming (a slow start could otherwise ask for the websites first).
    await vi.waitFor(() => expect(ratesRequests().length).toBeGreaterThan(asked), { timeout: 30_000, interval: 20 });
    await page.evaluate(() => void (location.hash = '#/websites'), null);
    await loadSettled(page);
    expect(await errorOf(page, 'ceilingrates')).toMatch(CUT_ERROR);
    const before = await answer(page, URLS.websites);
    expect(before.status).toBe(200);
    await page.evaluate(() => void (location.hash = '#/rates'), null);
    await page.reload();
    const answers = await expectWholeAndAnswering(page);
    expect(answers.websites).toEqual(comparable(before.body));
    expectEachFileOnce(`${driver.name}: views switched, a cut in each`);
  });
});
