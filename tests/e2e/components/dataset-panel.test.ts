/** <dataset-panel> alone: a card per dataset from the client's status, Reload and Reset, load progress, keyboard use. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatasetChoices, DbStatus } from '../../../ui/api/db-client.ts';
import { formatCount } from '../../../ui/components/common/format.ts';
import { focused } from '../../../harness/browsers/app.ts';
import { loadedStatus, componentSessionPerFile, type FakeAnswers } from './component-session.ts';

const session = componentSessionPerFile();
let status: DbStatus;
let answers: FakeAnswers;

beforeAll(async () => {
  status = loadedStatus(session().manifest);
  const choices: DatasetChoices[] = status.datasets.map((d) => ({ dataset: d.name, active: null, imports: [] }));
  answers = { datasetChoices: () => choices };
});

const page = () => session().page;
/** The panel's own message line (its children have status lines of their own). */
const message = () => page().locator('dataset-panel p[role="status"][aria-live="polite"]').textContent();
const card = (name: string) => page().locator(`section[data-dataset="${name}"]`);

describe('dataset-panel with a fake DB client', () => {
  it('draws one card per dataset of the status: version, counted rows, source', async () => {
    await session().mount('dataset-panel', { answers });
    await expect.poll(() => page().locator('section[data-dataset]').count()).toBe(status.datasets.length);
    for (const d of status.datasets) {
      expect(await card(d.name).locator('[data-field="version"]').textContent()).toBe(status.version);
      for (const [table, n] of Object.entries(d.rows)) expect(await card(d.name).locator(`[data-rows="${table}"]`).textContent()).toBe(formatCount(n));
      expect(await card(d.name).locator('[data-field="source"]').textContent()).toContain(d.source!.label);
      expect(await card(d.name).getByText('Loaded', { exact: true }).count()).toBe(1);
    }
    expect(session().errors).toEqual([]);
  });

  it('Reload asks the client to reload and says which version is loaded; a failed dataset is named', async () => {
    const failed: DbStatus = { ...status, datasets: status.datasets.map((d, i) => (i === 0 ? { ...d, loaded: false, error: 'checksum mismatch' } : d)) };
    let reloads = 0;
    await session().mount('dataset-panel', { answers: { ...answers, reload: () => (++reloads === 1 ? status : failed) } });
    const reload = page().getByRole('button', { name: 'Reload (fetch what changed)' });
    await reload.click();
    await expect.poll(() => message()).toBe(`Checked for new data: version ${status.version} is loaded.`);
    await reload.click();
    await expect.poll(() => message()).toBe(`Finished with errors: ${status.datasets[0].name}: checksum mismatch`);
    expect(await session().callsTo('reload')).toHaveLength(2);
    expect(await session().callsTo('reset')).toHaveLength(0);
  });

  it('Tab goes from Reload to Reset, and Enter there downloads everything again', async () => {
    await session().mount('dataset-panel', { answers: { ...answers, reset: () => status } });
    await page().getByRole('button', { name: 'Reload (fetch what changed)' }).focus();
    await page().keyboard.press('Tab');
    expect(await focused(page())).toMatchObject({ tag: 'button', text: 'Reset (download everything again)' });
    await page().keyboard.press('Enter');
    await expect.poll(() => message()).toBe(`Downloaded again: version ${status.version} is loaded.`);
    expect(await session().callsTo('reset')).toHaveLength(1);
  });

  it('a dataset that finishes loading is read again (its card follows the status)', async () => {
    let loaded = false;
    const loading: DbStatus = { ...status, ready: false, datasets: status.datasets.map((d) => ({ ...d, loaded: false })) };
    await session().mount('dataset-panel', { answers: { ...answers, status: () => (loaded ? status : loading) } });
    const name = status.datasets[0].name;
    await expect.poll(() => card(name).getByText('Loading…', { exact: true }).count()).toBe(1);
    loaded = true;
    await page().evaluate((dataset) => window.componentFixture!.progress({ dataset, phase: 'ready', loaded: 1, total: 1 }), name);
    await expect.poll(() => card(name).getByText('Loaded', { exact: true }).count()).toBe(1);
  });
});
