/**
 * Issue 7: hostile records in every view. The built app is served with datasets holding every payload of
 * tools/generate/hostile.ts; the test goes through the rates table, the search suggestions, the CSV export,
 * the websites table and its pickers, the detail page of every hostile website (chips, nested values,
 * links) and the API console. It fails if any payload runs (the marker binding or a dialog), if the page
 * breaks its Content Security Policy, if a `javascript:`/`data:` link is live, or if a payload is not
 * shown as the exact text it is.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser, downloadedText } from '../../harness/browsers/browser.ts';
import { waitForData, waitForRendered } from '../../harness/browsers/app.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { waitUntilControlled } from '../../harness/browsers/pwa-helpers.ts';
import { buildHostileSite } from './hardening-site.ts';
import { liveCodeLinks, scanDom, watchContext, watchPage, type Watch } from './hardening-watch.ts';
import { HOSTILE_PAYLOADS, hostilePayload, hostileWebsites } from '../../tools/generate/hostile.ts';

let browser: Browser;
let page: Page;
let server: StaticServer;
let watch: Watch;

/** Payloads whose markup would become elements if any view parsed text as HTML. */
const MARKUP = ['img-onerror', 'script', 'svg-onload', 'iframe-srcdoc', 'details-ontoggle', 'textarea-break', 'javascript-url', 'css-url'].map(
  (name) => hostilePayload(name).text,
);

beforeAll(async () => {
  const site = await buildHostileSite(inject('dataDir'), '.tmp/hardening-hostile');
  server = await startStaticServer(site.root);
  browser = await launchBrowser();
  page = browser.page;
  watch = await watchContext(browser.context);
  watchPage(page, watch);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Nothing ran, nothing was blocked, nothing threw, no link runs code, no payload became an element. */
async function expectInert(where: string): Promise<string> {
  const scan = await scanDom(page);
  expect(watch.executed, `${where}: payloads executed`).toEqual([]);
  expect(watch.cspViolations, `${where}: CSP violations`).toEqual([]);
  expect(watch.pageErrors, `${where}: page errors`).toEqual([]);
  expect(scan.handlerAttributes, `${where}: inline handlers`).toEqual([]);
  expect(scan.activeElements, `${where}: iframes, objects, inline scripts`).toEqual([]);
  expect(scan.images, `${where}: images`).toEqual([]);
  expect(liveCodeLinks(scan.links), `${where}: links that run code`).toEqual([]);
  return scan.text;
}

describe('hostile records in every view', () => {
  it('the rates table shows every payload as text', async () => {
    await page.goto(`${server.origin}/#/rates?page_size=300`);
    await waitForData(page);
    await waitForRendered(page, 'rates-view', '/api/v3/search/ceilingrates/?page_size=300');
    const text = await expectInert('rates table');
    for (const payload of MARKUP) expect(text).toContain(payload);
    // The table's labor category cells hold the payloads exactly, one per hostile rate.
    const cells = await page
      .locator('rates-table td.labor')
      .evaluateAll((tds) => tds.flatMap((td) => [...td.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '')));
    for (const { name, text: payload } of HOSTILE_PAYLOADS) expect(cells, name).toContain(payload);
  });

  it('search suggestions list hostile values as text', async () => {
    const search = page.getByRole('combobox', { name: 'Search labor categories, vendors or contracts' });
    for (const typed of ['onerror', 'script', 'javascript']) {
      await search.fill(typed);
      // An option holding the typed text (the list of the previous text may still be open until then).
      await page.getByRole('option').filter({ hasText: typed }).first().waitFor();
      await expectInert(`suggestions for ${typed}`);
    }
    // Picking a suggestion searches that exact hostile value.
    await search.fill('onerror');
    await page.getByRole('option').filter({ hasText: `onerror=__hostile('img-onerror')` }).first().click();
    await page.waitForFunction(() => decodeURIComponent(location.hash).includes("__hostile('img-onerror')"));
    await expectInert('search by a picked hostile value');
  });

  it('the CSV export holds the payloads as quoted text, no cell starting a formula', async () => {
    await page.goto(`${server.origin}/#/rates?page_size=300`);
    await waitForRendered(page, 'rates-view', '/api/v3/search/ceilingrates/?page_size=300');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = await downloadedText(download);
    const parsed = Papa.parse<string[]>(csv, { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const header = parsed.data.findIndex((row) => row[0] === 'Contract #');
    expect(header).toBeGreaterThan(-1);
    const cells = parsed.data.slice(header + 1).flat();
    // the API's guard list; see docs/decisions/0600 on a leading tab or CR.
    expect(cells.filter((c) => /^[=+\-@|]/.test(c))).toEqual([]);
    for (const payload of MARKUP) expect(cells).toContain(payload);
    await expectInert('CSV export');
  });

  it('the websites table and its agency and bureau pickers show payloads as text', async () => {
    await page.goto(`${server.origin}/#/websites?limit=100`);
    await waitForRendered(page, 'websites-view', '/websites?page=1&limit=100');
    const text = await expectInert('websites table');
    for (const payload of MARKUP) expect(text).toContain(payload);
    const agencies = await page.locator('#f-agency option').allTextContents();
    expect(agencies.some((a) => a.includes(hostilePayload('img-onerror').text))).toBe(true);
    const targets = await page.locator('#websites-table a').allTextContents();
    for (const record of hostileWebsites()) expect(targets).toContain(record.target_url);
  });

  it('every hostile website detail shows each field exactly, chips and links inert', async () => {
    const records = hostileWebsites();
    for (const record of records) {
      const hash = `#/websites/${encodeURIComponent(record.target_url)}`;
      await page.evaluate((h) => (location.hash = h), hash);
      const fields = page.locator('website-detail #website-fields');
      await fields.waitFor();
      await page.waitForFunction(
        (want) =>
          document.querySelector('app-shell')?.shadowRoot?.querySelector('website-detail')?.shadowRoot?.querySelector('[data-field="target_url"]')
            ?.textContent === want,
        record.target_url,
      );
      const shown = await page
        .locator('website-detail dd[data-field]')
        .evaluateAll((dds) => Object.fromEntries(dds.map((dd) => [dd.getAttribute('data-field'), dd.textContent ?? ''])));
      for (const field of ['og_title_final_url', 'og_description_final_url', 'cms', 'target_url_agency_owner', 'final_url', 'final_url_MIMEType'] as const) {
        expect(shown[field], `${record.target_url} ${field}`).toBe(record[field]);
      }
      const chips = await page.locator('website-detail [data-field="ds_usa_class_list"] li').allTextContents();
      expect(chips).toEqual(record.ds_usa_class_list);
      await expectInert(`detail of ${record.target_url}`);
    }
  });

  it('the API console shows a hostile answer as text, through the service worker', async () => {
    await page.goto(`${server.origin}/#/rates`);
    await waitUntilControlled(page);
    const request = `/websites?target_url_domain=hostile.example.gov&limit=100`;
    await page.goto(`${server.origin}/#/console?request=${encodeURIComponent(request)}`);
    await page.locator('api-console form').first().waitFor();
    await page.getByRole('button', { name: 'Send' }).click();
    const body = page.locator('api-console [data-testid="response-body"]');
    await body.waitFor();
    const text = (await body.textContent()) ?? '';
    expect(await page.locator('api-console [data-testid="response-status"]').textContent()).toMatch(/^200/);
    // The body is the JSON text: payloads appear with JSON's own escapes (`"` as `\"`), as characters.
    for (const payload of MARKUP) expect(text).toContain(JSON.stringify(payload).slice(1, -1));
    await expectInert('API console');
  });

  it('reports the counts', () => {
    const websites = hostileWebsites().length;
    console.log(
      `hardening: ${HOSTILE_PAYLOADS.length} payloads (${websites} hostile websites, ${HOSTILE_PAYLOADS.length} hostile rates); executed ${watch.executed.length}, CSP violations ${watch.cspViolations.length}`,
    );
    expect(watch.executed).toEqual([]);
  });
});
