/**
 * Compare pools: pin queries, see their figures side by side with the current one's (each checked against
 * the API's own answer for that query) and their histograms overlaid; the pins live in the hash; axe and
 * the phone width.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Browser } from '../../harness/browsers/browser.ts';
import { engineJson, openAppSession, screenshot, seriousViolations, waitForRendered } from '../../harness/browsers/app.ts';
import type { Engine } from '../../engine/index.ts';
import type { RatesResponse } from '../../ui/api/api-types.ts';
import { formatCount, formatPrice } from '../../ui/components/common/format.ts';

const BASE = '/api/v3/search/ceilingrates/';
let browser: Browser;
let page: Page;
let engine: Engine;
let errors: string[];

beforeAll(async () => {
  ({ browser, page, engine, errors } = await openAppSession('#/rates'));
});

afterAll(async () => {
  await browser?.close();
});

const rates = () => page.locator('rates-view');

async function search(keyword: string): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Search labor categories, vendors or contracts' });
  await box.fill(keyword);
  await box.press('Enter');
  await waitForRendered(page, 'rates-view', `${BASE}?keyword=${keyword}&page_size=50`);
}

async function waitForPins(count: number): Promise<void> {
  await page.waitForFunction(
    (n) =>
      (document.querySelector('app-shell')?.shadowRoot?.querySelector('rates-view')?.getAttribute('data-rendered-pins') ?? '')
        .split('\n')
        .filter((l) => l.includes('=')).length === n,
    count,
    { timeout: 30_000, polling: 'raf' },
  );
}

async function column(i: number): Promise<Record<string, string>> {
  return rates()
    .locator(`#compare-table td[data-pool="${i}"]`)
    .evaluateAll((tds) => Object.fromEntries(tds.map((td) => [td.getAttribute('data-row'), td.textContent!.trim()])));
}

function expectColumnIsApi(shown: Record<string, string>, keyword: string): void {
  const a = engineJson<RatesResponse>(engine, `${BASE}?keyword=${keyword}&page_size=1`).body.aggregations;
  expect(shown.Rates, keyword).toBe(formatCount(a.wage_stats.count));
  expect(shown.Average, keyword).toBe(formatPrice(a.wage_stats.avg));
  expect(shown.Median, keyword).toBe(formatPrice(a.median_price.values['50.0']));
  expect(shown['Std. dev.'], keyword).toBe(formatPrice(a.wage_stats.std_deviation));
  expect(shown['25th percentile'], keyword).toBe(formatPrice(a.histogram_percentiles.values['25.0']));
  expect(shown['90th percentile'], keyword).toBe(formatPrice(a.histogram_percentiles.values['90.0']));
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('compare pools', () => {
  it('pins two queries and shows their figures beside the current one’s, as the API answers each', async () => {
    await waitForRendered(page, 'rates-view', `${BASE}?page_size=50`);
    await search('engineer');
    await page.getByRole('button', { name: /Pin this query/ }).click();
    await search('analyst');
    await page.getByRole('button', { name: /Pin this query/ }).click();
    await search('manager');
    await waitForPins(2);
    const hash = decodeURIComponent(await page.evaluate(() => location.hash));
    expect(hash).toBe('#/rates?keyword=manager&pin=keyword=engineer&pin=keyword=analyst');
    expect(await rates().locator('#compare-table thead th').count()).toBe(3);
    expectColumnIsApi(await column(0), 'manager');
    expectColumnIsApi(await column(1), 'engineer');
    expectColumnIsApi(await column(2), 'analyst');
    expect(await rates().locator('pool-compare polyline.series').count()).toBe(3);
  });

  it('says each pin’s median against this query’s, and checks a proposed price in every pool', async () => {
    const median = (keyword: string): number =>
      engineJson<RatesResponse>(engine, `${BASE}?keyword=${keyword}&page_size=1`).body.aggregations.median_price.values['50.0']!;
    const signed = (n: number): string => `${n > 0 ? '+' : n < 0 ? '−' : ''}${formatPrice(Math.abs(n))}`;
    const [manager, engineer] = [median('manager'), median('engineer')];
    const shown = await column(1);
    expect((await column(0))['Median vs this query']).toBe('baseline');
    expect(shown['Median vs this query']).toMatch(new RegExp(`^${escapeRegExp(signed(engineer - manager))} \\(`));
    await page.goto(`${inject('baseUrl')}/#/rates?keyword=manager&proposed_price=150&pin=keyword%3Dengineer&pin=keyword%3Danalyst`);
    await waitForPins(2);
    await rates().locator('#compare-table td[data-row="Proposed $150.00"][data-pool="2"]').filter({ hasText: 'percentile' }).waitFor({ timeout: 30_000 });
    for (const [i, keyword] of [
      [0, 'manager'],
      [1, 'engineer'],
      [2, 'analyst'],
    ] as const) {
      const check = (await column(i))['Proposed $150.00'];
      expect(check, keyword).toMatch(/^\d+(st|nd|rd|th) percentile, /);
      expect(check, keyword).toContain(`${signed(150 - median(keyword))} (`);
    }
  });

  it('a third pin is the last; unpinning removes its column', async () => {
    await page.goto(`${inject('baseUrl')}/#/rates?keyword=manager&pin=keyword%3Dengineer&pin=keyword%3Danalyst`);
    await waitForPins(2);
    await page.getByRole('button', { name: /Pin this query/ }).click();
    await waitForPins(3);
    expect(await page.getByRole('button', { name: 'This query is pinned' }).isDisabled()).toBe(true);
    await search('developer');
    expect(await page.getByRole('button', { name: /Pin this query/ }).isDisabled()).toBe(true);
    await rates().locator('#compare-table thead th[data-pool="1"]').getByRole('button', { name: 'Unpin' }).click();
    await waitForPins(2);
    expectColumnIsApi(await column(1), 'analyst');
    expectColumnIsApi(await column(2), 'manager');
  });

  for (const width of [1280, 390]) {
    it(`has no serious axe violations at ${width} px`, async () => {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
      await page.goto(`${inject('baseUrl')}/#/rates?keyword=engineer&pin=keyword%3Danalyst&pin=keyword%3Dmanager`);
      await waitForPins(2);
      await page.evaluate(() => new Promise(requestAnimationFrame));
      const violations = await seriousViolations(page);
      expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `workbench-compare-${width}`);
      await rates()
        .locator('pool-compare')
        .screenshot({ path: `${import.meta.dirname}/../../.tmp/screenshots/workbench-compare-panel-${width}.png` });
    });
  }

  it('logged no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
