/**
 * The README's MSW example in a browser (examples/msw-browser): a page of one's own, bundled as a prototype's
 * bundler would bundle it (the package's browser and msw entries, msw/browser), with MSW's service worker and the
 * files `copy-assets` writes, on a plain static host. The page's fetches of both APIs, relative and at production's
 * address, are answered by the engine in the page as the engine answers in Node.
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { copyAssets } from '../../adapters/node/commands/copy-assets.ts';
import { collectPageErrors, launchBrowser, type Browser } from '../../harness/browsers/browser.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { nodeEngine } from '../../harness/browsers/app.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = resolve(ROOT, 'examples/msw-browser');

let site: string;
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  site = mkdtempSync(join(tmpdir(), 'msw-browser-'));
  await copyAssets(inject('dataDir'), join(site, 'offline-gov-api'), () => {});
  copyFileSync(resolve(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'), join(site, 'mockServiceWorker.js'));
  copyFileSync(join(EXAMPLE, 'index.html'), join(site, 'index.html'));
  // The package's entries as its exports name them (built by the unit suite's setup or npm ci's prepare).
  await build({
    entryPoints: [join(EXAMPLE, 'main.js')],
    outfile: join(site, 'main.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
    alias: {
      'offline-gov-api/browser': resolve(ROOT, 'adapters/node/dist/browser.js'),
      'offline-gov-api/msw': resolve(ROOT, 'adapters/node/dist/msw.js'),
    },
  });
  server = await startStaticServer(site);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

it('answers both APIs in the page through MSW, as the engine answers in Node', async () => {
  const { page } = browser;
  const errors = collectPageErrors(page);
  await page.goto(`${server.origin}/`);
  await page.locator('#status', { hasText: 'ready' }).waitFor({ timeout: 60_000 });
  await page.locator('#rates:not(:empty)').waitFor();
  const { engine } = await nodeEngine(inject('dataDir'));
  const expected = (url: string): unknown => JSON.parse(engine.handle({ method: 'GET', url }).body);
  expect(JSON.parse((await page.locator('#sites').textContent())!)).toEqual(
    (expected('/websites?target_url_agency_owner=General%20Services%20Administration&limit=3') as { meta: unknown }).meta,
  );
  expect(JSON.parse((await page.locator('#rates').textContent())!)).toEqual(
    (expected('/api/v3/search/ceilingrates/?keyword=analyst&page_size=1') as { hits: { total: unknown } }).hits.total,
  );
  // Any other fetch of the page's own code is answered the same way.
  const answer = await page.evaluate(async () => {
    const response = await fetch('/analysis?final_url_live=true');
    return { status: response.status, body: (await response.json()) as unknown };
  });
  expect(answer).toEqual({ status: 200, body: expected('/analysis?final_url_live=true') });
  expect(errors).toEqual([]);
});
