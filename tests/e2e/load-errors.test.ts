import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../../harness/browsers/browser.ts';
import { dropKeptDatabases, waitForRendered } from '../../harness/browsers/app.ts';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  // No service worker: its precache would answer the dataset request before the route could change it.
  browser = await launchBrowser({ context: { serviceWorkers: 'block' } });
  page = browser.page;
  // The rates file arrives with one byte changed: same size, different sha256.
  const good = readFileSync(join(inject('dataDir'), 'ceilingrates.sqlite.br'));
  const bad = Buffer.from(good);
  bad[bad.length >> 1] ^= 0xff;
  await browser.context.route('**/data/ceilingrates.sqlite.br', (route) => route.fulfill({ status: 200, contentType: 'application/gzip', body: bad }));
});

afterAll(async () => {
  await browser?.close();
});

describe('a dataset that fails its check', () => {
  it('is reported clearly, the other dataset still answers, and its views say why they are empty', async () => {
    await page.goto(`${inject('baseUrl')}/#/rates`);
    const alert = page.locator('app-shell').getByRole('alert').filter({ hasText: 'could not be loaded' });
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toMatch(/ceilingrates\.sqlite\.br: sha256 mismatch/);
    // The rates view gets the API's own answer for a dataset that is not there, not a hang.
    await expect.poll(() => page.locator('rates-view').getByRole('alert').textContent()).toMatch(/HTTP 503/);

    await page.getByRole('link', { name: 'Websites' }).click();
    await waitForRendered(page, 'websites-view', '/websites?page=1&limit=25');
    expect(await page.locator('#websites-table tbody tr').count()).toBe(25);

    await page.getByRole('link', { name: 'Datasets' }).click();
    const card = page.locator('[data-dataset="ceilingrates"]');
    await expect.poll(() => card.locator('.badge').textContent()).toBe('Failed');
    expect(await card.getByRole('alert').textContent()).toContain('sha256 mismatch');
    expect(await page.locator('[data-dataset="websites"] .badge').textContent()).toBe('Loaded');
  });

  it('loads once the file is right again, with Reload in the dataset panel', async () => {
    await browser.context.unroute('**/data/ceilingrates.sqlite.br');
    await page.getByRole('button', { name: 'Reload (fetch what changed)' }).click();
    await expect.poll(() => page.locator('[data-dataset="ceilingrates"] .badge').textContent(), { timeout: 30_000 }).toBe('Loaded');
    await page.getByRole('link', { name: 'Ceiling rates' }).click();
    await waitForRendered(page, 'rates-view', '/api/v3/search/ceilingrates/?page_size=50');
    expect(await page.locator('rates-table tbody tr').count()).toBe(50);
  });

  it('an open view that showed the failure recovers when the data is loaded again', async () => {
    const good = readFileSync(join(inject('dataDir'), 'ceilingrates.sqlite.br'));
    const bad = Buffer.from(good);
    bad[10] ^= 0xff;
    await browser.context.route('**/data/ceilingrates.sqlite.br', (route) => route.fulfill({ status: 200, body: bad }));
    // The unpacked copy the good load kept (written just after it) goes too, or reopening would read it and
    // never meet the bad download.
    await dropKeptDatabases(page, ['ceilingrates'], false);
    // And the verified file kept for the service worker (the DB worker would read it before any download).
    await page.evaluate(async () => {
      for (const key of await caches.keys()) if (key.startsWith('offline-gov-api-data-')) await caches.delete(key);
    });
    await page.goto(`${inject('baseUrl')}/#/rates?keyword=engineer`);
    await page.reload();
    await expect.poll(() => page.locator('rates-view').getByRole('alert').textContent(), { timeout: 30_000 }).toMatch(/HTTP 503/);
    await browser.context.unroute('**/data/ceilingrates.sqlite.br');
    await page.evaluate(() => (document.querySelector('app-shell') as unknown as { db: { reload(): Promise<unknown> } }).db.reload());
    await waitForRendered(page, 'rates-view', '/api/v3/search/ceilingrates/?keyword=engineer&page_size=50');
    expect(await page.locator('rates-view').getByRole('alert').count()).toBe(0);
  });
});
