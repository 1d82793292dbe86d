import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, collectPageErrors, type Browser, downloadedText } from '../../harness/browsers/browser.ts';
import Papa from 'papaparse';
import { currentHash, engineJson, nodeEngine, openApp, screenshot, waitForRendered } from '../../harness/browsers/app.ts';
import type { Engine } from '../../engine/index.ts';
import type { AnalysisResponse, WebsiteRecord, WebsitesResponse } from '../../ui/api/api-types.ts';
import { formatCount } from '../../ui/components/common/format.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
let errors: string[];
/** Every record, read through the API the way any client would. */
let all: WebsiteRecord[] = [];

beforeAll(async () => {
  ({ engine } = await nodeEngine(inject('dataDir')));
  for (let p = 1; ; p++) {
    const { body } = engineJson<WebsitesResponse>(engine, `/websites?limit=100&page=${p}`);
    all.push(...body.items);
    if (p >= body.meta.totalPages) break;
  }
  browser = await launchBrowser();
  page = browser.page;
  errors = collectPageErrors(page);
  await openApp(page, inject('baseUrl'), '#/websites');
});

afterAll(async () => {
  await browser?.close();
});

const view = () => page.locator('websites-view');
const listedUrls = () => page.locator('#websites-table tbody tr td.url a').allTextContents();

async function expectMatchesEngine(url: string, analysisUrl: string): Promise<WebsitesResponse> {
  const { status, body } = engineJson<WebsitesResponse>(engine, url);
  expect(status).toBe(200);
  expect(await listedUrls()).toEqual(body.items.map((i) => i.target_url));
  const analysis = engineJson<AnalysisResponse>(engine, analysisUrl).body;
  await expect.poll(() => view().locator('[data-figure="total"]').textContent()).toBe(formatCount(analysis.total));
  expect(await view().locator('[data-figure="domains"]').textContent()).toBe(formatCount(analysis.totalFinalUrlBaseDomains));
  expect(await view().locator('[data-figure="agencies"]').textContent()).toBe(formatCount(analysis.totalAgencies));
  return body;
}

describe('websites view', () => {
  it('offers every agency in the data, and bureaus of the chosen agency', async () => {
    await waitForRendered(page, 'websites-view', '/websites?page=1&limit=25');
    await expectMatchesEngine('/websites?page=1&limit=25', '/analysis');
    const agencies = [...new Set(all.map((r) => r.target_url_agency_owner).filter((a): a is string => a !== null))].sort();
    const agencySelect = page.getByLabel('Agency', { exact: true });
    const values = async (select: typeof agencySelect) =>
      (await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).filter(Boolean).sort();
    // The pickers fill in once the worker has read the owners.
    await expect.poll(() => values(agencySelect)).toEqual(agencies);

    // The agency with the most bureaus makes the bureau picker meaningful.
    const bureausOf = (agency: string) =>
      [
        ...new Set(
          all
            .filter((r) => r.target_url_agency_owner === agency)
            .map((r) => r.target_url_bureau_owner)
            .filter((b): b is string => b !== null),
        ),
      ].sort();
    const agency = agencies.reduce((best, a) => (bureausOf(a).length > bureausOf(best).length ? a : best), agencies[0]);
    await agencySelect.selectOption(agency);
    const url = `/websites?target_url_agency_owner=${encodeURIComponent(agency)}&page=1&limit=25`;
    await waitForRendered(page, 'websites-view', url);
    await expectMatchesEngine(url, `/analysis?target_url_agency_owner=${encodeURIComponent(agency)}`);
    const bureauSelect = page.getByLabel('Bureau', { exact: true });
    await expect.poll(() => values(bureauSelect)).toEqual(bureausOf(agency));
    const bureaus = await values(bureauSelect);

    await bureauSelect.selectOption(bureaus[0]);
    const both = `/websites?target_url_agency_owner=${encodeURIComponent(agency)}&target_url_bureau_owner=${encodeURIComponent(bureaus[0])}&page=1&limit=25`;
    await waitForRendered(page, 'websites-view', both);
    const body = await expectMatchesEngine(
      both,
      `/analysis?target_url_agency_owner=${encodeURIComponent(agency)}&target_url_bureau_owner=${encodeURIComponent(bureaus[0])}`,
    );
    expect(body.items.length).toBeGreaterThan(0);
    for (const item of body.items) expect(item.target_url_bureau_owner).toBe(bureaus[0]);
  });

  it('filters by live, redirects, scan status, DAP and domain, and pages', async () => {
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitForRendered(page, 'websites-view', '/websites?page=1&limit=25');
    await page.getByLabel('Live (2xx)').selectOption('true');
    await page.getByLabel('Scan status').selectOption('completed');
    await page.getByLabel('Redirects').selectOption('false');
    await page.getByLabel('Digital Analytics Program').selectOption('true');
    const qs = 'final_url_live=true&target_url_redirects=false&scan_status=completed&dap_detected_final_url=true';
    await waitForRendered(page, 'websites-view', `/websites?${qs}&page=1&limit=25`);
    const body = await expectMatchesEngine(`/websites?${qs}&page=1&limit=25`, `/analysis?${qs}`);
    for (const item of body.items) {
      expect(item.final_url_live).toBe(true);
      expect(item.scan_status).toBe('completed');
    }
    const domain = body.items[0].target_url_domain ?? '';
    expect(domain).not.toBe('');
    await page.getByLabel('Target base domain').fill(domain);
    await page.getByLabel('Target base domain').press('Enter');
    const withDomain = `/websites?target_url_domain=${domain}&${qs}&page=1&limit=25`;
    await waitForRendered(page, 'websites-view', withDomain);
    await expectMatchesEngine(withDomain, `/analysis?target_url_domain=${domain}&${qs}`);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitForRendered(page, 'websites-view', '/websites?page=1&limit=25');
    await page.getByRole('button', { name: 'Next page' }).click();
    await waitForRendered(page, 'websites-view', '/websites?page=2&limit=25');
    await expectMatchesEngine('/websites?page=2&limit=25', '/analysis');
    await page.getByLabel('Rows per page').selectOption('100');
    await waitForRendered(page, 'websites-view', '/websites?page=1&limit=100');
    expect((await listedUrls()).length).toBe(100);
  });

  it('exports every matching site as CSV, not just the page shown, with the query and the source on top', async () => {
    await page.goto(`${inject('baseUrl')}/#/websites?final_url_live=true&page=2&limit=10`);
    await waitForRendered(page, 'websites-view', '/websites?final_url_live=true&page=2&limit=10');
    const live = all.filter((w) => w.final_url_live === true);
    expect(live.length).toBeGreaterThan(10);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      view()
        .getByRole('button', { name: /^Export CSV/ })
        .click(),
    ]);
    const rows = Papa.parse<string[]>(await downloadedText(download), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Query', 'final_url_live=true']);
    expect(rows[1][0]).toBe('Snapshot date');
    expect(rows[2][0]).toBe('Source');
    expect(rows[2][1]).not.toBe('unknown');
    const header = rows.findIndex((r) => r[0] === 'target_url');
    expect(rows[header - 1]).toEqual(['Sites', String(live.length)]);
    expect(rows.slice(header + 1).map((r) => r[0])).toEqual(live.map((w) => w.target_url));
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
      await page.evaluate(() => new Promise(requestAnimationFrame));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `websites-export-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('reports the API error for a filter the API rejects', async () => {
    await page.goto(`${inject('baseUrl')}/#/websites?target_url_domain=nodot`);
    const expected = engineJson<{ message: string[] }>(engine, '/websites?target_url_domain=nodot&page=1&limit=25');
    expect(expected.status).toBe(400);
    await expect.poll(() => view().getByRole('alert').textContent()).toContain(expected.body.message[0]);
  });

  it('opens a website with every field, chips for lists and links for URLs; the deep link survives a reload', async () => {
    await page.goto(`${inject('baseUrl')}/#/websites?final_url_live=true&scan_status=completed`);
    const listUrl = '/websites?final_url_live=true&scan_status=completed&page=1&limit=25';
    await waitForRendered(page, 'websites-view', listUrl);
    // A site with a design-system class list, so the chips have something to show.
    const candidates = engineJson<WebsitesResponse>(engine, '/websites?final_url_live=true&scan_status=completed&limit=100').body.items;
    const target = candidates.find((r) => Array.isArray(r.ds_usa_class_list) && (r.ds_usa_class_list as string[]).length > 1) ?? candidates[0];
    const record = engineJson<WebsiteRecord>(engine, `/websites/${target.target_url}`).body;
    const link = page.locator('#websites-table a', { hasText: new RegExp(`^${target.target_url.replaceAll('.', '\\.')}$`) });
    if ((await link.count()) === 0) await page.goto(`${inject('baseUrl')}/#/websites/${encodeURIComponent(target.target_url)}`);
    else await link.click();

    const expectDetail = async () => {
      const fields = page.locator('#website-fields > dd');
      await fields.first().waitFor();
      expect(await fields.evaluateAll((dds) => dds.map((d) => d.getAttribute('data-field')))).toEqual(Object.keys(record));
      for (const [field, value] of Object.entries(record)) {
        const dd = page.locator(`#website-fields > dd[data-field="${field}"]`);
        if (Array.isArray(value) && value.length) {
          expect(await dd.locator('li.chip').allTextContents()).toEqual(value.map(String));
        } else if (typeof value === 'string' && /^https?:\/\//.test(value)) {
          expect(await dd.getByRole('link').getAttribute('href')).toBe(value);
        } else if (typeof value === 'boolean') {
          expect(await dd.textContent()).toBe(value ? 'Yes' : 'No');
        } else if (value === null) {
          expect(await dd.textContent()).toBe('not reported');
        } else if (typeof value !== 'object') {
          expect((await dd.textContent())?.trim()).toBe(String(value));
        }
      }
    };
    await expectDetail();
    expect(await currentHash(page)).toBe(`#/websites/${target.target_url}`);
    await page.reload();
    await expectDetail();

    // Back to the listing the user came from, filters kept.
    await page.getByRole('link', { name: '← All websites' }).click();
    await waitForRendered(page, 'websites-view', listUrl);
  });

  it('says so when a website is not in the data', async () => {
    await page.goto(`${inject('baseUrl')}/#/websites/${encodeURIComponent('no-such-site.example')}`);
    await expect.poll(() => page.locator('website-detail').getByRole('alert').textContent()).toContain('No website found');
  });

  it('logged no errors in the page', () => {
    // A 400 answer is shown in the page, not logged; nothing else may be.
    expect(errors).toEqual([]);
  });
});
