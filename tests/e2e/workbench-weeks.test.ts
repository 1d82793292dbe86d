/**
 * The weeks views on the real app path (the built app, its worker and the small test data, which holds no weekly
 * snapshots): the Every week view is reachable from the navigation and bookmarkable, says the weeks are not held and
 * asks the worker's real weeks features (no error); a site's page puts its summary first and names the week in its
 * badge; Tab presses from the top of the Websites view to the first site; axe and the phone width.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Browser } from '../../harness/browsers/browser.ts';
import { engineJson, openAppSession, screenshot, seriousViolations, waitForRendered } from '../../harness/browsers/app.ts';
import type { Engine } from '../../engine/index.ts';
import type { WebsitesResponse } from '../../ui/api/api-types.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
let errors: string[];

beforeAll(async () => {
  ({ browser, page, engine, errors } = await openAppSession('#/weeks?metric=live&before=2025-02-10'));
});

afterAll(async () => {
  await browser?.close();
});

const weeks = () => page.locator('weeks-view');

/** Tab presses from the page's top until a listed site's link has focus. */
async function tabsToFirstSite(limit: number): Promise<number> {
  await page.locator('body').focus();
  for (let n = 1; n <= limit; n++) {
    await page.keyboard.press('Tab');
    const inTable = await page.evaluate(() => {
      let el: Element | null = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      return !!el?.closest('#websites-table');
    });
    if (inTable) return n;
  }
  return Infinity;
}

describe('the weeks views in the app', () => {
  it('opens from a bookmark, asks the worker for the weeks, and says they are not held by this build', async () => {
    await expect.poll(() => weeks().getAttribute('data-weeks'), { timeout: 30_000 }).toBe('not-loaded');
    expect(await weeks().locator('weeks-load p').textContent()).toContain('This build does not hold the weeks');
    expect(await page.locator('app-shell nav a[aria-current="page"]').textContent()).toContain('Every week');
    expect(await page.title()).toBe('Every week · Offline Gov Data');
  });

  it('a site’s page shows its summary strip first, and its badge names the data', async () => {
    const site = engineJson<WebsitesResponse>(engine, '/websites?limit=1&scan_status=completed').body.items[0];
    await page.goto(`${inject('baseUrl')}/#/websites/${encodeURIComponent(site.target_url)}`);
    const strip = page.locator('website-detail #site-summary');
    await strip.waitFor({ timeout: 30_000 });
    expect(await strip.locator('[data-summary="status"] dd').textContent()).toBe('completed');
    expect(await strip.locator('[data-summary="week"] dd').textContent()).toBe('generated data');
    const box = await strip.boundingBox();
    expect(box!.y).toBeLessThan(300);
    expect(await page.locator('website-detail source-badge a').getAttribute('data-source')).toBe('synthetic');
  });

  it('the first listed site is a few Tab presses from the top of the Websites view', async () => {
    await page.goto(`${inject('baseUrl')}/#/websites`);
    await waitForRendered(page, 'websites-view', '/websites?page=1&limit=25');
    await page.locator('websites-view #rollup-table tbody tr').first().waitFor();
    const tabs = await tabsToFirstSite(300);
    console.log(`Tab presses from the top of the app's Websites view to the first site: ${tabs}`);
    expect(tabs).toBeLessThan(30);
  });

  for (const width of [1280, 390]) {
    it(`has no serious axe violations at ${width} px`, async () => {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
      await page.goto(`${inject('baseUrl')}/#/weeks`);
      await expect.poll(() => weeks().getAttribute('data-weeks'), { timeout: 30_000 }).toBe('not-loaded');
      const violations = await seriousViolations(page);
      expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `workbench-weeks-${width}`);
    });
  }

  it('logged no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
