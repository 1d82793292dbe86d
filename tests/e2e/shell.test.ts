import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, collectPageErrors, type Browser } from '../../harness/browsers/browser.ts';
import { focused, openApp, screenshot, seriousViolations, waitForChange, waitForData, waitForRendered } from '../../harness/browsers/app.ts';
import { readManifestFile } from '../../harness/browsers/pwa-helpers.ts';
import type { Manifest } from '../../dataset/artifact/format.ts';
import type { DbStatus, LoadProgress } from '../../adapters/db-worker/db-api.ts';
import { formatCount } from '../../ui/components/common/format.ts';

let browser: Browser;
let page: Page;
let errors: string[];
let manifest: Manifest;

beforeAll(async () => {
  manifest = readManifestFile(inject('dataDir'));
  browser = await launchBrowser();
  page = browser.page;
  errors = collectPageErrors(page);
});

afterAll(async () => {
  await browser?.close();
});

type ShellDb = { status(): Promise<DbStatus>; lastProgress(): LoadProgress | null };
const dbStatus = () => page.evaluate(() => (document.querySelector('app-shell') as unknown as { db: ShellDb }).db.status());

/** Views to check, with what proves each has drawn its data. */
const VIEWS: { name: string; hash: string; ready: (p: Page) => Promise<unknown> }[] = [
  {
    name: 'rates',
    hash: '#/rates?keyword=engineer',
    ready: (p) => waitForRendered(p, 'rates-view', '/api/v3/search/ceilingrates/?keyword=engineer&page_size=50'),
  },
  { name: 'websites', hash: '#/websites', ready: (p) => waitForRendered(p, 'websites-view', '/websites?page=1&limit=25') },
  {
    name: 'website-detail',
    hash: '#/websites/__FIRST__',
    ready: (p) => p.locator('#website-fields > dd').first().waitFor(),
  },
  { name: 'datasets', hash: '#/datasets', ready: (p) => p.locator('dataset-panel [data-dataset] .badge.ok').nth(1).waitFor() },
  // The console is the PWA layer's component; the shell routes to it and keeps its request in the hash.
  { name: 'console', hash: '#/console?request=/websites%3Flimit%3D3', ready: (p) => p.locator('api-console form').first().waitFor() },
];

async function firstSite(): Promise<string> {
  const url = await page.evaluate(async () => {
    const db = (document.querySelector('app-shell') as unknown as { db: { getJson(u: string): Promise<{ body: { items: { target_url: string }[] } }> } }).db;
    return (await db.getJson('/websites?limit=1&scan_status=completed')).body.items[0].target_url;
  });
  return encodeURIComponent(url);
}

describe('app shell', () => {
  it('loads every dataset of the manifest with byte progress, verified and counted', async () => {
    await openApp(page, inject('baseUrl'), '#/rates');
    const status = await dbStatus();
    expect(status.ready).toBe(true);
    expect(status.version).toBe(manifest.version);
    for (const artifact of Object.values(manifest.datasets)) {
      const d = status.datasets.find((x) => x.name === artifact.name)!;
      expect(d.loaded).toBe(true);
      expect(d.error).toBeNull();
      expect(d.sha256).toBe(artifact.sha256);
      // The browser downloads the Brotli transfer copy where the build wrote one (decision 0406).
      expect(d.bytes).toBe(artifact.transfer?.bytes ?? artifact.bytes);
      expect(d.rows).toEqual(artifact.rows);
    }
    const last = await page.evaluate(() => (document.querySelector('app-shell') as unknown as { db: ShellDb }).db.lastProgress());
    const total = Object.values(manifest.datasets).reduce((n, a) => n + (a.transfer?.bytes ?? a.bytes), 0);
    expect(last).toMatchObject({ phase: 'ready', dataset: null, loaded: total, total });
    // The bar is gone once everything is open.
    expect(await page.locator('load-progress').count()).toBe(0);
  });

  it('shows each dataset in the panel, and reload and reset bring the same data back', async () => {
    await page.getByRole('link', { name: 'Datasets' }).click();
    for (const artifact of Object.values(manifest.datasets)) {
      const card = page.locator(`[data-dataset="${artifact.name}"]`);
      await expect.poll(() => card.locator('[data-field="version"]').textContent()).toBe(manifest.version);
      for (const [table, n] of Object.entries(artifact.rows)) {
        expect(await card.locator(`[data-rows="${table}"]`).textContent()).toBe(formatCount(n));
      }
      // Where the records come from, with the badge that says whether they are real.
      const source = card.locator('[data-field="source"]');
      expect(await source.textContent()).toContain(artifact.source.label);
      expect(await source.locator('.source-badge').textContent()).toBe(artifact.source.kind === 'synthetic' ? 'Synthetic' : 'Real');
    }
    await page.getByRole('button', { name: 'Reload (fetch what changed)' }).click();
    await expect.poll(() => page.locator('dataset-panel').getByRole('status').textContent()).toContain(`version ${manifest.version} is loaded`);
    await page.getByRole('button', { name: 'Reset (download everything again)' }).click();
    await expect
      .poll(() => page.locator('dataset-panel').getByRole('status').textContent(), { timeout: 30_000 })
      .toContain(`Downloaded again: version ${manifest.version}`);
    const status = await dbStatus();
    expect(status.ready).toBe(true);
    expect(status.datasets.every((d) => d.loaded && !d.error)).toBe(true);
    // The engine answers from the fresh copy.
    await page.getByRole('link', { name: 'Ceiling rates' }).click();
    await waitForRendered(page, 'rates-view', '/api/v3/search/ceilingrates/?page_size=50');
    // The browser tests' rates are generated: the view says so by its title.
    const badge = page.locator('rates-view source-badge a');
    await expect.poll(() => badge.getAttribute('data-source')).toBe(manifest.datasets.ceilingrates!.source.kind);
    expect(await badge.getAttribute('title')).toBe(manifest.datasets.ceilingrates!.source.label);
  });

  it('works from the keyboard alone: skip link, navigation, search with suggestions, filters, sorting', async () => {
    await page.goto(`${inject('baseUrl')}/#/rates`);
    await page.reload();
    await waitForData(page);
    await waitForRendered(page, 'rates-view', '/api/v3/search/ceilingrates/?page_size=50');
    await page.keyboard.press('Tab');
    expect((await focused(page)).text).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect((await focused(page)).id).toBe('view-title');

    // Past the data-source badge (a link to the Datasets page) into the search box; pick a suggestion with the arrow keys.
    await page.keyboard.press('Tab');
    expect((await focused(page)).text).toContain('Synthetic data');
    await page.keyboard.press('Tab');
    expect((await focused(page)).role).toBe('combobox');
    await page.keyboard.type('analyst');
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const picked = await waitForChange(page, 'rates-view', '/api/v3/search/ceilingrates/?page_size=50');
    expect(picked).toMatch(/\?search=labor_category:/);

    // Tab to the first education checkbox and tick it with Space.
    for (let i = 0; i < 12 && (await focused(page)).tag !== 'input'; i++) await page.keyboard.press('Tab');
    let f = await focused(page);
    for (
      let i = 0;
      i < 12 &&
      !(
        f.tag === 'input' &&
        (await page.evaluate(() => {
          let el: Element | null = document.activeElement;
          while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
          return (el as HTMLInputElement).type;
        })) === 'checkbox'
      );
      i++
    ) {
      await page.keyboard.press('Tab');
      f = await focused(page);
    }
    await page.keyboard.press('Space');
    const filtered = await waitForChange(page, 'rates-view', picked);
    expect(filtered).toContain('filter=education_level:HS');

    // Sort from a column heading with Enter.
    await page.locator('rates-table th', { hasText: 'Vendor' }).getByRole('button', { name: 'Vendor', exact: true }).focus();
    await page.keyboard.press('Enter');
    const sorted = await waitForChange(page, 'rates-view', filtered);
    expect(sorted).toContain('ordering=vendor_name&sort=asc');

    // Navigation links: focus moves to the new view's heading.
    await page.getByRole('link', { name: 'Websites' }).focus();
    await page.keyboard.press('Enter');
    await waitForRendered(page, 'websites-view', '/websites?page=1&limit=25');
    await expect.poll(async () => (await focused(page)).id).toBe('view-title');
    expect(await page.locator('websites-view h1').textContent()).toBe('Websites');
    // And a website opens with Enter on its link.
    await page.locator('#websites-table a').first().focus();
    await page.keyboard.press('Enter');
    await page.locator('#website-fields').waitFor();
  });

  for (const width of [1280, 390]) {
    it(`has no serious or critical axe violations on any view at ${width} px, and saves a screenshot of each`, async () => {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
      await page.goto(`${inject('baseUrl')}/#/rates`);
      await waitForData(page);
      const site = await firstSite();
      for (const v of VIEWS) {
        await page.goto(`${inject('baseUrl')}/${v.hash.replace('__FIRST__', site)}`);
        await v.ready(page);
        await page.evaluate(() => new Promise(requestAnimationFrame));
        const violations = await seriousViolations(page);
        expect(violations, `${v.name} at ${width}px: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
        await screenshot(page, `${v.name}-${width}`);
      }
      // The rates view at this width has no sideways scroll of the page itself (wide tables scroll in their box).
      await page.goto(`${inject('baseUrl')}/#/rates`);
      await waitForRendered(page, 'rates-view', '/api/v3/search/ceilingrates/?page_size=50');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  }

  it('logged no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
