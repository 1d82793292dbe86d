/**
 * Every week, offline, through fetch(): a build whose extras hold the weeks attachment (the real fixture of the 17
 * weeks, harness/real-fixtures.ts, as the default build ships them). The user loads the weeks once; with no network the page's fetch()
 * answers /snapshots/2025-03-17/analysis (and the week's list and a site) exactly as the engine over that week's own
 * import, with the app window and without one (the service worker's engine); the Websites list still answers its own
 * dataset (loading the weeks switched nothing); and the app compares two weeks as the comparison of their imports.
 */
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MANIFEST_FILE } from '../../dataset/artifact/format.ts';
import { manifestVersion } from '../../dataset/artifact/manifest.ts';
import { createEngine, type Engine } from '../../engine/index.ts';
import { loadSqlJs } from '../../adapters/node/datasets/sqljs-node.ts';
import { diffWeeks, websitesSites } from '../../engine/site-scanning/week-diff.ts';
import { formatCount } from '../../ui/components/common/format.ts';
import { shippedWeeks } from '../../tools/site-scanning-source/shipped-weeks.ts';
import { realWeek } from '../../harness/real-fixtures.ts';
import { writeWeeksExtra } from '../../harness/weeks-fixture.ts';
import { assemblePublicDir, buildApp } from '../../harness/browsers/build-app.ts';
import { openOfflineReadyApp, pageFetch, readManifestFile, servedBy, type OfflineReadyApp } from '../../harness/browsers/pwa-helpers.ts';
import { pageUntil } from '../../harness/browsers/page-until.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const WORK = resolve(ROOT, '.tmp/e2e-pwa-weeks');
const MARCH = '2025-03-17';
const NEWEST = '2025-06-09';

let app: OfflineReadyApp;
let march: Engine;
let ownCount: number;

/** The small build's data with the weeks attachment added (the real weeks), and the app built over it. */
async function buildWithWeeks(smallData: string): Promise<string> {
  rmSync(WORK, { recursive: true, force: true });
  const dataDir = join(WORK, 'data');
  cpSync(smallData, dataDir, { recursive: true });
  const manifest = readManifestFile(dataDir);
  manifest.extras = [...(manifest.extras ?? []), await writeWeeksExtra(await loadSqlJs(), dataDir, 'Every week of Site Scanning (real)')];
  manifest.version = await manifestVersion(manifest);
  writeFileSync(join(dataDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
  ownCount = Object.values(manifest.datasets.websites!.rows).reduce((n, r) => n + r, 0);
  const publicDir = join(WORK, 'public');
  const outDir = join(WORK, 'dist');
  assemblePublicDir(publicDir, dataDir);
  await buildApp({ outDir, publicDir });
  return outDir;
}

beforeAll(async () => {
  const distDir = await buildWithWeeks(inject('dataDir'));
  march = createEngine();
  march.use('websites', (await realWeek(await loadSqlJs(), MARCH)).db, null, MARCH);
  app = await openOfflineReadyApp(distDir);
}, 900_000);

afterAll(() => app?.close());

const comparable = (body: string): string => body.replace(/^\{"took":\d+,/, '{"took":0,');
const PATHS = ['/analysis', '/websites?limit=5&page=30', '/websites/usa.gov'];

describe('every week through fetch()', () => {
  it('loads the weeks once, without switching the active dataset', async () => {
    const page = app.browser.page;
    expect(JSON.parse((await pageFetch(page, '/snapshots')).body)).toEqual({ snapshots: [] });
    await page.goto(`${app.server.origin}/#/weeks`);
    await page.getByRole('button', { name: /^Load every week/ }).click();
    await pageUntil(page, async () => (await (await fetch('/snapshots')).json()).snapshots.length === 17, null, 'the weeks are loaded', { timeoutMs: 180_000 });
    expect(JSON.parse((await pageFetch(page, '/snapshots')).body).snapshots.map((w: { date: string }) => w.date)).toEqual(
      shippedWeeks().weeks.map((w) => w.date),
    );
    expect(JSON.parse((await pageFetch(page, '/analysis')).body).total).toBe(ownCount);
  });

  it('compares two weeks in the app as the comparison of their imports does', async () => {
    const june = (await realWeek(await loadSqlJs(), NEWEST)).db;
    const { totals } = diffWeeks(websitesSites(march.database('websites')!), websitesSites(june));
    june.close();
    const page = app.browser.page;
    await page.goto(`${app.server.origin}/#/weeks?before=${MARCH}&after=${NEWEST}`);
    const shown = page.locator(`weeks-view[data-rendered-diff="${MARCH}|${NEWEST}||"]`);
    await shown.waitFor({ timeout: 120_000 });
    for (const kind of ['lost', 'came_up', 'added', 'removed'] as const) {
      expect(await shown.locator(`[data-total="${kind}"]`).textContent(), kind).toBe(formatCount(totals[kind]));
    }
  });

  it('answers a week with no network, as the engine over that week does', async () => {
    app.server.setOffline(true);
    await app.browser.context.setOffline(true);
    for (const path of PATHS) {
      const url = `/snapshots/${MARCH}${path}`;
      const answer = await pageFetch(app.browser.page, url);
      const expected = march.handle({ method: 'GET', url });
      expect({ status: answer.status, body: comparable(answer.body) }, url).toEqual({ status: expected.status, body: comparable(expected.body) });
    }
    expect(JSON.parse((await pageFetch(app.browser.page, `/snapshots/${MARCH}/analysis`)).body).total).toBe(34770);
    expect((await pageFetch(app.browser.page, '/snapshots/2025-03-10/analysis')).status).toBe(404);
  });

  it('answers it with no app window open (the service worker’s engine)', async () => {
    for (const page of app.browser.context.pages()) await page.close();
    const page = await app.browser.context.newPage();
    await page.goto(`${app.server.origin}/playground.html`);
    const before = (await servedBy(page))['service-worker'];
    const url = `/snapshots/${MARCH}/analysis`;
    const answer = await pageFetch(page, url);
    expect(comparable(answer.body)).toBe(comparable(march.handle({ method: 'GET', url }).body));
    expect((await servedBy(page))['service-worker']).toBe(before + 1);
  });
});
