/**
 * The web-presence analyst's roll-ups in the websites view: per agency and, drilled down, per bureau, every
 * count checked against the API's own /websites totals and /analysis for the same filters (the design
 * system and banner shares against SQL over the served file); sorting and the drill-down live in the
 * hash; a click filters the list; axe and the phone width.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Browser } from '../../harness/browsers/browser.ts';
import { currentHash, engineJson, openAppSession, screenshot, seriousViolations, waitForRendered } from '../../harness/browsers/app.ts';
import type { Engine } from '../../engine/index.ts';
import type { AnalysisResponse, WebsitesResponse } from '../../ui/api/api-types.ts';
import { formatCount } from '../../ui/components/common/format.ts';
import { percent } from '../../ui/components/websites-view/rollup-model.ts';

let browser: Browser;
let page: Page;
let engine: Engine;
let errors: string[];

beforeAll(async () => {
  ({ browser, page, engine, errors } = await openAppSession('#/websites'));
});

afterAll(async () => {
  await browser?.close();
});

const view = () => page.locator('websites-view');
const total = (filters: string): number => engineJson<WebsitesResponse>(engine, `/websites?${filters}&limit=1`).body.meta.totalItems;
const sqlCount = (where: string, params: string[]): number =>
  Number(engine.database('websites')!.exec(`SELECT COUNT(*) FROM websites WHERE ${where}`, params)[0].values[0][0]);

async function waitForRollup(key: string): Promise<void> {
  await page.waitForFunction(
    (want) => document.querySelector('app-shell')?.shadowRoot?.querySelector('websites-view')?.getAttribute('data-rendered-rollup') === want,
    key,
    { timeout: 30_000, polling: 'raf' },
  );
}

interface ShownRow {
  owner: string;
  cells: Record<string, string>;
}

async function shownRows(): Promise<ShownRow[]> {
  return view()
    .locator('#rollup-table tbody tr')
    .evaluateAll((rows) =>
      rows.map((tr) => ({
        owner: tr.getAttribute('data-owner') ?? '',
        cells: Object.fromEntries(
          [...tr.querySelectorAll('td[data-col]')].map((td) => [td.getAttribute('data-col'), (td.querySelector('.value') ?? td).textContent!.trim()]),
        ),
      })),
    );
}

/** Each row's figures are the API's counts for the same filters plus that owner. */
function expectRowsMatchApi(rows: ShownRow[], filters: string, column: 'target_url_agency_owner' | 'target_url_bureau_owner'): void {
  for (const row of rows.filter((r) => r.owner !== '')) {
    const owner = `${filters ? `${filters}&` : ''}${column}=${encodeURIComponent(row.owner)}`;
    const sites = total(owner);
    expect(row.cells.sites, row.owner).toBe(formatCount(sites));
    expect(row.cells.live, row.owner).toBe(percent(total(`${owner}&final_url_live=true`), sites));
    expect(row.cells.dap, row.owner).toBe(percent(total(`${owner}&dap_detected_final_url=true`), sites));
    expect(row.cells.completed, row.owner).toBe(percent(total(`${owner}&scan_status=completed`), sites));
    const where = [...new URLSearchParams(owner)].map(([k]) => `"${k}" = ?`).join(' AND ');
    const values = [...new URLSearchParams(owner)].map(([, v]) => (v === 'true' ? '1' : v));
    expect(row.cells.uswds, row.owner).toBe(percent(sqlCount(`${where} AND ds_usa_classes > 0`, values), sites));
    expect(row.cells.banner, row.owner).toBe(percent(sqlCount(`${where} AND ds_banner_heres_how = 1`, values), sites));
  }
}

describe('website roll-ups', () => {
  it('rolls up every agency with the API’s counts, largest first', async () => {
    await waitForRendered(page, 'websites-view', '/websites?page=1&limit=25');
    await waitForRollup('target_url_agency_owner|');
    const rows = await shownRows();
    expect(rows.length).toBe(engineJson<AnalysisResponse>(engine, '/analysis').body.totalAgencies);
    expectRowsMatchApi(rows, '', 'target_url_agency_owner');
    const sites = rows.map((r) => Number(r.cells.sites.replaceAll(',', '')));
    expect(sites).toEqual([...sites].sort((a, b) => b - a));
    expect(await view().locator('#rollup-table tfoot td[data-col="sites"]').textContent()).toBe(formatCount(total('')));
  });

  it('sorts by a share; the order is in the hash', async () => {
    await view().locator('#rollup-table thead').getByRole('button', { name: '% DAP' }).click();
    await page.waitForFunction(() => location.hash.includes('rollup_order=dap'));
    const shares = (await shownRows()).map((r) => parseFloat(r.cells.dap));
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
    expect(await view().locator('#rollup-table thead th[aria-sort="descending"]').textContent()).toContain('% DAP');
  });

  it('a click on an agency filters the list to it and drills down to its bureaus', async () => {
    const first = (await shownRows()).find((r) => r.owner !== '')!.owner;
    await view().locator(`#rollup-table tbody tr[data-owner="${first}"] td.name button`).click();
    const filters = `target_url_agency_owner=${encodeURIComponent(first)}`;
    await waitForRollup(`target_url_bureau_owner|${filters}`);
    expect(await currentHash(page)).toBe(`#/websites?target_url_agency_owner=${first}&group_by=target_url_bureau_owner`);
    await waitForRendered(page, 'websites-view', `/websites?${filters}&page=1&limit=25`);
    expect(await view().locator('#websites-table tbody tr').count()).toBe(Math.min(25, total(filters)));
    const rows = await shownRows();
    expect(rows.reduce((n, r) => n + Number(r.cells.sites.replaceAll(',', '')), 0)).toBe(total(filters));
    expectRowsMatchApi(rows, filters, 'target_url_bureau_owner');
    // Back up a level: every agency again, unfiltered.
    await view().getByRole('button', { name: 'Roll up by agency' }).click();
    await waitForRollup('target_url_agency_owner|');
  });

  for (const width of [1280, 390]) {
    it(`has no serious axe violations at ${width} px`, async () => {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
      await page.goto(`${inject('baseUrl')}/#/websites?scan_status=completed`);
      await waitForRollup('target_url_agency_owner|scan_status=completed');
      await page.evaluate(() => new Promise(requestAnimationFrame));
      const violations = await seriousViolations(page);
      expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `workbench-rollups-${width}`);
    });
  }

  it('logged no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
