/**
 * Reopening the app with its data kept, Chromium and WebKitGTK (Safari's engine) side by side in one run: the same
 * build served by the same static server, the rounds taken in turn (Chromium, WebKit, Chromium, …) so a change in
 * the machine's load falls on both (issue 51: a reopen in WebKit costs at most 1.2× Chromium's).
 *   npx vite build --outDir DIR          (public/data holding the default datasets: npm run data)
 *   npx tsx scripts/measure-reopen.ts --dist DIR [--reopens 9] [--no-kept]
 * Per browser: a first visit until every dataset is kept unpacked (where that browser keeps files:
 * adapters/browser/kept-files.ts), then each round reloads the rates view and times, from the navigation, its first
 * page of rows drawn (the app's `view-rendered` mark) and both datasets open (the DB worker's status); the DB
 * worker's own steps for each dataset come with them. Medians, and WebKit's over Chromium's. Writes
 * .tmp/pwa-figures/reopen.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DRIVERS, type BrowserDriver, type DriverPage } from '../harness/browsers/browser-driver.ts';
import { startStaticServer } from '../harness/browsers/pwa-server.ts';
import { readManifestFile, untilOfflineReady, waitUntilKeptUnpacked } from '../harness/browsers/pwa-helpers.ts';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    reopens: { type: 'string', default: '9' },
    // A build that keeps nothing unpacked in a browser (an older one, for its figures): do not wait for it.
    'no-kept': { type: 'boolean', default: false },
  },
});
const dist = resolve(values.dist!);
const reopens = Number(values.reopens);
const BROWSERS = ['chromium', 'webkit'] as const;
type Name = (typeof BROWSERS)[number];

interface Reopen {
  /** From the navigation to the rates view's first page of rows drawn. */
  ratesRowsMs: number;
  /** From the navigation to every dataset open. */
  allOpenMs: number;
  /** The DB worker's steps per dataset (a kept copy: `download` is its read). */
  timings: Record<string, unknown>;
}

/**
 * In the page just reloaded: the times since its navigation at which the rates view drew its rows (the app's own
 * `view-rendered` mark, as tests/e2e/measure.ts's first usable view, decision 0305) and every dataset was open.
 */
function timeReopen(page: DriverPage): Promise<Reopen> {
  return page.evaluate(async () => {
    // No named function in here: tsx names them with a helper the page does not have.
    const rows = await new Promise<number>((resolve) => {
      const timer = setInterval(() => {
        const mark = performance.getEntriesByName('view-rendered')[0];
        if (!mark) return;
        clearInterval(timer);
        resolve(mark.startTime);
      }, 5);
    });
    const shell = document.querySelector('app-shell') as unknown as {
      db: { status(): Promise<{ ready: boolean; datasets: { name: string; loaded: boolean; error: string | null; timings: unknown }[] }> };
    };
    for (;;) {
      const status = await shell.db.status();
      if (status.datasets.every((d) => d.loaded || d.error !== null)) {
        return {
          ratesRowsMs: Math.round(rows),
          allOpenMs: Math.round(performance.now()),
          timings: Object.fromEntries(status.datasets.map((d) => [d.name, d.timings])),
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }, null);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Math.round(sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2);
}

const manifest = readManifestFile(join(dist, 'data'));
const server = await startStaticServer(dist);
const drivers: Partial<Record<Name, BrowserDriver>> = {};
const pages: Partial<Record<Name, DriverPage>> = {};
const keptIn: Partial<Record<Name, string>> = {};
const rounds: Record<Name, Reopen[]> = { chromium: [], webkit: [] };
try {
  for (const name of BROWSERS) {
    const driver = await DRIVERS[name]();
    drivers[name] = driver;
    const page = await driver.open(`${server.origin}/#/rates`);
    pages[name] = page;
    await untilOfflineReady(page);
    if (!values['no-kept']) for (const artifact of Object.values(manifest.datasets)) await waitUntilKeptUnpacked(page, artifact!, 180_000);
    // Where adapters/browser/kept-files.ts finds its place: the origin-private files, else Cache Storage, else IndexedDB.
    keptIn[name] = await page.evaluate(async () => {
      if (await navigator.storage?.getDirectory?.().catch(() => null)) return 'opfs';
      return (await caches
        ?.keys()
        .then(() => true)
        .catch(() => false))
        ? 'cache'
        : 'indexeddb';
    }, null);
  }
  for (let i = 0; i < reopens; i++) {
    for (const name of BROWSERS) {
      const page = pages[name]!;
      await page.reload();
      const reopen = await timeReopen(page);
      rounds[name].push(reopen);
      console.log(`${name} reopen ${i + 1}: rates rows ${reopen.ratesRowsMs} ms, every dataset open ${reopen.allOpenMs} ms`);
    }
  }
} finally {
  for (const driver of Object.values(drivers)) await driver?.close();
  await server.close();
}

const summaryOf = (name: Name) => ({
  keptIn: keptIn[name],
  ratesRowsMs: median(rounds[name].map((r) => r.ratesRowsMs)),
  allOpenMs: median(rounds[name].map((r) => r.allOpenMs)),
  ratesRowsEach: rounds[name].map((r) => r.ratesRowsMs),
  allOpenEach: rounds[name].map((r) => r.allOpenMs),
});
const summary = { chromium: summaryOf('chromium'), webkit: summaryOf('webkit') };
const figures = {
  dist,
  version: manifest.version,
  reopens,
  summary,
  webkitOverChromium: {
    ratesRows: Number((summary.webkit.ratesRowsMs / summary.chromium.ratesRowsMs).toFixed(2)),
    allOpen: Number((summary.webkit.allOpenMs / summary.chromium.allOpenMs).toFixed(2)),
  },
  rounds,
  // Every figure here is CPU-bound on a small machine: quote them with the load they were taken under.
  loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
};
const out = resolve(import.meta.dirname, '../.tmp/pwa-figures');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'reopen.json'), JSON.stringify(figures, null, 2) + '\n');
console.log(JSON.stringify({ summary: figures.summary, webkitOverChromium: figures.webkitOverChromium, loadAverage: figures.loadAverage }, null, 2));
