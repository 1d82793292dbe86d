/**
 * Figures for the offline PWA (issue 5's note), measured in Debian's Chromium against a built app:
 *   npx vite build --outDir DIR   (or use the browser tests' build, dist-test/)
 *   npx tsx scripts/measure-pwa.ts --dist DIR [--rounds 200]
 * 1. First visit: bytes the server sent, against the bytes of the app plus datasets (the data must cross once).
 * 2. Extra time of a page fetch() through the service worker (relayed to the DB worker) over asking the DB
 *    worker's engine directly (Comlink, what the views do), paired per request: p50/p95 of the difference.
 *    In the same round, a fetch() the service worker answers at once with a constant (the floor of any
 *    service-worker answer: the browser's interception and the body back), and the relay's extra beyond it.
 *    Also the service worker's own engine (a page that is not the app, no app window open).
 * 3. Offline: from opening the app to its first API answer.
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../tests/e2e/browser.ts';
import { startStaticServer } from '../tests/e2e/pwa-server.ts';
import { openAppUntilOfflineReady, pageFetch, servedBy } from '../tests/e2e/pwa-helpers.ts';
import type { Manifest } from '../dataset/artifact/format.ts';
import { FLOOR_PATH } from '../adapters/service-worker/messages.ts';

const { values } = parseArgs({ options: { dist: { type: 'string', default: 'dist' }, rounds: { type: 'string', default: '200' } } });
const dist = resolve(values.dist!);
const rounds = Number(values.rounds);
const URLS = [
  '/websites?limit=10',
  '/analysis?final_url_live=true',
  '/api/v3/search/ceilingrates/?keyword=engineer&page_size=10',
  '/api/v3/search/ceilingrates/?suggest-contains=labor_category:eng',
];

/** The files a first visit needs: everything built, less source maps and the extra datasets fetched on demand. */
function shippedBytes(dir: string, onDemand: ReadonlySet<string>): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += shippedBytes(path, onDemand);
    else if (!entry.name.endsWith('.map') && !entry.name.startsWith('.') && !onDemand.has(entry.name)) total += statSync(path).size;
  }
  return total;
}

function percentile(sorted: number[], p: number): number {
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  return { n: sorted.length, p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), min: round(sorted[0]), max: round(sorted.at(-1)!) };
}

type Way = 'direct' | 'fetch' | 'floor';
/** Every order of the three ways, taken in turn round by round, so no way always goes first (warm-up, caches). */
const ORDERS: Way[][] = [
  ['direct', 'fetch', 'floor'],
  ['fetch', 'floor', 'direct'],
  ['floor', 'direct', 'fetch'],
  ['direct', 'floor', 'fetch'],
  ['fetch', 'direct', 'floor'],
  ['floor', 'fetch', 'direct'],
];

/**
 * Milliseconds of one request asked three ways in the page: the DB client directly (Comlink, what the views
 * do), fetch() of the API URL (relayed by the service worker to the DB worker), and fetch() of a URL the
 * service worker answers at once with a constant (the floor of any answer from a service worker).
 */
function timeRound(page: Page, url: string, order: Way[]): Promise<Record<Way, number>> {
  // No named inner functions: tsx would wrap them in a helper that does not exist in the page.
  return page.evaluate(
    async ([url, order, floorUrl]) => {
      const db = (document.querySelector('app-shell') as unknown as { db: { request(u: string): Promise<{ body: string }> } }).db;
      const times = { direct: 0, fetch: 0, floor: 0 };
      for (const way of order) {
        const t = performance.now();
        if (way === 'direct') await db.request(url);
        else await (await fetch(way === 'fetch' ? url : floorUrl, { cache: 'no-store' })).text();
        times[way] = performance.now() - t;
      }
      return times;
    },
    [url, order, `/${FLOOR_PATH}`] as const,
  );
}

const manifest = JSON.parse(readFileSync(join(dist, 'data/manifest.json'), 'utf8')) as Manifest;
const server = await startStaticServer(dist);
const browser = await launchBrowser();
const figures: Record<string, unknown> = {
  dist,
  datasets: Object.fromEntries(Object.entries(manifest.datasets).map(([k, a]) => [k, { bytes: a!.bytes, rows: a!.rows }])),
};
try {
  // 1. First visit.
  const page = browser.page;
  await openAppUntilOfflineReady(page, server.origin);
  await pageFetch(page, URLS[0]);
  await page.waitForTimeout(1000); // late requests (icons, lazy chunks) count too
  const datasetBytes = Object.values(manifest.datasets).reduce((n, a) => n + a!.bytes, 0);
  figures.firstVisit = {
    bytesSent: server.bytesSent(),
    shippedBytes: shippedBytes(dist, new Set((manifest.extras ?? []).map((e) => e.file))),
    datasetBytes,
    datasetBodiesSent: server.log.filter((r) => r.path.endsWith('.sqlite.gz') && r.status === 200).length,
    datasetCount: Object.keys(manifest.datasets).length,
  };

  // 2. Overhead of the service worker relay over the direct engine call.
  await page.waitForFunction(() => !!document.querySelector('app-shell'));
  for (const url of URLS) for (let i = 0; i < 6; i++) await timeRound(page, url, ORDERS[i]); // warm-up
  const extra: number[] = [];
  const overFloor: number[] = [];
  const direct: number[] = [];
  const viaSw: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const url = URLS[i % URLS.length];
    const t = await timeRound(page, url, ORDERS[Math.floor(i / URLS.length) % ORDERS.length]);
    extra.push(t.fetch - t.direct);
    overFloor.push(t.fetch - t.direct - t.floor);
    direct.push(t.direct);
    viaSw.push(t.fetch);
    floor.push(t.floor);
  }
  figures.relayOverheadMs = {
    extra: summary(extra),
    direct: summary(direct),
    fetchThroughServiceWorker: summary(viaSw),
    // The same round's constant answer: what any service-worker answer costs, and what the relay adds beyond it.
    floor: summary(floor),
    extraOverFloor: summary(overFloor),
  };

  // The service worker's own engine: a page that is not the app, with no app window open.
  await page.goto(`${server.origin}/playground.html`);
  const own = await page.evaluate(async (urls) => {
    const times: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      await (await fetch(urls[i % urls.length], { cache: 'no-store' })).text();
      times.push(performance.now() - t);
    }
    return times;
  }, URLS);
  figures.serviceWorkerEngineMs = { first: Math.round(own[0]), rest: summary(own.slice(1)) };

  // 3. Offline: open the app, first API answer.
  server.setOffline(true);
  await browser.context.setOffline(true);
  const openings: { ms: number; answeredBy: string }[] = [];
  for (let i = 0; i < 3; i++) {
    for (const p of browser.context.pages()) await p.close();
    const fresh = await browser.context.newPage();
    const started = Date.now();
    await fresh.goto(`${server.origin}/`);
    const answer = await pageFetch(fresh, URLS[2]);
    const ms = Date.now() - started;
    if (answer.status !== 200) throw new Error(`offline answer ${answer.status}`);
    const counts = await servedBy(fresh);
    openings.push({ ms, answeredBy: counts.relay > 0 ? 'relay to the DB worker' : 'service worker engine' });
  }
  figures.offlineOpenToFirstAnswerMs = openings;
  figures.refusedWhileOffline = server.refused;
  // Every figure here is CPU-bound on a small machine: quote them with the load they were taken under.
  figures.loadAverage = loadavg().map((l) => Number(l.toFixed(2)));
} finally {
  await browser.close();
  await server.close();
}
const out = resolve(import.meta.dirname, '../.tmp/pwa-figures');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'measure.json'), JSON.stringify(figures, null, 2) + '\n');
console.log(JSON.stringify(figures, null, 2));
