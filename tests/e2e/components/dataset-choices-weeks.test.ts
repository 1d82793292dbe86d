/** <dataset-choices>: each choice names its week, and the kept weeks dataset is listed but never offered as the data in use. */
import { describe, expect, it } from 'vitest';
import type { DatasetChoices } from '../../../ui/api/db-client.ts';
import { componentSessionPerFile } from './component-session.ts';

const session = componentSessionPerFile();
const page = () => session().page;

const real = (date: string) => ({
  kind: 'real' as const,
  label: `GSA Site Scanning snapshot of ${date}`,
  repository: 'benbalter/site-scanning-snapshots-experiment',
  commit: '0'.repeat(40),
  date,
  licence: 'CC0',
  count: 10,
});
const kept = (id: string, fileName: string, extra: object) => ({
  id,
  dataset: 'websites' as const,
  fileName,
  format: 'sqlite',
  formatLabel: 'Built-in extra',
  importedAt: '2026-11-27T05:00:00Z',
  rows: { websites: 10 },
  rowsImported: 10,
  rowsRejected: 0,
  sourceBytes: 1000,
  bytes: 1000,
  rawBytes: 4000,
  ...extra,
});
const choices: DatasetChoices[] = [
  {
    dataset: 'websites',
    active: null,
    builtIn: real('2025-06-09'),
    imports: [
      kept('week-1', 'Snapshot of 2025-02-10', { source: real('2025-02-10') }),
      kept('weeks', 'Every week', { source: real('2025-06-09'), attachment: 'websites-weeks' }),
    ],
  },
];

describe('dataset-choices and the weeks', () => {
  it('names each choice’s week; the weeks dataset has no Use button', async () => {
    await session().mount('dataset-choices', { answers: { datasetChoices: () => choices } });
    const entry = (id: string) => page().locator(`li[data-choice="${id}"]`);
    await entry('built-in').waitFor();
    expect(await entry('built-in').locator('.meta').textContent()).toContain('week of 2025-06-09');
    expect(await entry('week-1').locator('.meta').textContent()).toContain('week of 2025-02-10');
    expect(await entry('week-1').getByRole('button', { name: 'Use Snapshot of 2025-02-10' }).count()).toBe(1);
    expect(await entry('weeks').locator('.meta').textContent()).toContain('the data in use stays as chosen here');
    expect(await entry('weeks').getByRole('button', { name: /^Use/ }).count()).toBe(0);
    expect(await entry('weeks').getByRole('button', { name: 'Delete Every week' }).count()).toBe(1);
  });
});
