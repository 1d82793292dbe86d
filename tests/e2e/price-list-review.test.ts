/**
 * "Review a price list" in the rates view (Chromium): a made-up Catalog Platform .xlsx (harness/price-list-xlsx.ts)
 * picked in the page is read there, reviewed in the DB worker against the served ceiling rates, and shown furthest
 * from the median first; its CSV is the review Node computes over the same database, its printable page the one
 * Node writes; a row's link shows exactly its comparables; a file that is not a price list is refused and changes
 * nothing. The small profile's rates are generated, so the rows' titles are taken from the served data. The large
 * real list is reviewed in every browser by price-list-review-large.test.ts.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Database } from 'sql.js';
import type { Page } from 'playwright-core';
import type { Browser } from '../../harness/browsers/browser.ts';
import { currentHash, openAppSession, screenshot, SCREENSHOT_DIR, seriousViolations } from '../../harness/browsers/app.ts';
import { loadSqlJs } from '../../adapters/node/datasets/sqljs-node.ts';
import { MANIFEST_FILE, type Manifest } from '../../dataset/artifact/format.ts';
import { EDUCATION_CODES } from '../../dataset/price-lists/records.ts';
import { readPriceListFile } from '../../dataset/price-lists/read-file.ts';
import { reviewPriceList } from '../../dataset/price-lists/review.ts';
import { dataDateOf, reviewCsv } from '../../dataset/price-lists/review-csv.ts';
import { reviewMemoHtml } from '../../dataset/price-lists/review-memo.ts';
import { priceListXlsx, type FixtureRow } from '../../harness/price-list-xlsx.ts';
import { downloadedText } from '../../harness/browsers/browser.ts';

let browser: Browser;
let page: Page;
let errors: string[];
let db: Database;
let manifest: Manifest;
let dir: string;
let listFile: string;

/** The list's own words for an interface code (the first that maps to it). */
const listWord = (code: string): string | undefined => Object.entries(EDUCATION_CODES).find(([, c]) => c === code)?.[0];

beforeAll(async () => {
  ({ browser, page, errors } = await openAppSession('#/rates'));
  const dataDir = inject('dataDir');
  manifest = JSON.parse(readFileSync(join(dataDir, MANIFEST_FILE), 'utf8')) as Manifest;
  const SQL = await loadSqlJs();
  db = new SQL.Database(gunzipSync(readFileSync(join(dataDir, manifest.datasets.ceilingrates!.file))));
  // The served data's most common title, education and experience: rows with comparables whatever the generator wrote.
  const common = db.exec(
    `SELECT labor_category, education_level, min_years_experience, AVG(current_price) FROM ceilingrates
     WHERE current_price IS NOT NULL AND min_years_experience IS NOT NULL AND education_level IN ('HS', 'AA', 'BA', 'MA', 'PHD')
     GROUP BY 1, 2, 3 HAVING COUNT(*) >= 3 ORDER BY COUNT(*) DESC LIMIT 3`,
  )[0].values as [string, string, number, number][];
  expect(common.length).toBeGreaterThan(0);
  const rows: FixtureRow[] = common.flatMap(([title, code, years, mean], i) => [
    { title, price: Math.round(mean * (1.6 + i * 0.1) * 100) / 100, education: listWord(code)!, minYears: years },
    { title: `${title} (senior)`, price: Math.round(mean * 100) / 100, education: listWord(code)!, minYears: years, sin: '54151S' },
  ]);
  rows.push({ title: 'Zyxwv Qqq', price: 77, education: 'Bachelors', minYears: 3 }, { title: 'Widget', price: 12, type: 'Product', unit: 'EA' });
  dir = mkdtempSync(join(tmpdir(), 'review-e2e-'));
  listFile = join(dir, 'made-up-price-list.xlsx');
  writeFileSync(listFile, priceListXlsx({ contract: '47QTCA99D9999', vendor: 'EXAMPLE ANALYTICS LLC', rows }));
});

/** What a test reads of an HTML text without a DOM: its title and the texts of one kind of cell. */
class DOMParserless {
  constructor(private readonly text: string) {}
  get title(): string {
    return /<title>(.*?)<\/title>/.exec(this.text)![1].replace(/&amp;/g, '&');
  }
  cells(tag: string): string[] {
    return [...this.text.matchAll(new RegExp(`<${tag}>(.*?)</${tag}>`, 'g'))].map(([, text]) =>
      text
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&'),
    );
  }
}

afterAll(async () => {
  await browser?.close();
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const review = () => page.locator('price-list-review');

describe('reviewing a price list in the rates view', () => {
  it('reads a picked .xlsx in the page, shows every hourly row furthest from the median first, and exports the CLI’s CSV', async () => {
    await review().getByText('Review a price list (.xlsx)').click();
    await review().locator('#price-list-file').setInputFiles(listFile);
    await review().locator('#review-summary').waitFor({ timeout: 60_000 });

    const expected = reviewPriceList(db, await readPriceListFile(readFileSync(listFile)));
    expect(expected.rows.filter((r) => r.flag === 'above' || r.flag === 'below').length).toBeGreaterThanOrEqual(2);
    const shownRows = await review()
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row'))));
    expect(shownRows.sort((a, b) => a - b)).toEqual(expected.rows.map((r) => r.row));
    // Furthest from the median first: the first row shown has the largest |price − median| / median of those judged.
    const distance = (r: (typeof expected.rows)[number]) => (r.flag !== 'too few' && r.fromMedian !== null ? Math.abs(r.fromMedian) : -1);
    const furthest = Math.max(...expected.rows.map(distance));
    const [first] = await review()
      .locator('tbody tr')
      .first()
      .evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row'))));
    expect(distance(expected.rows[first])).toBe(furthest);
    expect(await review().locator('#review-source').textContent()).toContain(manifest.datasets.ceilingrates!.source!.label);

    const [download] = await Promise.all([page.waitForEvent('download'), review().getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('price-list-review-47QTCA99D9999.csv');
    const csv = await downloadedText(download);
    const source = manifest.datasets.ceilingrates!.source!;
    const meta = {
      source: { label: source.label, version: manifest.version, date: dataDateOf(source) },
      reviewedOn: new Date().toISOString().slice(0, 10),
    };
    expect(csv).toBe(reviewCsv(expected, meta));
    // Generated rates are said to be generated, where the memo names its source.
    expect(csv).toMatch(/\r\nCompared with,"?Synthetic: /);

    // The printable page, in a tab of its own: the page Node writes (`review --format html`), every row in the list's order.
    const [printable] = await Promise.all([page.context().waitForEvent('page'), review().getByRole('button', { name: 'Printable page' }).click()]);
    await printable.waitForLoadState();
    const written = new DOMParserless(reviewMemoHtml(expected, meta));
    expect(await printable.title()).toBe(written.title);
    expect(await printable.locator('dd').allTextContents()).toEqual(written.cells('dd'));
    expect(await printable.locator('tbody td:nth-child(2)').allTextContents()).toEqual(expected.rows.map((r) => r.title));
    expect(await printable.locator('script').count()).toBe(0);
    await printable.setViewportSize({ width: 1280, height: 900 });
    await printable.screenshot({ path: join(SCREENSHOT_DIR, 'price-list-review-printable-1280.png'), fullPage: true });
    await printable.emulateMedia({ media: 'print' });
    await printable.screenshot({ path: join(SCREENSHOT_DIR, 'price-list-review-printable-print.png'), fullPage: true });
    await printable.setViewportSize({ width: 390, height: 844 });
    await printable.emulateMedia({ media: 'screen' });
    await printable.screenshot({ path: join(SCREENSHOT_DIR, 'price-list-review-printable-390.png') });
    await printable.close();
    expect(errors).toEqual([]);
  });

  it('has no serious axe violations at 1280 and 390 px (screenshots)', async () => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await review().scrollIntoViewIfNeeded();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `price-list-review-${width}`);
      await review().screenshot({ path: join(SCREENSHOT_DIR, `price-list-review-${width}-card.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('refuses a file that is not a price list, keeping the review and the data as they were', async () => {
    const before = await page.evaluate(async () => {
      const shell = document.querySelector('app-shell') as HTMLElement & { db: { status(): Promise<{ datasets: { name: string; rows: object }[] }> } };
      return JSON.stringify((await shell.db.status()).datasets.map((d) => [d.name, d.rows]));
    });
    await review()
      .locator('#price-list-file')
      .setInputFiles(resolve(import.meta.dirname, '../fixtures/import/ceilingrates-export.csv'));
    const alert = review().getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/This file is not a GSA Catalog Platform price list \(.+\)\. Nothing was changed\./);
    expect(await review().locator('#review-summary').count()).toBe(1);
    const after = await page.evaluate(async () => {
      const shell = document.querySelector('app-shell') as HTMLElement & { db: { status(): Promise<{ datasets: { name: string; rows: object }[] }> } };
      return JSON.stringify((await shell.db.status()).datasets.map((d) => [d.name, d.rows]));
    });
    expect(after).toBe(before);
    expect(await page.locator('import-status section').count()).toBe(0);
  });

  it('reviews a file dropped on the panel, which the app-wide import does not take', async () => {
    const bytes = [...readFileSync(listFile)];
    await review().evaluate(async (panel, bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'dropped.xlsx'));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        panel.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, composed: true, cancelable: true }));
      }
    }, bytes);
    await expect.poll(() => review().locator('caption').textContent()).toContain('dropped.xlsx');
    expect(await review().getByRole('alert').count()).toBe(0);
    expect(await page.locator('import-drop-zone [data-drop-zone]').count()).toBe(0);
    expect(await page.locator('import-status section').count()).toBe(0);
  });

  it('links each row to exactly its comparables, the review’s figures with them, and keeps the review open', async () => {
    const expected = reviewPriceList(db, await readPriceListFile(readFileSync(listFile)));
    const first = review().locator('tbody tr').first();
    const row = expected.rows[Number(await first.getAttribute('data-row'))];
    await first.locator('a').click();
    await expect.poll(() => currentHash(page)).toMatch(/^#\/rates\?comparables=/);
    const comparables = page.locator('review-comparables');
    await comparables.locator('#comparables-count').waitFor();
    expect(await comparables.locator('#comparables-count').textContent()).toBe(String(row.comparables));
    expect(await comparables.locator('#comparables-flag').textContent()).toBe(
      { above: 'above p75', below: 'below p25', within: 'within p25-p75', 'too few': 'too few comparables' }[row.flag],
    );
    // The table lists them (a page of them), the list's own contract never among them.
    const contracts = await comparables.locator('rates-table tbody tr .contract').allTextContents();
    expect(contracts.length).toBe(Math.min(row.comparables, 50));
    expect(contracts).not.toContain('47QTCA99D9999');
    expect(await review().locator('#review-summary').count()).toBe(1);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `price-list-review-comparables-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("links each rate's contract to its price list's summary: vendor, list date and every rate of it", async () => {
    const link = page.locator('review-comparables rates-table tbody tr .contract').first();
    const contract = (await link.textContent())!.trim();
    const [vendor, count] = db.exec(`SELECT vendor_name, COUNT(*) FROM ceilingrates WHERE idv_piid = ?`, [contract])[0].values[0] as [string, number];
    // The records' date (a real list's records share it; the generated ones need not).
    const days = db.exec(`SELECT DISTINCT substr(_timestamp, 1, 10) FROM ceilingrates WHERE idv_piid = ?`, [contract])[0].values.map(([d]) => String(d));
    await link.click();
    await expect.poll(() => currentHash(page)).toMatch(/^#\/rates\?search=idv_piid:/);
    const summary = page.locator('contract-summary');
    await expect.poll(() => summary.locator('#contract-rates').textContent()).toBe(count.toLocaleString('en-US'));
    expect(await summary.locator('h2').textContent()).toContain(vendor);
    expect(days).toContain(await summary.locator('#contract-list-date').textContent());
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `rates-contract-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // The table fits 1280 px: its last column (Exclude) ends inside the view.
    await page.evaluate(() => (location.hash = '#/rates?keyword=engineer'));
    const exclude = page.locator('rates-table tbody tr').first().locator('button.exclude');
    await exclude.waitFor();
    const box = await exclude.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(1280);
    // The table's rows are drawn once near the viewport (content-visibility): the picture is taken there.
    const table = page.locator('rates-table');
    await table.scrollIntoViewIfNeeded();
    await table.screenshot({ path: join(SCREENSHOT_DIR, 'rates-table-1280.png') });
    await page.setViewportSize({ width: 390, height: 900 });
    await table.scrollIntoViewIfNeeded();
    await table.screenshot({ path: join(SCREENSHOT_DIR, 'rates-table-390.png') });
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
