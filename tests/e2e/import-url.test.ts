/**
 * Import by URL (`#/datasets?import=<url>`, the panel's address field): a local server on another port
 * stands in for the publishers' hosts. A good file with CORS becomes the active dataset and the websites view
 * answers from it; a slow one shows its progress and a cancel leaves the previous dataset; a 500 and a server
 * without CORS each give a clear message and change nothing. axe and both widths on the panel.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../../harness/browsers/browser.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { openAppUntilOfflineReady, pageFetch, readManifestFile } from '../../harness/browsers/pwa-helpers.ts';
import { currentHash, screenshot, seriousViolations } from '../../harness/browsers/app.ts';
import { OFFICIAL_SOURCES } from '../../ui/config/sources.ts';

const GOOD = readFileSync(resolve(import.meta.dirname, '../fixtures/import/websites-current.csv'));
const VA = `/websites?target_url_agency_owner=${encodeURIComponent('Department of Veterans Affairs')}&limit=100`;

let app: StaticServer;
let source: Server;
let sourceOrigin: string;
let browser: Browser;
let page: Page;
let builtInVa: string[];
/** Responses of the slow route still open, ended when the test is over. */
const slow = new Set<ServerResponse>();

/** The publishers' hosts: each route one way a download goes right or wrong. */
function startSourceServer(): Promise<Server> {
  const server = createServer((request, response) => {
    const cors = { 'access-control-allow-origin': '*' };
    switch (request.url) {
      case '/good/site-scanning.csv':
        response.writeHead(200, { ...cors, 'content-type': 'text/csv', 'content-length': GOOD.length });
        response.end(GOOD);
        return;
      case '/slow/site-scanning.csv': {
        // Announces 10 MB, then trickles the file's rows, again and again, and never ends.
        response.writeHead(200, { ...cors, 'content-type': 'text/csv', 'content-length': 10_000_000 });
        const header = GOOD.indexOf('\n') + 1;
        response.write(GOOD.subarray(0, header));
        slow.add(response);
        const timer = setInterval(() => response.write(GOOD.subarray(header)), 200);
        response.on('close', () => {
          clearInterval(timer);
          slow.delete(response);
        });
        return;
      }
      case '/broken/site-scanning.csv':
        response.writeHead(500, { ...cors, 'content-type': 'text/plain' });
        response.end('internal error');
        return;
      case '/no-cors/site-scanning.csv':
        response.writeHead(200, { 'content-type': 'text/csv', 'content-length': GOOD.length });
        response.end(GOOD);
        return;
      default:
        response.writeHead(404, cors);
        response.end();
    }
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

interface WebsitesBody {
  items: { target_url: string }[];
  meta: { totalItems: number };
}

async function websites(p: Page, url: string): Promise<WebsitesBody> {
  const answer = await pageFetch(p, url);
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body) as WebsitesBody;
}

async function vaSites(p: Page): Promise<string[]> {
  return (await websites(p, VA)).items.map((item) => item.target_url).sort();
}

async function activeWebsites(p: Page): Promise<{ active: string | null; imports: string[] }> {
  return p.evaluate(async () => {
    const shell = document.querySelector('app-shell') as HTMLElement & {
      db: { datasetChoices(): Promise<{ dataset: string; active: string | null; imports: { id: string; fileName: string }[] }[]> };
    };
    const choice = (await shell.db.datasetChoices()).find((c) => c.dataset === 'websites')!;
    return {
      active: choice.active === null ? null : (choice.imports.find((i) => i.id === choice.active)?.fileName ?? choice.active),
      imports: choice.imports.map((i) => i.fileName),
    };
  });
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

async function importByRoute(p: Page, path: string): Promise<void> {
  await p.goto(`${app.origin}/#/datasets?import=${encodeURIComponent(sourceOrigin + path)}`);
}

beforeAll(async () => {
  app = await startStaticServer(dirname(inject('dataDir')));
  source = await startSourceServer();
  sourceOrigin = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  page = browser.page;
  await openAppUntilOfflineReady(page, app.origin);
  builtInVa = await vaSites(page);
  expect(builtInVa.length).toBeGreaterThan(2);
});

afterAll(async () => {
  for (const response of slow) response.destroy();
  await browser?.close();
  await app?.close();
  await new Promise((done) => source?.close(done));
});

describe('downloads that must change nothing', () => {
  it('a server answering 500: the status in the message, the built-in dataset still answers', async () => {
    await importByRoute(page, '/broken/site-scanning.csv');
    const result = await outcome(page);
    expect(result).toMatchObject({ state: 'failed', code: 'fetch' });
    expect(result.message).toMatch(/answered 500/);
    expect(result.message).toMatch(/nothing was changed/);
    // The import left the address: a reload does not fetch it again.
    expect(await currentHash(page)).toBe('#/datasets');
    expect(await vaSites(page)).toEqual(builtInVa);
    expect(await activeWebsites(page)).toEqual({ active: null, imports: [] });
  });

  it('a server without CORS: says so and suggests downloading the file', async () => {
    await importByRoute(page, '/no-cors/site-scanning.csv');
    const result = await outcome(page);
    expect(result).toMatchObject({ state: 'failed', code: 'fetch' });
    expect(result.message).toMatch(/does not allow this app to read the file \(CORS\)/);
    expect(result.message).toMatch(/Download it and import the file instead/);
    expect(await vaSites(page)).toEqual(builtInVa);
    expect(await activeWebsites(page)).toEqual({ active: null, imports: [] });
  });

  it('a slow server: the progress shows bytes arriving, and Cancel leaves the previous dataset', async () => {
    await page.goto(`${app.origin}/#/datasets`);
    await page.locator('import-from-web input[name="url"]').fill(`${sourceOrigin}/slow/site-scanning.csv`);
    await page.locator('import-from-web').getByRole('button', { name: 'Import from address' }).click();
    const running = page.locator('import-status section[data-state="running"]');
    await running.waitFor();
    await expect
      .poll(async () => (await running.locator('[data-progress-bytes]').textContent()) ?? '', { timeout: 30_000 })
      .toMatch(/^(?!0 B)[\d.]+ (B|KB|MB) of 9\.5 MB/);
    await expect.poll(() => running.locator('progress').evaluate((el: HTMLProgressElement) => el.value)).toBeGreaterThan(0);
    await running.getByRole('button', { name: 'Cancel' }).click();
    const result = await outcome(page);
    expect(result).toMatchObject({ state: 'failed', code: 'cancelled' });
    expect(result.message).toMatch(/cancelled/i);
    expect(await vaSites(page)).toEqual(builtInVa);
    expect(await activeWebsites(page)).toEqual({ active: null, imports: [] });
  });
});

describe('a good file with CORS', () => {
  it('is imported, becomes the active dataset, and the websites view answers from it', async () => {
    await importByRoute(page, '/good/site-scanning.csv');
    const result = await outcome(page);
    expect(result).toMatchObject({ state: 'done', code: 'ok' });
    expect(await activeWebsites(page)).toEqual({ active: 'site-scanning.csv', imports: ['site-scanning.csv'] });
    // The API answers from the file: the same VA sites as when the file is picked (import.test.ts).
    expect(await vaSites(page)).toEqual(['benefits.va.gov', 'old.va.gov']);
    // The websites view lists the imported records.
    await page.goto(`${app.origin}/#/websites`);
    await page.waitForFunction(() => {
      const view = document.querySelector('app-shell')?.shadowRoot?.querySelector('websites-view');
      return !!view?.shadowRoot?.textContent?.includes('search.usa.gov');
    });
  });
});

describe('Update from source', () => {
  it('fetches the configured address (a stand-in answers for the public host) and makes it the active dataset', async () => {
    const [official] = OFFICIAL_SOURCES;
    const asked: string[] = [];
    await browser.context.route(official.url, (route) => {
      asked.push(route.request().url());
      return route.fulfill({ status: 200, headers: { 'access-control-allow-origin': '*', 'content-type': 'text/csv' }, body: GOOD });
    });
    try {
      await page.goto(`${app.origin}/#/datasets`);
      await page.locator('import-from-web button[data-source="websites"]').click();
      expect(await outcome(page)).toMatchObject({ state: 'done', code: 'ok' });
      expect(asked).toEqual([official.url]);
      const name = official.url.slice(official.url.lastIndexOf('/') + 1);
      expect((await activeWebsites(page)).active).toBe(name);
      expect(await vaSites(page)).toEqual(['benefits.va.gov', 'old.va.gov']);
    } finally {
      await browser.context.unroute(official.url);
    }
  });
});

describe('the dataset panel with the web import', () => {
  it.each([1280, 390])('has no serious axe violations at %i px (screenshot)', async (width) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${app.origin}/#/datasets`);
    await page.locator('import-from-web button[data-source="websites"]').waitFor();
    await page.locator('dataset-choices section[data-choices="websites"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `import-url-panel-${width}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

describe("the build's extra datasets, loaded on demand", () => {
  it('loads the real 2017 price list when asked, keeps it like an import and labels it real, not "your file"', async () => {
    const extra = readManifestFile(inject('dataDir')).extras?.find((e) => e.id === 'ceilingrates-s70-2017');
    expect(extra).toBeDefined();
    await page.goto(`${app.origin}/#/datasets`);
    const item = page.locator(`dataset-panel li[data-extra="${extra!.id}"]`);
    expect(await item.textContent()).toContain(extra!.source.label);
    await item.getByRole('button', { name: 'Load' }).click();
    expect(await outcome(page)).toMatchObject({ state: 'done', code: 'ok' });
    const answer = await pageFetch(page, '/api/v3/search/ceilingrates/?page_size=1');
    expect((JSON.parse(answer.body) as { hits: { total: { value: number } } }).hits.total.value).toBe(extra!.rows.ceilingrates);
    await page.goto(`${app.origin}/#/rates`);
    const badge = page.locator('rates-view source-badge a');
    await expect.poll(() => badge.getAttribute('data-source')).toBe('real');
    expect(await badge.textContent()).toContain('Real data');
    // Back to the build's rates for what follows.
    await page.evaluate(async () => {
      const shell = document.querySelector('app-shell') as HTMLElement & { db: { activateDataset(d: string, id: string | null): Promise<unknown> } };
      await shell.db.activateDataset('ceilingrates', null);
    });
  });
});
