/** <source-badge> alone: it names where the active records come from and, for a real week or a file, its date. */
import { describe, expect, it } from 'vitest';
import type { DbStatus } from '../../../ui/api/db-client.ts';
import { componentSessionPerFile, loadedStatus } from './component-session.ts';

const session = componentSessionPerFile();
const badge = () => session().page.locator('source-badge a');

/** The served status with the websites dataset's source (or import) replaced. */
function statusWith(fields: Partial<DbStatus['datasets'][number]>): DbStatus {
  const status = loadedStatus(session().manifest);
  return { ...status, datasets: status.datasets.map((d) => (d.name === 'websites' ? { ...d, ...fields } : d)) };
}

describe('source-badge', () => {
  it('a real week says which week', async () => {
    const source = {
      kind: 'real' as const,
      label: 'GSA Site Scanning snapshot of 2025-02-10',
      date: '2025-02-10',
      repository: 'benbalter/site-scanning-snapshots-experiment',
      commit: '0'.repeat(40),
      licence: 'CC0',
      count: 10,
    };
    await session().mount('source-badge', { properties: { of: 'websites' }, answers: { status: () => statusWith({ source }) } });
    await expect.poll(() => badge().getAttribute('data-date')).toBe('2025-02-10');
    expect(await badge().getAttribute('data-source')).toBe('real');
    expect((await badge().innerText()).split('\n')[0].trim()).toBe('Real data · week of 2025-02-10');
  });

  it('generated data has no date to give', async () => {
    await session().mount('source-badge', { properties: { of: 'websites' } });
    await expect.poll(() => badge().getAttribute('data-source')).toBe('synthetic');
    expect((await badge().innerText()).split('\n')[0].trim()).toBe('Synthetic data');
  });

  it('a file of the user’s says so, with the file’s date when the server gave one', async () => {
    await session().mount('source-badge', {
      properties: { of: 'websites' },
      answers: { status: () => statusWith({ source: null, importId: 'i-1', importName: 'week.csv', fileDate: '2025-03-17T00:00:00Z' }) },
    });
    await expect.poll(() => badge().getAttribute('data-source')).toBe('imported');
    expect((await badge().innerText()).split('\n')[0].trim()).toBe('Your file · file of 2025-03-17');
  });
});
