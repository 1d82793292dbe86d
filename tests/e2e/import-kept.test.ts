/**
 * An import kept in each engine: a ceiling-rate CSV picked on the Datasets page is imported, answers a page's fetch()
 * at once, and is still the active dataset after a reload (IndexedDB holds it as gzip'd bytes: WebKit refuses Blob
 * values). Chromium and Firefox here, through the driver interface; WebKit's is part of webkit-offline.test.ts, whose
 * later steps (offline, no window) answer from that import, so its browser is not launched twice.
 */
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { DRIVERS, type BrowserDriver } from '../../harness/browsers/browser-driver.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { pageFetch, waitUntilControlled } from '../../harness/browsers/pwa-helpers.ts';
import { importOutcome, pickFile } from './pick-file.ts';
import type { EvaluatingPage } from '../../harness/browsers/driver-page.ts';

const CSV = readFileSync(join(import.meta.dirname, '../fixtures/import/ceilingrates-export.csv'));
/** The rows of that file the import keeps. */
const IMPORTED_RATES = 6;

let server: StaticServer;
let driver: BrowserDriver | undefined;

beforeAll(async () => {
  server = await startStaticServer(dirname(inject('dataDir')));
});

afterEach(async () => {
  await driver?.close();
  driver = undefined;
});

afterAll(async () => {
  await server?.close();
});

async function ratesTotal(page: EvaluatingPage): Promise<number> {
  const answer = await pageFetch(page, '/api/v3/search/ceilingrates/?page_size=1');
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { hits: { total: { value: number } } }).hits.total.value;
}

describe.each(Object.entries(DRIVERS).filter(([name]) => name !== 'webkit'))('an import in %s', (_name, launch) => {
  it('is imported from a picked file, answers at once, and is kept across a reload', async () => {
    driver = await launch();
    const page = await driver.open(`${server.origin}/#/datasets`);
    await waitUntilControlled(page);
    await pickFile(page, '#import-file', { name: 'rates.csv', type: 'text/csv', bytes: CSV });
    expect(await importOutcome(page)).toMatchObject({ state: 'done', code: 'ok' });
    expect(await ratesTotal(page)).toBe(IMPORTED_RATES);
    await page.reload();
    expect(await ratesTotal(page)).toBe(IMPORTED_RATES);
  });
});
