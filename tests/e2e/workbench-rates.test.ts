/**
 * The pricing analyst's workbench in the rates view: the price check (a proposed price's percentile rank
 * and distance from the median, marked on both charts) and the contract-year figures (next / second year
 * price), checked against a plain reference over the same records the API lists; the escalation column;
 * axe and the phone width.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, collectPageErrors, type Browser } from '../../harness/browsers/browser.ts';
import { join } from 'node:path';
import { writeFileSync, mkdirSync } from 'node:fs';
import Papa from 'papaparse';
import { describeRatesQuery } from '../../ui/state/rates-describe.ts';
import { MAX_TITLES, parseRatesQuery } from '../../ui/state/rates-query.ts';
import type { Manifest } from '../../dataset/artifact/format.ts';
import { currentHash, engineJson, nodeEngine, openApp, SCREENSHOT_DIR, screenshot, seriousViolations, waitForRendered } from '../../harness/browsers/app.ts';
import type { Engine } from '../../engine/index.ts';
import type { RateRecord, RatesResponse } from '../../ui/api/api-types.ts';
import { formatCount, formatPrice } from '../../ui/components/common/format.ts';
import { escalation, formatEscalation, ordinal, signedPercent } from '../../ui/components/rates-view/figures-model.ts';
import { downloadedBytes, downloadedText } from '../../harness/browsers/browser.ts';

const BASE = '/api/v3/search/ceilingrates/';
const QUERY = 'keyword=engineer&filter=education_level:BA|MA';
let browser: Browser;
let page: Page;
let engine: Engine;
let errors: string[];
let records: RateRecord[];
let manifest: Manifest;

/** Every record the API matches for a query, read page by page (the reference's input). */
function allMatches(query: string): RateRecord[] {
  const out: RateRecord[] = [];
  for (let p = 1; ; p++) {
    const { body } = engineJson<RatesResponse>(engine, `${BASE}?${query}&page_size=500&page=${p}`);
    out.push(...body.hits.hits.map((h) => h._source));
    if (body.hits.hits.length < 500) return out;
  }
}

/** Percentile with linear interpolation between closest ranks (the API's documented method). */
function percentile(sorted: number[], p: number): number {
  const at = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(at);
  return sorted[lo] + (sorted[Math.ceil(at)] - sorted[lo]) * (at - lo);
}

beforeAll(async () => {
  ({ engine, manifest } = await nodeEngine(inject('dataDir')));
  records = allMatches(QUERY);
  browser = await launchBrowser();
  page = browser.page;
  errors = collectPageErrors(page);
  await openApp(page, inject('baseUrl'), '#/rates');
});

afterAll(async () => {
  await browser?.close();
});

const rates = () => page.locator('rates-view');
const apiUrl = `${BASE}?${QUERY.replace('|', '%7C')}&page_size=50`;

async function waitForFigures(year: string, proposed: string): Promise<void> {
  await page.waitForFunction(
    (prefix) => (document.querySelector('app-shell')?.shadowRoot?.querySelector('rates-view')?.getAttribute('data-rendered-figures') ?? '').startsWith(prefix),
    `${year}|${proposed}|`,
    { timeout: 30_000, polling: 'raf' },
  );
}

describe('price check', () => {
  it('ranks a proposed price among the matches and says how far it is from the median', async () => {
    expect(records.length).toBeGreaterThan(20);
    await page.goto(`${inject('baseUrl')}/#/rates?${QUERY}`);
    await waitForRendered(page, 'rates-view', apiUrl);
    const prices = records.map((r) => r.current_price).sort((a, b) => a - b);
    const median = percentile(prices, 50);
    const proposed = Math.round(percentile(prices, 70) * 100) / 100;
    const input = page.getByLabel('Proposed price (per hour)');
    await input.fill(String(proposed));
    await input.press('Enter');
    await waitForFigures('current_price', String(proposed));
    // The state is in the hash, beside the API's parameters; the API request itself is unchanged.
    expect(await currentHash(page)).toBe(`#/rates?${QUERY}&proposed_price=${proposed}`);
    expect(await rates().getAttribute('data-rendered-url')).toBe(apiUrl);

    const below = prices.filter((p) => p < proposed).length;
    const equal = prices.filter((p) => p === proposed).length;
    const rank = ((below + equal / 2) / prices.length) * 100;
    expect(await rates().locator('[data-check="rank"]').textContent()).toBe(ordinal(rank));
    const difference = proposed - median;
    expect(await rates().locator('[data-check="difference"]').textContent()).toBe(`${difference >= 0 ? '+' : '−'}${formatPrice(Math.abs(difference))}`);
    expect(await rates().locator('[data-check="percent"]').textContent()).toBe(`(${signedPercent((difference / median) * 100)})`);
    // Marked on the histogram and on the percentile band.
    expect(await rates().locator('price-histogram [data-marker="proposed"]').count()).toBe(1);
    expect(await rates().locator('rates-figures [data-marker="band-proposed"]').count()).toBe(1);
    // The figures are still the API's own.
    const body = engineJson<RatesResponse>(engine, apiUrl).body;
    expect(await rates().locator('[data-figure="median"]').textContent()).toBe(formatPrice(body.aggregations.median_price.values['50.0']));
    expect(await rates().locator('[data-figure="median"]').textContent()).toBe(formatPrice(median));
  });

  it('computes the figures on next year’s and the second year’s price over the same matches', async () => {
    for (const [label, field] of [
      ['Next year', 'next_year_price'],
      ['Second year', 'second_year_price'],
    ] as const) {
      await page.getByRole('radio', { name: label }).check();
      const proposed = (await currentHash(page)).match(/proposed_price=([\d.]+)/)![1];
      await waitForFigures(field, proposed);
      expect(await currentHash(page)).toContain(`year=${field}`);
      const prices = records
        .map((r) => r[field])
        .filter((p): p is number => p !== null)
        .sort((a, b) => a - b);
      const figure = (name: string) => rates().locator(`[data-figure="${name}"]`).textContent();
      expect(await figure('count')).toBe(formatCount(prices.length));
      expect(await figure('avg')).toBe(formatPrice(prices.reduce((s, p) => s + p, 0) / prices.length));
      expect(await figure('median')).toBe(formatPrice(percentile(prices, 50)));
      expect(await figure('min')).toBe(formatPrice(prices[0]));
      expect(await figure('max')).toBe(formatPrice(prices[prices.length - 1]));
      for (const k of [10, 25, 75, 90]) {
        expect(
          await rates()
            .locator(`[data-percentile="${k.toFixed(1)}"]`)
            .textContent(),
        ).toBe(formatPrice(percentile(prices, k)));
      }
      const p = Number(proposed);
      const rank = ((prices.filter((x) => x < p).length + prices.filter((x) => x === p).length / 2) / prices.length) * 100;
      expect(await rates().locator('[data-check="rank"]').textContent()).toBe(ordinal(rank));
      const bars = await rates().locator('price-histogram rect.bar').count();
      expect(bars).toBeGreaterThan(0);
      expect(bars).toBeLessThanOrEqual(12);
      expect(await rates().locator('rates-figures h2#hist-h').textContent()).toContain(label.toLowerCase());
    }
    // Back to the current year: the API's figures again.
    await page.getByRole('radio', { name: 'Current year' }).check();
    await page.waitForFunction(() => !location.hash.includes('year='));
    const body = engineJson<RatesResponse>(engine, apiUrl).body;
    await page.waitForFunction(
      (want) =>
        document
          .querySelector('app-shell')
          ?.shadowRoot?.querySelector('rates-view')
          ?.shadowRoot?.querySelector('rates-figures')
          ?.shadowRoot?.querySelector('[data-figure="avg"]')?.textContent === want,
      formatPrice(body.aggregations.wage_stats.avg),
    );
  });

  it('shows each row’s escalation, next year’s price over the current one', async () => {
    const body = engineJson<RatesResponse>(engine, apiUrl).body;
    const cells = await rates().locator('rates-table td[data-col="escalation"]').allTextContents();
    expect(cells).toEqual(body.hits.hits.map((h) => formatEscalation(escalation(h._source))));
  });

  it('exports every match as CSV with the method noted, and the figures as SVG and PNG', async () => {
    const hash = `${QUERY}&year=next_year_price&proposed_price=150`;
    await page.goto(`${inject('baseUrl')}/#/rates?${hash}`);
    await waitForFigures('next_year_price', '150');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const rows = Papa.parse<string[]>(await downloadedText(download), { skipEmptyLines: true }).data;
    const header = rows.findIndex((r) => r[0] === 'Contract #');
    const notes = Object.fromEntries(rows.slice(0, header).map((r) => [r[0], r[1]]));
    expect(notes['Search query']).toBe('engineer');
    expect(notes.Filters).toBe('education_level:BA|MA');
    expect(notes['Query in words']).toBe(describeRatesQuery(parseRatesQuery(new URLSearchParams(hash))));
    expect(notes['API request']).toBe(`GET ${apiUrl}`);
    expect(notes.Dataset).toBe(`Ceiling rates, version ${manifest.version}`);
    // The data's own date, never when the browser opened it: the small profile's rates are generated and have none.
    expect(notes['Dataset date']).toBe('none (generated data)');
    expect(notes['Figures computed on']).toBe('next year price');
    expect(notes['Proposed price']).toBe('$150.00');
    expect(notes['Matching records']).toBe(String(records.length));
    // The records are the API's own export of the same query, all of them.
    const api = Papa.parse<string[]>(engine.handle({ method: 'GET', url: `${apiUrl}&export=y` }).body, { skipEmptyLines: true }).data;
    expect(rows.slice(header)).toEqual(api.slice(api.findIndex((r) => r[0] === 'Contract #')));
    expect(rows.length - header - 1).toBe(records.length);

    const [svg] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Figures as SVG' }).click()]);
    expect(svg.suggestedFilename()).toMatch(/\.svg$/);
    const svgText = await downloadedText(svg);
    expect(svgText.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const prices = records
      .map((r) => r.next_year_price)
      .filter((p): p is number => p !== null)
      .sort((a, b) => a - b);
    expect(svgText).toContain(`median ${formatPrice(percentile(prices, 50))}`);
    expect(svgText).toContain('Proposed price $150.00');
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    writeFileSync(join(SCREENSHOT_DIR, 'workbench-figures-export.svg'), svgText);
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Figures as PNG' }).click()]);
    const pngBytes = await downloadedBytes(png);
    expect([...pngBytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    writeFileSync(join(SCREENSHOT_DIR, 'workbench-figures-export.png'), pngBytes);
  });

  it('pools exact titles picked from the suggestions: the pool’s figures and each title’s count', async () => {
    await page.goto(`${inject('baseUrl')}/#/rates`);
    await waitForRendered(page, 'rates-view', `${BASE}?page_size=50`);
    await page.getByRole('radio', { name: 'Exact titles (a pool)' }).check();
    await page.getByLabel('Find labor-category titles to pool').fill('engin');
    const offered = engineJson<{ aggregations: { labor_category: { buckets: { key: string; doc_count: number }[] } } }>(
      engine,
      `${BASE}?page_size=50&suggest-contains=labor_category:engin`,
    ).body.aggregations.labor_category.buckets.slice(0, 12);
    await rates().locator('title-pool [data-offer]').first().waitFor();
    expect(
      await rates()
        .locator('title-pool [data-offer]')
        .evaluateAll((bs) => bs.map((b) => b.getAttribute('data-offer'))),
    ).toEqual(offered.map((b) => b.key));
    const picked = offered.slice(0, 3).map((b) => b.key);
    for (const title of picked) await rates().locator(`title-pool [data-offer="${title}"]`).click();
    await waitForFigures('current_price', '');
    await page.waitForFunction(
      (n) => document.querySelector('app-shell')?.shadowRoot?.querySelector('rates-view')?.shadowRoot?.querySelectorAll('#pool-counts tbody tr').length === n,
      picked.length,
    );
    const hash = decodeURIComponent(await page.evaluate(() => location.hash));
    expect(hash).toBe(`#/rates?search_mode=titles&${picked.map((t) => `title=${t}`).join('&')}`);
    // The reference: each title's records as the API's exact search lists them, pooled.
    const byId = new Map<number, RateRecord>();
    for (const title of picked) {
      const mine = allMatches(`search=${encodeURIComponent(`labor_category:${title}`)}`);
      expect(await rates().locator(`#pool-counts tr[data-title="${title}"] td.num`).textContent()).toBe(formatCount(mine.length));
      for (const r of mine) byId.set(r.id, r);
    }
    const prices = [...byId.values()].map((r) => r.current_price).sort((a, b) => a - b);
    expect(await rates().locator('[data-figure="count"]').textContent()).toBe(formatCount(prices.length));
    expect(await rates().locator('#result-status').textContent()).toContain(`${formatCount(prices.length)} rates in the pool`);
    expect(await rates().locator('[data-figure="median"]').textContent()).toBe(formatPrice(percentile(prices, 50)));
    expect(await rates().locator('[data-percentile="75.0"]').textContent()).toBe(formatPrice(percentile(prices, 75)));
    // Exported whole, the pool named in words.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const rows = Papa.parse<string[]>(await downloadedText(download), { skipEmptyLines: true }).data;
    const header = rows.findIndex((r) => r[0] === 'Contract #');
    expect(rows.length - header - 1).toBe(prices.length);
    expect(rows.find((r) => r[0] === 'Query in words')![1]).toContain(`exactly one of “${picked[0]}”`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'workbench-title-pool-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => new Promise(requestAnimationFrame));
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'workbench-title-pool-390');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('keeps a linked pool within the worker’s limit, says how many titles it left out, and offers no more', async () => {
    const titles = Array.from({ length: MAX_TITLES + 20 }, (_, i) => `Linked Title ${i}`);
    await page.goto(`${inject('baseUrl')}/#/rates?search_mode=titles&${titles.map((t) => `title=${encodeURIComponent(t)}`).join('&')}`);
    await rates().locator('title-pool [data-pool-full]').waitFor();
    expect(await rates().locator('title-pool .pool li').count()).toBe(MAX_TITLES);
    expect(await rates().locator('title-pool [data-pool-full]').textContent()).toMatch(/at most 100 titles[\s\S]*20 more, left out/);
    // The figures of the 100 kept are answered (the worker refuses a pool beyond its limit with a 406).
    await page.waitForFunction(
      (last) =>
        (document.querySelector('app-shell')?.shadowRoot?.querySelector('rates-view')?.getAttribute('data-rendered-figures') ?? '').endsWith(`|${last}`),
      titles[MAX_TITLES - 1],
      { timeout: 30_000, polling: 'raf' },
    );
    await page.getByLabel('Find labor-category titles to pool').fill('engin');
    await rates().locator('title-pool [data-offer]').first().waitFor();
    expect(await rates().locator('title-pool [data-offer]:not([disabled])').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  for (const width of [1280, 390]) {
    it(`has no serious axe violations and no overlapping axis labels at ${width} px`, async () => {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
      await page.goto(`${inject('baseUrl')}/#/rates?${QUERY}&year=next_year_price&proposed_price=150`);
      await waitForFigures('next_year_price', '150');
      await page.evaluate(() => new Promise(requestAnimationFrame));
      const violations = await seriousViolations(page);
      expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
      const boxes = await rates()
        .locator('price-histogram text.axis')
        .evaluateAll((texts) => texts.map((t) => t.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, w: r.width, h: r.height })));
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i];
          const b = boxes[j];
          const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
          expect(overlap, `axis labels ${i} and ${j} overlap at ${width}px`).toBe(false);
        }
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `workbench-price-check-${width}`);
      await rates()
        .locator('rates-figures')
        .screenshot({ path: join(SCREENSHOT_DIR, `workbench-figures-${width}.png`) });
    });
  }

  it('logged no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
