import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import type { Browser } from '../../harness/browsers/browser.ts';
import { currentHash, engineJson, openAppSession, renderedUrl, waitForChange, waitForRendered } from '../../harness/browsers/app.ts';
import type { Engine } from '../../engine/index.ts';
import type { RatesResponse } from '../../ui/api/api-types.ts';
import { formatCount, formatPrice } from '../../ui/components/common/format.ts';
import { downloadedText } from '../../harness/browsers/browser.ts';

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
const tableIds = () => page.locator('rates-table tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));

/** The table shows the engine's page of hits, in order, and the figures show its aggregations. */
async function expectMatchesEngine(url: string): Promise<RatesResponse> {
  const { status, body } = engineJson<RatesResponse>(engine, url);
  expect(status).toBe(200);
  expect(await tableIds()).toEqual(body.hits.hits.map((h) => h._id));
  const stats = body.aggregations.wage_stats;
  const figure = (name: string) => rates().locator(`[data-figure="${name}"]`).textContent();
  expect(await figure('count')).toBe(formatCount(stats.count));
  expect(await figure('avg')).toBe(formatPrice(stats.avg));
  expect(await figure('median')).toBe(formatPrice(body.aggregations.median_price.values['50.0']));
  expect(await figure('std')).toBe(formatPrice(stats.std_deviation));
  expect(await figure('min')).toBe(formatPrice(stats.min));
  expect(await figure('max')).toBe(formatPrice(stats.max));
  for (const k of ['10.0', '25.0', '50.0', '75.0', '90.0']) {
    expect(await rates().locator(`[data-percentile="${k}"]`).textContent()).toBe(formatPrice(body.aggregations.histogram_percentiles.values[k]));
  }
  expect(await page.locator('price-histogram rect.bar').count()).toBe(body.aggregations.wage_histogram.buckets.length);
  return body;
}

async function go(hash: string, url: string): Promise<void> {
  await page.goto(`${inject('baseUrl')}/${hash}`);
  await waitForRendered(page, 'rates-view', url);
}

describe('ceiling-rates view', () => {
  it('runs a search with filters and shows exactly the engine answer for the same URL', async () => {
    await waitForRendered(page, 'rates-view', `${BASE}?page_size=50`);
    const search = page.getByRole('combobox', { name: 'Search labor categories, vendors or contracts' });
    await search.fill('engineer');
    await search.press('Enter');
    await page.getByRole('checkbox', { name: 'Bachelor' }).check();
    await page.getByRole('checkbox', { name: 'Master' }).check();
    await page.getByLabel('Hourly price: minimum dollars').fill('50');
    await page.getByLabel('Hourly price: minimum dollars').press('Tab');
    await page.getByLabel('Hourly price: maximum dollars').fill('200');
    await page.getByLabel('Hourly price: maximum dollars').press('Tab');
    const url = `${BASE}?keyword=engineer&filter=education_level:BA%7CMA&filter=price_range:50,200&page_size=50`;
    await waitForRendered(page, 'rates-view', url);
    const body = await expectMatchesEngine(url);
    expect(body.hits.hits.length).toBeGreaterThan(0);
    for (const hit of body.hits.hits) {
      expect(['BA', 'MA']).toContain(hit._source.education_level);
      expect(hit._source.current_price).toBeGreaterThanOrEqual(50);
      expect(hit._source.current_price).toBeLessThanOrEqual(200);
    }
    // The view's state is the API query in the hash.
    expect(await currentHash(page)).toBe('#/rates?keyword=engineer&filter=education_level:BA|MA&filter=price_range:50,200');
    expect(await page.getByRole('status').filter({ hasText: 'match' }).textContent()).toContain(formatCount(body.aggregations.wage_stats.count));
  });

  it('applies every other filter the panel offers', async () => {
    await go('#/rates', `${BASE}?page_size=50`);
    await page.getByLabel('Business size').selectOption('S');
    await page.getByLabel('Worksite').selectOption('customer');
    await page.getByLabel('Security clearance').selectOption('no');
    await page.getByLabel('Years of experience: minimum years').fill('3');
    await page.getByLabel('Years of experience: minimum years').press('Tab');
    const url = `${BASE}?filter=experience_range:3,99&filter=business_size:S&filter=site:customer&filter=security_clearance:no&page_size=50`;
    await waitForRendered(page, 'rates-view', url);
    const body = await expectMatchesEngine(url);
    for (const hit of body.hits.hits) {
      expect(hit._source.business_size).toBe('S');
      expect(hit._source.min_years_experience).toBeGreaterThanOrEqual(3);
    }
    const sin = body.hits.hits[0]?._source.sin.split(/[,;/\s]+/)[0];
    if (sin) {
      await page.getByLabel('SIN', { exact: true }).fill(sin);
      await page.getByLabel('SIN', { exact: true }).press('Enter');
      const withSin = await waitForChange(page, 'rates-view', url);
      expect(withSin).toContain(`filter=sin:${encodeURIComponent(sin).replaceAll('%2C', ',')}`);
      const answer = await expectMatchesEngine(withSin);
      expect(answer.aggregations.wage_stats.count).toBeGreaterThan(0);
    }
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitForRendered(page, 'rates-view', `${BASE}?page_size=50`);
  });

  it('suggests values as you type and searches the one picked', async () => {
    await go('#/rates', `${BASE}?page_size=50`);
    const search = page.getByRole('combobox', { name: 'Search labor categories, vendors or contracts' });
    await search.fill('engin');
    const options = page.getByRole('option');
    await options.first().waitFor();
    const expected = engineJson<{ aggregations: Record<string, { buckets: { key: string }[] }> }>(
      engine,
      `${BASE}?page_size=50&suggest-contains=labor_category:engin`,
    ).body.aggregations.labor_category.buckets.slice(0, 6);
    const first = expected[0].key;
    expect(await page.getByRole('group', { name: 'Labor category' }).getByRole('option').first().textContent()).toContain(first);
    await search.press('ArrowDown');
    expect(await search.getAttribute('aria-activedescendant')).toBe('opt-0');
    await search.press('Enter');
    const url = await waitForChange(page, 'rates-view', `${BASE}?page_size=50`);
    expect(decodeURIComponent(url)).toBe(`${BASE}?search=labor_category:${first}&page_size=50`);
    const body = await expectMatchesEngine(url);
    for (const hit of body.hits.hits) expect(hit._source.labor_category.trim().toLowerCase()).toBe(first.trim().toLowerCase());
  });

  it('sorts by one column, reverses it, and adds a second ordering with Shift+click', async () => {
    await go('#/rates?keyword=engineer', `${BASE}?keyword=engineer&page_size=50`);
    const vendor = page.locator('rates-table th', { hasText: 'Vendor' });
    await vendor.getByRole('button', { name: 'Vendor', exact: true }).click();
    let url = `${BASE}?keyword=engineer&ordering=vendor_name&sort=asc&page_size=50`;
    await waitForRendered(page, 'rates-view', url);
    await expectMatchesEngine(url);
    expect(await vendor.getAttribute('aria-sort')).toBe('ascending');

    await vendor.getByRole('button', { name: 'Vendor', exact: true }).click();
    url = `${BASE}?keyword=engineer&ordering=vendor_name&sort=desc&page_size=50`;
    await waitForRendered(page, 'rates-view', url);
    await expectMatchesEngine(url);
    expect(await vendor.getAttribute('aria-sort')).toBe('descending');

    // Years share the education column, under it, with a sort button of their own.
    await page
      .locator('rates-table th', { hasText: 'Edu.' })
      .getByRole('button', { name: 'Yrs', exact: true })
      .click({ modifiers: ['Shift'] });
    url = `${BASE}?keyword=engineer&ordering=vendor_name&sort=desc&ordering=min_years_experience&sort=asc&page_size=50`;
    await waitForRendered(page, 'rates-view', url);
    const body = await expectMatchesEngine(url);
    expect(body.hits.hits[0].sort.length).toBe(2);

    // The "then by" picker adds a third without a mouse modifier.
    await page.getByLabel('Add an ordering').selectOption('current_price');
    url = `${BASE}?keyword=engineer&ordering=vendor_name&sort=desc&ordering=min_years_experience&sort=asc&ordering=current_price&sort=asc&page_size=50`;
    await waitForRendered(page, 'rates-view', url);
    await expectMatchesEngine(url);
    await page.getByRole('button', { name: 'Remove ordering by Vendor' }).click();
    url = `${BASE}?keyword=engineer&ordering=min_years_experience&sort=asc&ordering=current_price&sort=asc&page_size=50`;
    await waitForRendered(page, 'rates-view', url);
    await expectMatchesEngine(url);
  });

  it('pages through the results and changes the page size', async () => {
    await go('#/rates', `${BASE}?page_size=50`);
    await page.getByRole('button', { name: 'Next page' }).click();
    await waitForRendered(page, 'rates-view', `${BASE}?page=2&page_size=50`);
    await expectMatchesEngine(`${BASE}?page=2&page_size=50`);
    expect(await page.getByText('Page 2 of').textContent()).toMatch(/Page 2 of \d+/);
    await page.getByLabel('Rows per page').selectOption('25');
    await waitForRendered(page, 'rates-view', `${BASE}?page_size=25`);
    const body = await expectMatchesEngine(`${BASE}?page_size=25`);
    expect(body.hits.hits.length).toBe(25);
    await page.getByRole('button', { name: 'Last page' }).click();
    const last = await waitForChange(page, 'rates-view', `${BASE}?page_size=25`);
    await expectMatchesEngine(last);
    await expect(page.getByRole('button', { name: 'Next page' }).isDisabled()).resolves.toBe(true);
  });

  it('excludes rows from the table and the figures, and restores them', async () => {
    const start = `${BASE}?keyword=engineer&page_size=50`;
    await go('#/rates?keyword=engineer', start);
    const before = engineJson<RatesResponse>(engine, start).body;
    const [first, second] = before.hits.hits.map((h) => h._id);
    await page
      .locator(`rates-table tr[data-id="${first}"]`)
      .getByRole('button', { name: /^Exclude/ })
      .click();
    let url = `${BASE}?keyword=engineer&page_size=50&exclude=${first}`;
    await waitForRendered(page, 'rates-view', url);
    let body = await expectMatchesEngine(url);
    expect(body.aggregations.wage_stats.count).toBe(before.aggregations.wage_stats.count - 1);
    expect(await tableIds()).not.toContain(first);
    // Keyboard focus stays in the table, on the row that moved up.
    await page.keyboard.press('Enter');
    url = `${BASE}?keyword=engineer&page_size=50&exclude=${first}%7C${second}`;
    await waitForRendered(page, 'rates-view', url);
    body = await expectMatchesEngine(url);
    expect(body.aggregations.wage_stats.count).toBe(before.aggregations.wage_stats.count - 2);

    const region = page.getByRole('region', { name: 'Excluded rows' });
    expect(await region.textContent()).toContain('2 excluded rows');
    await region
      .getByRole('button', { name: /^Restore .*·/ })
      .first()
      .click();
    url = `${BASE}?keyword=engineer&page_size=50&exclude=${second}`;
    await waitForRendered(page, 'rates-view', url);
    await expectMatchesEngine(url);
    await page.getByRole('button', { name: 'Restore all' }).click();
    await waitForRendered(page, 'rates-view', start);
    await expectMatchesEngine(start);
  });

  it('exports the current query as the engine CSV', async () => {
    const start = `${BASE}?keyword=engineer&filter=education_level:MA&page_size=50`;
    await go('#/rates?keyword=engineer&filter=education_level:MA', start);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^ceiling-rates-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await downloadedText(download);
    const answer = engine.handle({ method: 'GET', url: `${start}&export=y` });
    expect(answer.status).toBe(200);
    const lines = (text: string) => text.split(/\r?\n/).filter((l) => l !== '');
    const header = lines(csv).findIndex((l) => l.startsWith('Contract #,'));
    expect(header).toBeGreaterThan(-1);
    expect(lines(csv).slice(header)).toEqual(lines(answer.body).slice(lines(answer.body).findIndex((l) => l.startsWith('Contract #,'))));
    const count = engineJson<RatesResponse>(engine, start).body.aggregations.wage_stats.count;
    // Records, not lines: a quoted cell may hold a line break (SIN lists written one code per line).
    const records = Papa.parse<string[]>(lines(csv).slice(header).join('\r\n'), { skipEmptyLines: true }).data;
    expect(records.length - 1).toBe(Math.min(count, 10_000));
  });

  it('goes back and forward through filter changes, and reloads a deep link as it was', async () => {
    const a = `${BASE}?keyword=analyst&page_size=50`;
    await go('#/rates?keyword=analyst', a);
    await page.getByRole('checkbox', { name: 'Master' }).check();
    const b = `${BASE}?keyword=analyst&filter=education_level:MA&page_size=50`;
    await waitForRendered(page, 'rates-view', b);
    await page.getByRole('button', { name: 'Next page' }).click();
    const c = `${BASE}?keyword=analyst&filter=education_level:MA&page=2&page_size=50`;
    await waitForRendered(page, 'rates-view', c);

    await page.goBack();
    await waitForRendered(page, 'rates-view', b);
    await page.goBack();
    await waitForRendered(page, 'rates-view', a);
    expect(await page.getByRole('checkbox', { name: 'Master' }).isChecked()).toBe(false);
    await page.goForward();
    await waitForRendered(page, 'rates-view', b);
    expect(await page.getByRole('checkbox', { name: 'Master' }).isChecked()).toBe(true);

    await page.goForward();
    await waitForRendered(page, 'rates-view', c);
    await page.reload();
    await waitForRendered(page, 'rates-view', c);
    expect(await page.getByRole('checkbox', { name: 'Master' }).isChecked()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Search labor categories, vendors or contracts' }).inputValue()).toBe('analyst');
    await expectMatchesEngine(c);
    expect(await renderedUrl(page, 'rates-view')).toBe(c);
  });

  it('logged no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
