/**
 * Safari's engine (Debian's WebKitGTK, harness/browsers/webkit.ts), as a Mac in the field runs the app: a first visit
 * installs the service worker and keeps the data (unpacked into Cache Storage: WebKitGTK has no origin-private files),
 * both APIs answer a page's fetch() through the service worker as the engine answers in Node, a price list is
 * reviewed, a file is imported and kept across a reload, and with the network gone a reload answers both APIs at
 * once from what was kept, with an app window and without one; the Datasets page says what Safari may delete, and
 * kept data deleted as a browser deletes it is said to be gone and downloaded again. One browser for the whole
 * file: an automated WebKit keeps its storage only while it runs (docs/testing.md).
 */
import { dirname } from 'node:path';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCREENSHOT_DIR } from '../../harness/browsers/app.ts';
import { launchWebKit, type WebKitBrowser, type WebKitPage } from '../../harness/browsers/webkit.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import {
  comparableBody,
  expectedHeaders,
  pageFetch,
  readManifestFile,
  referenceEngine,
  servedBy,
  untilOfflineReady,
  waitUntilKeptUnpacked,
} from '../../harness/browsers/pwa-helpers.ts';
import { pageUntil, type EvaluatingPage } from '../../harness/browsers/browser-driver.ts';
import { importOutcome, pickFile } from './pick-file.ts';
import { KEPT_FILES_CACHE } from '../../adapters/browser/kept-files-cache.ts';
import type { Engine } from '../../engine/index.ts';
import type { Manifest } from '../../dataset/artifact/format.ts';
import { loadSqlJs } from '../../adapters/node/datasets/sqljs-node.ts';
import { readPriceListFile } from '../../dataset/price-lists/read-file.ts';
import { reviewPriceList } from '../../dataset/price-lists/review.ts';
import { EDUCATION_CODES } from '../../dataset/price-lists/records.ts';
import { priceListXlsx, type FixtureRow } from '../../harness/price-list-xlsx.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/import');
const WEBSITES = '/websites?limit=2';
const RATES = '/api/v3/search/ceilingrates/?q=engineer&page_size=2';
const RATES_TOTAL = '/api/v3/search/ceilingrates/?page_size=1';
/** The rows of tests/fixtures/import/ceilingrates-export.csv the import keeps. */
const IMPORTED_RATES = 6;

let server: StaticServer;
let webkit: WebKitBrowser;
let page: WebKitPage;
let engine: Engine;
let manifest: Manifest;

/** Each request answered in the page as the engine answers it in Node over the same files. */
async function expectEngineAnswers(p: EvaluatingPage, paths: string[]): Promise<void> {
  for (const path of paths) {
    const answer = await pageFetch(p, path);
    const reference = engine.handle({ method: 'GET', url: server.origin + path });
    expect(answer.status, path).toBe(reference.status);
    expect(answer.headers, path).toMatchObject(expectedHeaders(reference));
    expect(comparableBody(answer), path).toEqual(comparableBody(reference));
  }
}

async function ratesTotal(p: EvaluatingPage): Promise<number> {
  const answer = await pageFetch(p, RATES_TOTAL);
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { hits: { total: { value: number } } }).hits.total.value;
}

/** What `read` finds in the page, once it finds something (null: not yet). */
async function until<T>(read: () => Promise<T | null>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await read();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  const dataDir = inject('dataDir');
  manifest = readManifestFile(dataDir);
  server = await startStaticServer(dirname(dataDir));
  engine = await referenceEngine(dataDir);
  webkit = await launchWebKit();
});

afterAll(async () => {
  await webkit?.close();
  await server?.close();
});

describe('WebKitGTK, first visit', () => {
  it('runs the app, installs the service worker and keeps every dataset for it', async () => {
    page = await webkit.open(`${server.origin}/`);
    await untilOfflineReady(page);
  });

  it('answers both APIs through the service worker as the engine does in Node', async () => {
    const before = await servedBy(page);
    await expectEngineAnswers(page, [WEBSITES, RATES]);
    const after = await servedBy(page);
    expect(after.relay + after['service-worker']).toBe(before.relay + before['service-worker'] + 2);
  });

  it('keeps each database unpacked (Cache Storage stands in for the origin-private files WebKitGTK lacks)', async () => {
    for (const artifact of Object.values(manifest.datasets)) await waitUntilKeptUnpacked(page, artifact!);
  });

  it('reviews a price list picked in the rates view against the served rates', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database(gunzipSync(readFileSync(join(inject('dataDir'), manifest.datasets.ceilingrates!.file))));
    try {
      const [title, code, years, mean] = db.exec(
        `SELECT labor_category, education_level, min_years_experience, AVG(current_price) FROM ceilingrates
         WHERE current_price IS NOT NULL AND min_years_experience IS NOT NULL AND education_level IN ('HS', 'AA', 'BA', 'MA', 'PHD')
         GROUP BY 1, 2, 3 HAVING COUNT(*) >= 3 ORDER BY COUNT(*) DESC LIMIT 1`,
      )[0].values[0] as [string, string, number, number];
      const education = Object.entries(EDUCATION_CODES).find(([, c]) => c === code)![0];
      const rows: FixtureRow[] = [
        { title, price: Math.round(mean * 160) / 100, education, minYears: years },
        { title, price: Math.round(mean * 100) / 100, education, minYears: years },
      ];
      const xlsx = priceListXlsx({ contract: '47QTCA99D9999', vendor: 'EXAMPLE ANALYTICS LLC', rows });
      const expected = reviewPriceList(db, await readPriceListFile(xlsx));
      await page.evaluate(() => void (location.hash = '#/rates'), null);
      await pageUntil(page, () => !!document.querySelector('app-shell')?.shadowRoot?.querySelector('rates-view'), null, 'the rates view');
      await pickFile(page, '#price-list-file', {
        name: 'made-up-price-list.xlsx',
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        bytes: xlsx,
      });
      const shown = () =>
        page.evaluate(() => {
          const review = document.querySelector('app-shell')?.shadowRoot?.querySelector('rates-view')?.shadowRoot?.querySelector('price-list-review');
          if (!review?.shadowRoot?.querySelector('#review-summary')) return null;
          return [...review.shadowRoot.querySelectorAll('tbody tr[data-row]')].map((tr) => Number(tr.getAttribute('data-row')));
        }, null);
      const rowsShown = await until(shown, 'the review');
      expect(rowsShown.sort((a, b) => a - b)).toEqual(expected.rows.map((r) => r.row));
    } finally {
      db.close();
    }
  });

  it('the Datasets page says where the data is kept and that Safari deletes it after 7 days unless installed (screenshots, wide and narrow)', async () => {
    await page.evaluate(() => void (location.hash = '#/datasets'), null);
    const facts = await until(
      () =>
        page.evaluate(() => {
          const card = document.querySelector('app-shell')?.shadowRoot?.querySelector('dataset-panel')?.shadowRoot?.querySelector('storage-card');
          const root = card?.shadowRoot;
          const keptIn = root?.querySelector('[data-field="kept-in"]')?.getAttribute('data-kind');
          return keptIn ? { keptIn, rule: root!.querySelector('[data-rule]')?.getAttribute('data-rule') ?? null } : null;
        }, null),
      'the storage card',
    );
    expect(facts).toEqual({ keptIn: 'cache', rule: 'seven-days' });
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    for (const width of [1280, 390]) {
      await page.setViewport({ width, height: 900 });
      // GTK keeps a window wider than a phone's (about 450 px): the file says the width the page had.
      const shown = await page.evaluate(() => {
        const card = document.querySelector('app-shell')?.shadowRoot?.querySelector('dataset-panel')?.shadowRoot?.querySelector('storage-card');
        card?.scrollIntoView();
        return innerWidth;
      }, null);
      writeFileSync(`${SCREENSHOT_DIR}/webkit-datasets-storage-${shown}.png`, await page.screenshot());
    }
    await page.setViewport({ width: 1280, height: 800 });
  });

  it('imports a file: it answers at once and is kept across a reload (stored as bytes: WebKit refuses Blobs)', async () => {
    await page.evaluate(() => void (location.hash = '#/datasets'), null);
    await pageUntil(page, () => !!document.querySelector('app-shell')?.shadowRoot?.querySelector('dataset-panel'), null, 'the dataset panel');
    await pickFile(page, '#import-file', { name: 'rates.csv', type: 'text/csv', bytes: readFileSync(join(FIXTURES, 'ceilingrates-export.csv')) });
    expect(await importOutcome(page)).toMatchObject({ state: 'done', code: 'ok' });
    expect(await ratesTotal(page)).toBe(IMPORTED_RATES);
    await page.reload();
    await pageUntil(page, () => !!document.querySelector('app-shell'), null, 'the app after the reload');
    expect(await ratesTotal(page)).toBe(IMPORTED_RATES);
  });
});

describe('WebKitGTK, with the network gone', () => {
  beforeAll(() => {
    server.reset();
    server.setOffline(true);
  });

  it('reloaded: shows the app and answers both APIs at once from what it kept (no 503 while it opens)', async () => {
    await page.evaluate(() => void (location.hash = '#/websites'), null);
    await page.reload();
    // Asked as soon as the document is there: the data is still being opened from what was kept.
    await expectEngineAnswers(page, [WEBSITES]);
    expect(await ratesTotal(page)).toBe(IMPORTED_RATES);
  });

  it('answers a page with no app window from the service worker itself, the import included', async () => {
    const plain = await webkit.open(`${server.origin}/playground.html`);
    await page.close();
    await pageUntil(plain, () => document.body.dataset.done === 'true', null, 'the playground answered');
    expect(await plain.evaluate(() => document.querySelector('#status')?.textContent, null)).toMatch(/^200 .*service worker/);
    const before = await servedBy(plain);
    await expectEngineAnswers(plain, [WEBSITES]);
    expect(await ratesTotal(plain)).toBe(IMPORTED_RATES);
    expect((await servedBy(plain))['service-worker']).toBe(before['service-worker'] + 2);
  });

  it('asked the server for nothing of its own', () => {
    // The browser's own requests (the service worker's update check, the tab's default icon) may still be tried.
    const browsersOwn = new Set(['GET /sw.js', 'GET /favicon.ico']);
    expect(server.refused.filter((request) => !browsersOwn.has(request))).toEqual([]);
  });
});

describe('WebKitGTK, the kept data deleted as a browser deletes it', () => {
  it('the next opening says the data is gone, downloads it again with progress and answers', async () => {
    server.setOffline(false);
    server.reset();
    const plain = await webkit.open(`${server.origin}/playground.html`);
    // What the browser's deletion takes: the data caches and the kept databases (the imports' store stays here).
    await plain.evaluate(async (kept) => {
      for (const name of await caches.keys()) if (name.startsWith('offline-gov-api-data-') || name === kept) await caches.delete(name);
    }, KEPT_FILES_CACHE);
    const app = await webkit.open(`${server.origin}/#/websites`);
    const notice = await until(
      () =>
        app.evaluate(() => {
          const bar = document.querySelector('app-shell')?.shadowRoot?.querySelector('load-progress');
          return bar?.shadowRoot?.querySelector('[data-data-gone]')?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
        }, null),
      'the notice that the kept data is gone',
    );
    expect(notice).toMatch(/is gone: Safari deletes what a site keeps after 7 days .* It is being downloaded again\./);
    await expectEngineAnswers(app, [WEBSITES]);
    expect(server.log.some((request) => request.path.startsWith('/data/websites.'))).toBe(true);
  });
});
