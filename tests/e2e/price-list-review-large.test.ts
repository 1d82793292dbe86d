/**
 * The largest real price list reviewed in the app, in every browser the suite drives (harness/browsers/browser-driver.ts's
 * DRIVERS), through the driver interface: Leidos' list (GS-35F-116AA, 3,434 hourly labor rows), rebuilt as a
 * Catalog Platform .xlsx from its facts as the repository ships them (data/, no contacts; the descriptions are the
 * fixture's made-up text), so its Price List part is several MB, as the real file's is. The reader must finish
 * (a part of 512 KB or more once started a worker the page's policy refused, and hung), a read can be cancelled,
 * and the review shown is the one Node makes over the served data. Behaviour only: the time is measured by
 * scripts/measure-review.ts, never asserted here.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { unzipSync } from 'fflate';
import type { Database } from 'sql.js';
import { DRIVERS, untilDatasetsOpen, type BrowserDriver, type DriverPage } from '../../harness/browsers/browser-driver.ts';
import { dropOnReview, reviewOutcome } from '../../harness/browsers/review-page.ts';
import { loadSqlJs } from '../../adapters/node/datasets/sqljs-node.ts';
import { MANIFEST_FILE, type Manifest } from '../../dataset/artifact/format.ts';
import { readPriceListFile } from '../../dataset/price-lists/read-file.ts';
import { reviewPriceList, type PriceListReview } from '../../dataset/price-lists/review.ts';
import { contractKey } from '../../dataset/price-lists/shipped.ts';
import { shippedPriceLists } from '../../tools/real-data.ts';
import { priceListXlsx } from '../../harness/price-list-xlsx.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { contentSecurityPolicy } from '../../adapters/node/doors/static-files.ts';

const NAME = 'GS-35F-116AA-facts.xlsx';
let bytes: Uint8Array;
let expected: PriceListReview;
let db: Database;
let server: StaticServer;

beforeAll(async () => {
  const leidos = shippedPriceLists().lists.find((list) => contractKey(list.contract) === 'GS35F116AA')!;
  bytes = priceListXlsx({
    contract: leidos.contract,
    vendor: leidos.vendor,
    generated: leidos.generatedAt,
    contractYear: leidos.contractYear ?? undefined,
    rows: leidos.rows.map((row) => ({
      title: row.title,
      price: row.price,
      sin: row.sin,
      education: row.education ?? undefined,
      minYears: row.minYears ?? undefined,
      worksite: row.worksite ?? undefined,
      clearance: row.clearance ?? undefined,
    })),
  });
  // As large as the real file's: the unzip library's worker threshold is 512 KB a part.
  expect(Math.max(...Object.values(unzipSync(bytes)).map((part) => part.length))).toBeGreaterThan(512 * 1024);
  const dataDir = inject('dataDir');
  const manifest = JSON.parse(readFileSync(join(dataDir, MANIFEST_FILE), 'utf8')) as Manifest;
  const SQL = await loadSqlJs();
  db = new SQL.Database(gunzipSync(readFileSync(join(dataDir, manifest.datasets.ceilingrates!.file))));
  expected = reviewPriceList(db, await readPriceListFile(bytes));
  expect(expected.rows).toHaveLength(3434);
  const appDir = dirname(dataDir);
  const policy = contentSecurityPolicy(readFileSync(join(appDir, 'index.html'), 'utf8'));
  expect(policy).toContain("worker-src 'self'");
  server = await startStaticServer(appDir, { headers: { 'content-security-policy': policy! } });
});

afterAll(async () => {
  db?.close();
  await server?.close();
});

/** The panel's summary line as the app writes it for a review. */
function summaryOf(review: PriceListReview): string {
  const count = (flag: string) => review.rows.filter((r) => r.flag === flag).length.toLocaleString('en-US');
  const tooFew = review.rows.filter((r) => r.flag === 'too few').length;
  return (
    `${review.vendor} (${review.contract}), generated ${review.generated}: ${review.rows.length.toLocaleString('en-US')} hourly labor rows; ` +
    `${count('above')} above the comparables' 75th percentile, ${count('below')} below the 25th, ${count('within')} within` +
    `${tooFew ? `, ${tooFew.toLocaleString('en-US')} with too few comparables` : ''}.`
  );
}

describe.each(Object.entries(DRIVERS))('the largest real price list reviewed in the app (%s)', (_name, launch) => {
  let driver: BrowserDriver;
  let page: DriverPage;

  beforeAll(async () => {
    driver = await launch();
    page = await driver.open(`${server.origin}/#/rates`);
    await untilDatasetsOpen(page);
  });

  afterAll(async () => {
    await driver?.close();
  });

  it('can be cancelled while it is read: the page says so and shows no review', async () => {
    await dropOnReview(page, NAME, bytes);
    const said = await page.evaluate(async () => {
      let at: Element | null = document.querySelector('app-shell');
      for (const tag of ['rates-view', 'price-list-review']) at = at?.shadowRoot?.querySelector(tag) ?? null;
      const panel = at as HTMLElement & { updateComplete: Promise<boolean> };
      await panel.updateComplete;
      const cancel = panel.shadowRoot!.querySelector<HTMLButtonElement>('#review-cancel');
      const busy = panel.shadowRoot!.querySelector('#review-busy')?.textContent ?? '';
      cancel?.click();
      await panel.updateComplete;
      return {
        busy,
        notice: panel.shadowRoot!.querySelector('#review-notice')?.textContent ?? '',
        shown: !!panel.shadowRoot!.querySelector('#review-summary'),
      };
    }, null);
    expect(said.busy).toMatch(/GS-35F-116AA-facts\.xlsx/);
    expect(said).toMatchObject({ notice: 'Cancelled. Nothing was changed.', shown: false });
  });

  it('reads all 3,434 rows and shows the review Node makes over the same data', async () => {
    await dropOnReview(page, NAME, bytes);
    // Within a minute (it takes about a second here): a read that hangs fails with the panel's last words.
    const outcome = await reviewOutcome(page, 60_000);
    expect(outcome.error).toBeNull();
    expect(outcome.summary).toBe(summaryOf(expected));
    const shown = await page.evaluate(() => {
      let at: Element | null = document.querySelector('app-shell');
      for (const tag of ['rates-view', 'price-list-review']) at = at?.shadowRoot?.querySelector(tag) ?? null;
      return [...at!.shadowRoot!.querySelectorAll('tbody tr')].map((tr) => [
        Number(tr.getAttribute('data-row')),
        tr.getAttribute('data-flag'),
        tr.getAttribute('data-match'),
      ]);
    }, null);
    expect(shown).toHaveLength(200);
    for (const [row, flag, match] of shown)
      expect([flag, match], `row ${row}`).toEqual([expected.rows[row as number].flag, expected.rows[row as number].match]);
  });
});
