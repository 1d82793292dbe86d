/**
 * Issue 41: the answer dialect as an app setting. The API console shows it and sets it; the service worker then
 * answers every API request of the origin in it (a page's own fetch() included), relayed or not, and keeps it
 * across a reload; set back, the interface's shape returns.
 */
import { dirname } from 'node:path';
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openOfflineReadyApp, pageFetch, waitUntilControlled, type OfflineReadyApp } from '../../harness/browsers/pwa-helpers.ts';

let app: OfflineReadyApp;

beforeAll(async () => {
  app = await openOfflineReadyApp(dirname(inject('dataDir')));
});

afterAll(() => app?.close());

const json = async (path: string) => JSON.parse((await pageFetch(app.browser.page, path)).body);
const SHOTS = process.env.DIALECT_SHOTS;

async function openConsole(): Promise<void> {
  await app.browser.page.goto(`${app.server.origin}/#/console?request=/websites%3Flimit%3D1`);
  await app.browser.page.locator('api-console [data-testid="dialect"]:not([disabled])').waitFor();
}

describe('the answer dialect setting', () => {
  it('the console shows the interface by default, and the APIs answer its shape', async () => {
    await openConsole();
    expect(await app.browser.page.locator('api-console [data-testid="dialect"]').inputValue()).toBe('interface');
    expect((await json('/websites?limit=1')).items[0]).toHaveProperty('target_url');
    expect((await json('/api/v3/search/ceilingrates/?page_size=1'))._shards.total).toBe(1);
  });

  it("set to production in the console, every API request of the page is answered in production's shape", async () => {
    await app.browser.page.locator('api-console [data-testid="dialect"]').selectOption('production');
    await expect.poll(async () => (await json('/websites?limit=1')).items[0]).toHaveProperty('initial_domain');
    const rates = await json('/acquisition/calc/v3/api/ceilingrates/?filter=security_clearance:yes&page_size=1');
    expect(rates._shards.total).toBe(5);
    expect(rates.hits.hits[0]._source.security_clearance).toBe(true);
    expect(rates.hits.hits[0]._source).toHaveProperty('data_source');
    expect(await app.browser.page.locator('api-console [data-testid="dialect-help"]').textContent()).toContain('production');
    // The app's OpenAPI files describe the production dialect's answers now.
    const document = await json('/openapi/site-scanning.json');
    expect(document.info.title).toContain('production dialect');
    expect(document.components.schemas.Website.properties).toHaveProperty('initial_domain');
    expect((await json('/openapi/ceiling-rates.json')).components.schemas.CeilingRate.properties).toHaveProperty('data_source');
    // The console's own Send goes through the same fetch().
    await app.browser.page.locator('api-console button[type="submit"]').click();
    await expect.poll(() => app.browser.page.locator('api-console [data-testid="response-body"]').textContent()).toContain('"initial_domain"');
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      for (const width of [1280, 390]) {
        await app.browser.page.setViewportSize({ width, height: 900 });
        await app.browser.page.screenshot({ path: `${SHOTS}/console-dialect-${width}.png` });
      }
      await app.browser.page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('is kept across a reload, and set back the interface returns', async () => {
    await app.browser.page.reload();
    await waitUntilControlled(app.browser.page);
    await openConsole();
    expect(await app.browser.page.locator('api-console [data-testid="dialect"]').inputValue()).toBe('production');
    expect((await json('/websites?limit=1')).items[0]).toHaveProperty('agency');
    await app.browser.page.locator('api-console [data-testid="dialect"]').selectOption('interface');
    await expect.poll(async () => (await json('/websites?limit=1')).items[0]).toHaveProperty('target_url');
    expect((await json('/openapi/site-scanning.json')).components.schemas.Website.properties).toHaveProperty('target_url');
    expect(app.errors).toEqual([]);
  });
});
