/**
 * Bring your own data in the real app: a file picked or dropped is imported in the DB worker, answers the
 * API (fetch through the service worker), survives a reload offline and answers with no app window open;
 * a broken file, a cancel, a reload halfway and a second tab importing leave the active
 * dataset as it was; the dataset panel switches between the built-in and imported datasets and deletes.
 */
import { pageUntil } from '../../harness/browsers/page-until.ts';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../../harness/browsers/browser.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { openAppUntilOfflineReady, pageFetch, servedBy } from '../../harness/browsers/pwa-helpers.ts';
import { snapshotLines } from '../../tools/make-snapshot.ts';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/import');
const BIG_FILE = resolve(import.meta.dirname, '../../.tmp/import-e2e/snapshot-20000.csv');
const VA = `/websites?target_url_agency_owner=${encodeURIComponent('Department of Veterans Affairs')}&limit=100`;
const RATES = '/api/v3/search/ceilingrates/?page_size=1';

let server: StaticServer;
let browser: Browser;
let page: Page;

interface WebsitesBody {
  items: { target_url: string }[];
  meta: { totalItems: number };
}

async function vaSites(p: Page): Promise<string[]> {
  const answer = await pageFetch(p, VA);
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as WebsitesBody).items.map((item) => item.target_url).sort();
}

async function ratesCount(p: Page): Promise<number> {
  const answer = await pageFetch(p, RATES);
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { hits: { total: { value: number } } }).hits.total.value;
}

/** Pick a file with the dataset panel's button and wait for the import's outcome card. */
async function pickFile(p: Page, path: string): Promise<{ state: string; code: string; message: string }> {
  await p.locator('#import-file').setInputFiles(path);
  return outcome(p);
}

async function outcome(p: Page): Promise<{ state: string; code: string; message: string }> {
  const card = p.locator('import-status section[data-state="done"], import-status section[data-state="failed"]');
  await card.waitFor({ timeout: 60_000 });
  const result = {
    state: (await card.getAttribute('data-state')) ?? '',
    code: (await card.getAttribute('data-code')) ?? '',
    message: (await card.locator('[data-message]').textContent())?.trim() ?? '',
  };
  await card.getByRole('button', { name: 'Dismiss' }).click();
  return result;
}

/** The dataset panel's list: per API, the choices in order and the active one. */
async function choices(p: Page): Promise<Record<string, { active: string | null; imports: string[] }>> {
  return p.evaluate(async () => {
    const shell = document.querySelector('app-shell') as HTMLElement & {
      db: { datasetChoices(): Promise<{ dataset: string; active: string | null; imports: { id: string; fileName: string }[] }[]> };
    };
    const all = await shell.db.datasetChoices();
    return Object.fromEntries(
      all.map((c) => [
        c.dataset,
        { active: c.active === null ? null : (c.imports.find((i) => i.id === c.active)?.fileName ?? c.active), imports: c.imports.map((i) => i.fileName) },
      ]),
    );
  });
}

async function importLockFree(p: Page): Promise<void> {
  await pageUntil(
    p,
    async () => !(await navigator.locks.query()).held?.some((lock) => lock.name === 'offline-gov-api-import'),
    null,
    'the import lock is free',
  );
}

async function openPanel(p: Page): Promise<void> {
  await p.goto(`${server.origin}/#/datasets`);
  await p.locator('dataset-choices section[data-choices="websites"]').waitFor();
}

let builtInVa: string[];
let builtInRates: number;

beforeAll(async () => {
  const distDir = dirname(inject('dataDir'));
  mkdirSync(dirname(BIG_FILE), { recursive: true });
  writeFileSync(BIG_FILE, [...snapshotLines(20_000, 7)].join('\r\n') + '\r\n');
  server = await startStaticServer(distDir);
  browser = await launchBrowser();
  page = browser.page;
  page.on('dialog', (dialog) => void dialog.accept());
  await openAppUntilOfflineReady(page, server.origin);
  builtInVa = await vaSites(page);
  builtInRates = await ratesCount(page);
  expect(builtInVa.length).toBeGreaterThan(2);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('files that must change nothing', () => {
  it.each([
    ['truncated-row.csv', 'truncated', /cut short|truncated/i],
    ['truncated.json', 'truncated', /truncated|stops|ends/i],
    ['wrong-format.txt', 'wrong-format', /.+/],
    ['no-valid-rows.csv', 'no-valid-rows', /None of its|no data rows/i],
  ])('%s: clear message, the built-in dataset still answers', async (file, code, text) => {
    await openPanel(page);
    const result = await pickFile(page, join(FIXTURES, file));
    expect(result).toMatchObject({ state: 'failed', code });
    expect(result.message).toMatch(text);
    expect(result.message).toMatch(/Nothing was changed/);
    expect(await vaSites(page)).toEqual(builtInVa);
    expect(await choices(page)).toEqual({ websites: { active: null, imports: [] }, ceilingrates: { active: null, imports: [] } });
  });
});

describe('an imported snapshot', () => {
  it('is dropped on the app, reported, and answers the API', async () => {
    await page.goto(`${server.origin}/#/websites`);
    const bytes = readFileSync(join(FIXTURES, 'websites-current.csv')).toString('base64');
    // A real drag of a file from the desktop: the same events with a DataTransfer holding a File.
    await page.evaluate((base64) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], 'site-scanning-latest.csv', { type: 'text/csv' }));
      window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      (window as unknown as { __transfer: DataTransfer }).__transfer = transfer;
    }, bytes);
    await page.locator('import-drop-zone [data-drop-zone]').waitFor();
    await page.evaluate(() => {
      const transfer = (window as unknown as { __transfer: DataTransfer }).__transfer;
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    const card = page.locator('import-status section[data-state="done"]');
    await card.waitFor({ timeout: 60_000 });
    expect(await page.locator('import-drop-zone [data-drop-zone]').count()).toBe(0);
    expect(await card.locator('[data-imported]').getAttribute('data-imported')).toBe('5');
    expect(await card.locator('[data-rejected]').getAttribute('data-rejected')).toBe('3');
    expect(await card.locator('li[data-line="7"]').textContent()).toMatch(/Line 7: 4 fields where the header has 104/);
    await card.getByRole('button', { name: 'Dismiss' }).click();

    expect(await vaSites(page)).toEqual(['benefits.va.gov', 'old.va.gov']);
    // The websites view asked again: it lists the imported records.
    await page.waitForFunction(() => {
      const view = document.querySelector('app-shell')?.shadowRoot?.querySelector('websites-view');
      return !!view?.shadowRoot?.textContent?.includes('search.usa.gov');
    });
    expect(await choices(page)).toEqual({
      websites: { active: 'site-scanning-latest.csv', imports: ['site-scanning-latest.csv'] },
      ceilingrates: { active: null, imports: [] },
    });
  });

  // Before anything else opens the import store (the service worker's engine keeps it open, and storage
  // opened before the override keeps the quota it was given).
  it('a storage quota error: the import answers in this window, says it was not kept, and is gone after a reload', async () => {
    await openPanel(page);
    // The browser refuses the write as it does when the origin is over its quota. (CDP's
    // Storage.overrideQuotaForOrigin does not reach an IndexedDB that was already open in this browser, so
    // the refusal is injected into the DB worker's IndexedDB instead.)
    const worker = page.workers().find((w) => /db\.worker|worker-/.test(w.url()));
    expect(
      worker,
      page
        .workers()
        .map((w) => w.url())
        .join(),
    ).toBeDefined();
    await worker!.evaluate(() => {
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
        if (this.name === 'files') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return put.apply(this, args);
      };
    });
    const result = await pickFile(page, join(FIXTURES, 'ceilingrates-export.csv'));
    expect(result).toMatchObject({ state: 'done', code: 'quota' });
    expect(result.message).toMatch(/quota/);
    expect(result.message).toMatch(/until the app is reloaded/);
    expect(await ratesCount(page)).toBe(6);
    expect(await choices(page)).toEqual({
      websites: { active: 'site-scanning-latest.csv', imports: ['site-scanning-latest.csv'] },
      ceilingrates: { active: 'ceilingrates-export.csv', imports: ['ceilingrates-export.csv'] },
    });
    // A fresh DB worker, without the injected refusal: what was kept answers again.
    await page.reload();
    await page.waitForSelector('app-shell');
    expect(await ratesCount(page)).toBe(builtInRates);
    expect(await choices(page)).toEqual({
      websites: { active: 'site-scanning-latest.csv', imports: ['site-scanning-latest.csv'] },
      ceilingrates: { active: null, imports: [] },
    });
  });

  it('is still there after a reload offline, and with no app window open (service worker)', async () => {
    server.setOffline(true);
    await browser.context.setOffline(true);
    try {
      await page.reload();
      await page.waitForSelector('app-shell');
      expect(await vaSites(page)).toEqual(['benefits.va.gov', 'old.va.gov']);

      for (const open of browser.context.pages()) await open.close();
      const plain = await browser.context.newPage();
      await plain.goto(`${server.origin}/playground.html`);
      await plain.waitForSelector('body[data-done]');
      const before = (await servedBy(plain))['service-worker'];
      expect(await vaSites(plain)).toEqual(['benefits.va.gov', 'old.va.gov']);
      expect((await servedBy(plain))['service-worker']).toBeGreaterThan(before);
      await plain.close();
    } finally {
      server.setOffline(false);
      await browser.context.setOffline(false);
    }
    page = await browser.context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await openPanel(page);
  });
});

describe('an import that is stopped', () => {
  it('cancel halfway leaves the active import', async () => {
    await openPanel(page);
    await page.locator('#import-file').setInputFiles(BIG_FILE);
    await page.locator('import-status section[data-state="running"] [data-progress-bytes]').waitFor();
    await page.locator('import-status').getByRole('button', { name: 'Cancel' }).click();
    const result = await outcome(page);
    expect(result).toMatchObject({ state: 'failed', code: 'cancelled' });
    expect(result.message).toMatch(/cancelled/i);
    expect(await vaSites(page)).toEqual(['benefits.va.gov', 'old.va.gov']);
    expect((await choices(page)).websites.imports).toEqual(['site-scanning-latest.csv']);
  });

  it('a second tab importing at the same time is told, and the first one wins', async () => {
    await openPanel(page);
    await importLockFree(page);
    const other = await browser.context.newPage();
    await openPanel(other);
    await other.locator('#import-file').setInputFiles(BIG_FILE);
    // The other tab's DB worker holds the origin's import lock while it imports.
    await pageUntil(
      page,
      async () => !!(await navigator.locks.query()).held?.some((lock) => lock.name === 'offline-gov-api-import'),
      null,
      'the other tab holds the import lock',
      {
        timeoutMs: 30_000,
        pollMs: 50,
      },
    );
    const second = await pickFile(page, join(FIXTURES, 'ceilingrates-export.csv'));
    expect(second).toMatchObject({ state: 'failed', code: 'busy' });
    expect(second.message).toMatch(/Another tab/);
    const first = await outcome(other);
    expect(first).toMatchObject({ state: 'done', code: 'ok' });
    await other.close();
    expect(await ratesCount(page)).toBe(builtInRates);
    expect((await choices(page)).websites.active).toBe('snapshot-20000.csv');
    // Back to the first import for the tests that follow.
    const websites = page.locator('dataset-choices section[data-choices="websites"]');
    await openPanel(page);
    await websites.getByRole('button', { name: 'Delete snapshot-20000.csv' }).click();
    await websites.locator('li[aria-current="true"][data-choice="built-in"]').waitFor();
    await websites.getByRole('button', { name: 'Use site-scanning-latest.csv' }).click();
    await websites.locator('li[aria-current="true"]', { hasText: 'site-scanning-latest.csv' }).waitFor();
    expect(await vaSites(page)).toEqual(['benefits.va.gov', 'old.va.gov']);
  });
});

describe('the dataset panel', () => {
  it('switches between the built-in and an imported dataset, and deletes the active import', async () => {
    await openPanel(page);
    const imported = await pickFile(page, join(FIXTURES, 'ceilingrates-export.csv'));
    expect(imported.state).toBe('done');
    expect(await ratesCount(page)).toBe(6);

    const rates = page.locator('dataset-choices section[data-choices="ceilingrates"]');
    await rates.locator('li[aria-current="true"]', { hasText: 'ceilingrates-export.csv' }).waitFor();
    await rates.getByRole('button', { name: 'Use Built-in dataset' }).click();
    await rates.locator('li[aria-current="true"][data-choice="built-in"]').waitFor();
    expect(await ratesCount(page)).toBe(builtInRates);
    expect((await choices(page)).ceilingrates.active).toBeNull();

    await rates.getByRole('button', { name: 'Use ceilingrates-export.csv' }).click();
    await rates.locator('li[aria-current="true"]', { hasText: 'ceilingrates-export.csv' }).waitFor();
    expect(await ratesCount(page)).toBe(6);

    // Deleting the active import falls back to the built-in dataset.
    const websites = page.locator('dataset-choices section[data-choices="websites"]');
    await websites.getByRole('button', { name: 'Delete site-scanning-latest.csv' }).click();
    await websites.locator('li[aria-current="true"][data-choice="built-in"]').waitFor();
    expect(await vaSites(page)).toEqual(builtInVa);
    expect(await choices(page)).toEqual({
      websites: { active: null, imports: [] },
      ceilingrates: { active: 'ceilingrates-export.csv', imports: ['ceilingrates-export.csv'] },
    });

    // After a reload the choice holds.
    await page.reload();
    await page.waitForSelector('app-shell');
    expect(await ratesCount(page)).toBe(6);
    expect(await vaSites(page)).toEqual(builtInVa);
  });
});

describe('a reload halfway', () => {
  // Last: the reloaded page's DB worker may run on for a moment before it notices and stops.
  it('leaves the active datasets as they were, and stores nothing', async () => {
    await openPanel(page);
    const before = await choices(page);
    await page.locator('#import-file').setInputFiles(BIG_FILE);
    await page.locator('import-status section[data-state="running"] [data-progress-bytes]').waitFor();
    await page.reload();
    await page.waitForSelector('app-shell');
    await importLockFree(page);
    expect(await choices(page)).toEqual(before);
    expect(await vaSites(page)).toEqual(builtInVa);
    expect(await ratesCount(page)).toBe(6);
  });
});
