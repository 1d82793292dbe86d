/** <app-shell> alone, given the fake client: the view of the route, the load bar and its errors, navigation by keyboard. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatasetChoices, LoadProgress } from '../../../ui/api/db-client.ts';
import { currentHash, focused } from '../../../harness/browsers/app.ts';
import { loadedStatus, componentSessionPerFile, type FakeAnswers } from './component-session.ts';

const session = componentSessionPerFile();
let answers: FakeAnswers;

beforeAll(async () => {
  const choices: DatasetChoices[] = loadedStatus(session().manifest).datasets.map((d) => ({ dataset: d.name, active: null, imports: [] }));
  answers = {
    datasetChoices: () => choices,
    websiteOwners: () => [],
    websiteRollups: () => ({ ok: false, status: 503, message: 'not in this test' }),
  };
});

const page = () => session().page;
const mountAt = (hash: string) => session().mount('app-shell', { properties: { db: { $fakeDb: true } }, answers, hash });
const progress = (p: LoadProgress) => page().evaluate((report) => window.componentFixture!.progress(report), p);

describe('app-shell with a fake DB client', () => {
  it("draws the route's view, which asks the client the shell provides; the nav marks it", async () => {
    await mountAt('#/websites?limit=10');
    await expect.poll(() => page().locator('app-shell main websites-view').getAttribute('data-rendered-url')).toBe('/websites?page=1&limit=10');
    expect((await session().callsTo('getJson')).map(([u]) => u)).toContain('/websites?page=1&limit=10');
    expect(await page().locator('app-shell nav a[aria-current="page"]').getAttribute('href')).toBe('#/websites');
    expect(await page().title()).toBe('Websites · Offline Gov Data');
  });

  it('shows the load bar while the data loads, hides it when the load is done, and says why a load failed', async () => {
    await mountAt('#/datasets');
    await progress({ dataset: 'websites', phase: 'download', loaded: 40, total: 100 });
    const bars = () =>
      page()
        .locator('app-shell')
        .evaluate((shell) =>
          [...shell.shadowRoot!.querySelectorAll('load-progress')].map((l) => l.shadowRoot!.querySelector('progress')!).map((p) => [p.value, p.max]),
        );
    await expect.poll(bars).toEqual([[40, 100]]);
    await progress({ dataset: null, phase: 'ready', loaded: 100, total: 100 });
    await expect.poll(() => page().locator('load-progress').count()).toBe(0);
    await progress({ dataset: null, phase: 'error', loaded: 0, total: 100, message: 'the manifest could not be read' });
    await expect
      .poll(() => page().locator('app-shell > p.error, app-shell p.error[role="alert"]').first().textContent())
      .toBe('The data could not be loaded: the manifest could not be read');
  });

  it('says when a new version downloads only what changed, then applies it', async () => {
    await mountAt('#/datasets');
    const mb = 1024 * 1024;
    const line = page().locator('app-shell load-progress li[data-dataset="websites"]');
    await progress({
      dataset: 'websites',
      phase: 'download',
      loaded: mb,
      total: 2.7 * mb,
      datasets: { websites: { phase: 'download', received: mb, total: 2.7 * mb, resumedAt: null, patch: true } },
    });
    await expect.poll(() => line.textContent()).toBe('The websites are still on their way: Downloading only what changed, 1.0 of 2.7 MB.');
    await progress({
      dataset: 'websites',
      phase: 'decompress',
      loaded: 2.7 * mb,
      total: 2.7 * mb,
      datasets: { websites: { phase: 'decompress', received: 2.7 * mb, total: 2.7 * mb, resumedAt: null, patch: true } },
    });
    await expect.poll(() => line.textContent()).toBe('The websites are still on their way: Applying the changes.');
  });

  it('the first Tab reaches "Skip to content", which moves the focus to the view\'s heading', async () => {
    await mountAt('#/datasets');
    await expect.poll(() => page().locator('dataset-panel h1#view-title').count()).toBe(1);
    await page().keyboard.press('Tab');
    expect(await focused(page())).toMatchObject({ tag: 'a', text: 'Skip to content' });
    await page().keyboard.press('Enter');
    expect(await focused(page())).toMatchObject({ tag: 'h1', id: 'view-title', text: 'Datasets' });
  });

  it('Tab walks the nav links in order; Enter on one opens its view and moves the focus to its heading', async () => {
    await mountAt('#/datasets');
    await page().locator('app-shell nav a').first().focus();
    const links: string[] = [];
    for (let i = 0; i < 5; i++) {
      links.push((await focused(page())).text);
      if (i < 4) await page().keyboard.press('Tab');
    }
    expect(links).toEqual(['Ceiling ratesRates', 'WebsitesWebsites', 'Every weekWeeks', 'DatasetsDatasets', 'API consoleConsole']);
    await page().keyboard.press('Shift+Tab');
    await page().keyboard.press('Shift+Tab');
    await page().keyboard.press('Shift+Tab');
    await page().keyboard.press('Enter');
    await expect.poll(() => currentHash(page())).toBe('#/websites');
    await expect.poll(async () => (await focused(page())).id).toBe('view-title');
    expect(await focused(page())).toMatchObject({ tag: 'h1', text: 'Websites' });
  });
});
