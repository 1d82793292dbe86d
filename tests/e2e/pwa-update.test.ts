/**
 * A new version is deployed: the open app offers "Update available — reload"; the new service worker waits
 * until the user accepts, then takes over, and the data is still there (no second download of it).
 */
import { dirname } from 'node:path';
import { NEXT_RELEASE } from '../../harness/browsers/build-app.ts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openOfflineReadyApp, pageFetch, servedBy, waitUntilControlled, type OfflineReadyApp } from '../../harness/browsers/pwa-helpers.ts';
import { waitForData } from '../../harness/browsers/app.ts';

let app: OfflineReadyApp;
/** The same app and data with one more shipped file: a new deployment whose service worker differs. */
let secondBuild: string;

beforeAll(async () => {
  const dataDir = inject('dataDir');
  secondBuild = inject('nextBuildDir');
  app = await openOfflineReadyApp(dirname(dataDir));
  expect((await pageFetch(app.browser.page, '/websites?limit=1')).status).toBe(200);
});

afterAll(() => app?.close());

describe('update flow', () => {
  it('offers the new version, waits for the user, then runs it with the data still there', async () => {
    const page = app.browser.page;
    app.server.reset();
    app.server.setRoot(secondBuild);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());

    const reload = page.getByRole('button', { name: 'Reload' });
    await reload.waitFor({ timeout: 60_000 });
    expect(await page.getByRole('region', { name: 'Update' }).textContent()).toContain('Update available');
    // Installed but not active: nothing changes until the user says so.
    expect(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())!.waiting)).toBe(true);

    // From here on, no network: the new version is already on the machine. The old one does not know the
    // new file, so it passes the request to the (absent) network.
    app.server.setOffline(true);
    await app.browser.context.setOffline(true);
    await expect(pageFetch(page, `/${NEXT_RELEASE.file}`)).rejects.toThrow();

    await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), reload.click()]);
    await waitUntilControlled(page);
    // The new page's DB worker has opened the data (and its relay bridge is set up): only then does the service
    // worker relay to it rather than answer with its own engine (a race CI lost once).
    await waitForData(page);
    expect(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())!.waiting)).toBe(false);

    // The new version: its own files from its precache, the data from the cache the old one filled.
    expect((await pageFetch(page, `/${NEXT_RELEASE.file}`)).body).toBe(NEXT_RELEASE.text);
    const before = (await servedBy(page)).relay;
    const answer = await pageFetch(page, '/websites?limit=2');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).items).toHaveLength(2);
    expect((await servedBy(page)).relay).toBe(before + 1);
    expect(app.server.log.filter((r) => r.path.startsWith('/data/') && r.status === 200 && /\.(gz|br)$/.test(r.path))).toEqual([]);
  });
});
