/**
 * Two weeks compared: two small weekly Site Scanning files imported through the dataset panel, compared,
 * and every added, removed and changed site checked against the reference read off the files by hand,
 * per agency and in the exported CSV; the choices live in the hash; axe and the phone width.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { resolve } from 'node:path';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { launchBrowser, collectPageErrors, type Browser } from '../../harness/browsers/browser.ts';
import { openApp, screenshot, seriousViolations } from '../../harness/browsers/app.ts';
import { EPA, GSA, NASA, WEEK1_TO_WEEK2 } from '../fixtures/week-diff.ts';
import { CAME_UP_DEFINITION, CHANGE_LABELS, LOST_DEFINITION, type ChangeKind } from '../../engine/site-scanning/week-diff.ts';
import { downloadedText } from '../../harness/browsers/browser.ts';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/import');
let browser: Browser;
let page: Page;
let errors: string[];
const ids: Record<string, string> = {};

async function importFile(name: string): Promise<void> {
  await page.locator('#import-file').setInputFiles(resolve(FIXTURES, name));
  const card = page.locator('import-status section[data-state="done"], import-status section[data-state="failed"]');
  await card.waitFor({ timeout: 60_000 });
  expect(await card.getAttribute('data-state')).toBe('done');
  await card.getByRole('button', { name: 'Dismiss' }).click();
}

async function waitForDiff(key: string): Promise<void> {
  await page.waitForFunction(
    (want) =>
      document
        .querySelector('app-shell')
        ?.shadowRoot?.querySelector('dataset-panel')
        ?.shadowRoot?.querySelector('snapshot-diff')
        ?.getAttribute('data-rendered-diff') === want,
    key,
    { timeout: 30_000, polling: 'raf' },
  );
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = browser.page;
  errors = collectPageErrors(page);
  await openApp(page, inject('baseUrl'), '#/datasets');
});

afterAll(async () => {
  await browser?.close();
});

const diff = () => page.locator('snapshot-diff');

describe('snapshot diff', () => {
  it('compares two imported weekly files: every change, per agency, as the reference says', async () => {
    await importFile('websites-week1.csv');
    await importFile('websites-week2.csv');
    const options = await diff()
      .locator('#diff-from option')
      .evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent ?? '' })));
    for (const name of ['websites-week1.csv', 'websites-week2.csv']) ids[name] = options.find((o) => o.text.includes(name))!.value;
    await diff().getByLabel('Before').selectOption(ids['websites-week1.csv']);
    await diff().getByLabel('After').selectOption(ids['websites-week2.csv']);
    const key = `${ids['websites-week1.csv']}|${ids['websites-week2.csv']}`;
    await waitForDiff(key);
    expect(await page.evaluate(() => location.hash)).toBe(`#/datasets?diff_from=${ids['websites-week1.csv']}&diff_to=${ids['websites-week2.csv']}`);

    expect(await diff().locator('[data-diff="before"]').textContent()).toBe('6');
    expect(await diff().locator('[data-diff="after"]').textContent()).toBe('7');
    const rows = await diff()
      .locator('#diff-changes tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [
          tr.getAttribute('data-change'),
          tr.getAttribute('data-url'),
          tr.children[2].textContent,
          tr.children[3].textContent,
          tr.children[4].textContent,
        ]),
      );
    expect(rows.map((r) => `${r[0]} ${r[1]}`).sort()).toEqual(WEEK1_TO_WEEK2.map(([k, u]) => `${k} ${u}`).sort());
    for (const [kind, url, agency, before, after, bureau] of WEEK1_TO_WEEK2) {
      expect(rows).toContainEqual([kind, url, agency, bureau ?? '—', before ? `${before} → ${after}` : '']);
    }
    // Per agency: the reference's counts.
    const perAgency = new Map<string, Map<string, number>>();
    for (const [kind, , agency] of WEEK1_TO_WEEK2) {
      const m = perAgency.get(agency) ?? new Map<string, number>();
      m.set(kind, (m.get(kind) ?? 0) + 1);
      perAgency.set(agency, m);
    }
    for (const [agency, counts] of perAgency) {
      for (const [kind, n] of counts) {
        expect(await diff().locator(`#diff-groups tr[data-group="${agency}"] td[data-kind="${kind}"]`).textContent()).toBe(String(n));
      }
    }
    for (const kind of Object.keys(CHANGE_LABELS) as ChangeKind[]) {
      expect(await diff().locator(`[data-total="${kind}"]`).textContent()).toBe(String(WEEK1_TO_WEEK2.filter(([k]) => k === kind).length));
    }
  });

  it('says what "lost" and "came up" count, and sorts the agencies by each column', async () => {
    expect(await diff().locator('#lost-definition').textContent()).toBe(LOST_DEFINITION);
    expect(await diff().locator('#came-up-definition').textContent()).toBe(CAME_UP_DEFINITION);
    const order = () =>
      diff()
        .locator('#diff-groups tbody tr')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-group')));
    // Most live sites lost first, ties by name.
    expect(await order()).toEqual([GSA, EPA, NASA]);
    await diff().locator('th button[data-sort="name"]').click();
    expect(await order()).toEqual([EPA, GSA, NASA]);
    expect(await diff().locator('th:has(button[data-sort="name"])').getAttribute('aria-sort')).toBe('ascending');
    await diff().locator('th button[data-sort="name"]').click();
    expect(await order()).toEqual([NASA, GSA, EPA]);
    await diff().locator('th button[data-sort="added"]').click();
    expect(await order()).toEqual([EPA, NASA, GSA]);
  });

  it('exports the counts by agency as CSV, in the order shown, with the weeks as header rows', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), diff().getByRole('button', { name: 'Export counts by agency as CSV' }).click()]);
    const rows = Papa.parse<string[]>(await downloadedText(download), { skipEmptyLines: true }).data;
    expect(rows[0][0]).toBe('Before');
    expect(rows[0][1]).toContain('websites-week1.csv');
    expect(rows[1][1]).toContain('websites-week2.csv');
    expect(rows.find((r) => r[0] === 'Source before')?.[1]).toBe('Your file: websites-week1.csv');
    const header = rows.findIndex((r) => r[0] === 'Agency');
    expect(rows[header]).toEqual(['Agency', ...Object.values(CHANGE_LABELS)]);
    expect(rows.slice(header + 1).map((r) => r[0])).toEqual([EPA, NASA, GSA]);
    expect(rows.find((r) => r[0] === GSA)?.[rows[header].indexOf(CHANGE_LABELS.lost)]).toBe('1');
  });

  it('exports the changes as CSV', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), diff().getByRole('button', { name: 'Export changes as CSV' }).click()]);
    const rows = Papa.parse<string[]>(await downloadedText(download), { skipEmptyLines: true }).data;
    expect(rows[0][0]).toBe('Before');
    expect(rows[0][1]).toContain('websites-week1.csv');
    const header = rows.findIndex((r) => r[0] === 'Change');
    expect(rows[header]).toEqual(['Change', 'Target URL', 'Agency', 'Bureau', 'Before', 'After']);
    const body = rows.slice(header + 1);
    expect(body.length).toBe(WEEK1_TO_WEEK2.length);
    for (const [kind, url, agency, before, after, bureau] of WEEK1_TO_WEEK2)
      expect(body).toContainEqual([CHANGE_LABELS[kind as ChangeKind], url, agency, bureau ?? '', before, after]);
  });

  for (const width of [1280, 390]) {
    it(`has no serious axe violations at ${width} px`, async () => {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
      await page.goto(`${inject('baseUrl')}/#/datasets?diff_from=${ids['websites-week1.csv']}&diff_to=${ids['websites-week2.csv']}`);
      await waitForDiff(`${ids['websites-week1.csv']}|${ids['websites-week2.csv']}`);
      await page.evaluate(() => new Promise(requestAnimationFrame));
      const violations = await seriousViolations(page);
      expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `workbench-diff-${width}`);
      await diff().screenshot({ path: resolve(import.meta.dirname, `../../.tmp/screenshots/workbench-diff-panel-${width}.png`) });
    });
  }

  it('logged no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
