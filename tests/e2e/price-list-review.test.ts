/**
 * "Review a price list" in the rates view: a made-up Catalog Platform .xlsx (harness/price-list-xlsx.ts)
 * picked in the page is read there, reviewed in the DB worker against the served ceiling rates, and shown furthest
 * from the median first; its CSV is the review Node computes over the same database; a file that is not a price
 * list is refused and changes nothing. The small profile's rates are generated, so the rows' titles are taken from
 * the served data.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Database } from 'sql.js';
import type { Page } from 'playwright-core';
import type { Browser } from './browser.ts';
import { currentHash, openAppSession, screenshot, SCREENSHOT_DIR, seriousViolations } from './app.ts';
import { loadSqlJs } from '../../adapters/node/sqljs-node.ts';
import { MANIFEST_FILE, type Manifest } from '../../dataset/artifact/format.ts';
import { EDUCATION_CODES } from '../../dataset/price-lists/records.ts';
import { readPriceListFile } from '../../dataset/price-lists/read-file.ts';
import { reviewPriceList } from '../../dataset/price-lists/review.ts';
import { reviewCsv } from '../../dataset/price-lists/review-csv.ts';
import { priceListXlsx, type FixtureRow } from '../../harness/price-list-xlsx.ts';
import { downloadedText } from './browser.ts';

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
    { title: `${title} (senior)`, price: Math.round(mean * 100) / 100, education: listWord(code)!, minYears: years },
  ]);
  rows.push({ title: 'Zyxwv Qqq', price: 77, education: 'Bachelors', minYears: 3 }, { title: 'Widget', price: 12, type: 'Product', unit: 'EA' });
  dir = mkdtempSync(join(tmpdir(), 'review-e2e-'));
  listFile = join(dir, 'made-up-price-list.xlsx');
  writeFileSync(listFile, priceListXlsx({ contract: '47QTCA99D9999', vendor: 'EXAMPLE ANALYTICS LLC', rows }));
});

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
    expect(expected.rows.filter((r) => r.comparables >= 2).length).toBeGreaterThanOrEqual(3);
    const shownRows = await review()
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row'))));
    expect(shownRows.sort((a, b) => a - b)).toEqual(expected.rows.map((r) => r.row));
    // Furthest from the median first: the first row shown has the largest |price − median| / median.
    const distance = (r: (typeof expected.rows)[number]) => (r.median ? Math.abs(r.price - r.median) / r.median : -1);
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
    expect(csv).toBe(reviewCsv(expected));
    expect(csv.split('\r\n')[0]).toBe(
      'labor_category,current_price,education_level,min_years_experience,phrase,comparables,p25,median,p75,mean,sd_from_mean,percentile,flag',
    );
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

  it("links each row to the rates view's query of its comparables, the price checked", async () => {
    const link = review().locator('tbody tr').first().locator('a');
    await link.click();
    await expect.poll(() => currentHash(page)).toMatch(/^#\/rates\?.*proposed_price=/);
    expect(await review().locator('#review-summary').count()).toBe(1);
  });
});
