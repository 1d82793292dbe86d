/**
 * <import-drop-zone> alone (with the <import-status> it docks): a file dropped on the window goes to the DB
 * client's import, its progress and outcome are shown with the import report, and Cancel and Dismiss work
 * from the keyboard.
 */
import { describe, expect, it } from 'vitest';
import type { ImportOutcome, ImportReport } from '../../../ui/api/db-client.ts';
import { focused } from '../../../harness/browsers/app.ts';
import { componentSessionPerFile } from './component-session.ts';

const session = componentSessionPerFile();

const page = () => session().page;
const status = () => page().locator('import-status section');
const FILE = { name: 'rates.csv', text: 'Contract #,Labor Category\nGS-1,Engineer\n' };

const report: ImportReport = {
  dataset: 'ceilingrates',
  format: 'ceilingrates-csv',
  encoding: 'windows-1252',
  rowsRead: 3,
  rowsImported: 2,
  rowsRejected: 1,
  rejected: [{ line: 4, record: 3, reason: 'current_price is not a number' }],
  metadataRows: 0,
  values: [],
  columns: { used: ['Contract #', 'Labor Category'], ignored: [] },
  warnings: ['One row had no vendor'],
  bytesRead: FILE.text.length,
};

/** Drags a file over the window (the zone shows), then drops it. */
async function dropFile(): Promise<void> {
  await page().evaluate(({ name, text }) => {
    const data = new DataTransfer();
    data.items.add(new File([text], name, { type: 'text/csv' }));
    window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, cancelable: true }));
  }, FILE);
  await expect.poll(() => page().locator('[data-drop-zone]').count()).toBe(1);
  await page().evaluate(({ name, text }) => {
    const data = new DataTransfer();
    data.items.add(new File([text], name, { type: 'text/csv' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, cancelable: true }));
  }, FILE);
}

describe('import-drop-zone with a fake DB client', () => {
  it('imports a dropped file, shows its progress, and Cancel (Space) asks the worker to stop that import', async () => {
    let finish!: (outcome: ImportOutcome) => void;
    const outcome = new Promise<ImportOutcome>((resolve) => (finish = resolve));
    await session().mount('import-drop-zone', { answers: { importFile: () => outcome, cancelImport: () => undefined } });
    await dropFile();

    await expect.poll(() => status().getAttribute('data-state')).toBe('running');
    expect(await page().locator('[data-drop-zone]').count()).toBe(0);
    await expect.poll(async () => (await session().callsTo('importFile')).length).toBe(1);
    const [[file, id, onProgress]] = await session().callsTo('importFile');
    expect(file).toEqual({ file: { name: FILE.name, size: FILE.text.length, type: 'text/csv' } });
    expect(typeof id).toBe('string');
    expect(onProgress).toBe('[function]');
    expect(await page().locator('#import-title').textContent()).toBe(`Importing ${FILE.name}`);

    await page().evaluate(() =>
      window.componentFixture!.importProgress({ phase: 'inserting', bytesRead: 20, totalBytes: 40, rowsImported: 1, rowsRejected: 0 }),
    );
    await expect.poll(() => page().locator('#import-phase').textContent()).toBe('Building the database…');
    await expect.poll(() => page().locator('[data-progress-bytes]').textContent()).toContain('1 rows');

    await page().getByRole('button', { name: 'Cancel' }).focus();
    await page().keyboard.press('Space');
    await expect.poll(() => session().callsTo('cancelImport')).toEqual([[id]]);
    expect(await page().getByRole('button', { name: 'Cancelling…' }).isDisabled()).toBe(true);

    finish({ ok: false, code: 'cancelled', message: 'Import cancelled. Nothing was changed.', report: null });
    await expect.poll(() => status().getAttribute('data-code')).toBe('cancelled');
    expect(await page().locator('[data-message]').textContent()).toBe('Import cancelled. Nothing was changed.');
  });

  it('a finished import shows its report; Dismiss (Enter) closes it', async () => {
    const done: ImportOutcome = {
      ok: true,
      report,
      imported: {
        id: 'import-1',
        dataset: 'ceilingrates',
        fileName: FILE.name,
        format: 'ceilingrates-csv',
        formatLabel: 'Ceiling-rate CSV',
        importedAt: '2026-11-25T12:00:00Z',
        rows: { ceilingrates: 2 },
        rowsImported: 2,
        rowsRejected: 1,
        sourceBytes: FILE.text.length,
        bytes: 100,
        rawBytes: 200,
      },
    };
    await session().mount('import-drop-zone', { answers: { importFile: () => done } });
    await dropFile();
    await expect.poll(() => status().getAttribute('data-state')).toBe('done');
    expect(await page().locator('#import-title').textContent()).toBe(`Imported: ${FILE.name}`);
    expect(await page().locator('[data-message]').textContent()).toContain('Ceiling-rate CSV: now the active ceiling-rates dataset');
    expect(await page().locator('[data-imported]').getAttribute('data-imported')).toBe('2');
    expect(await page().locator('[data-rejected]').getAttribute('data-rejected')).toBe('1');
    expect(await page().locator('[data-encoding]').getAttribute('data-encoding')).toBe('windows-1252');
    expect(await page().locator('.rejected li[data-line="4"]').textContent()).toBe('Line 4: current_price is not a number');
    expect(await page().locator('.warnings li').allTextContents()).toEqual(['One row had no vendor']);

    await page().getByRole('button', { name: 'Dismiss' }).focus();
    expect(await focused(page())).toMatchObject({ tag: 'button', text: 'Dismiss' });
    await page().keyboard.press('Enter');
    await expect.poll(() => status().count()).toBe(0);
    expect(session().errors).toEqual([]);
  });

  it('a drag that carries no file is left to the page: no zone, the drop not taken', async () => {
    await session().mount('import-drop-zone');
    const taken = await page().evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'just text');
      // dispatchEvent answers false when a listener called preventDefault (took the event).
      const enter = !window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, cancelable: true }));
      const drop = !window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, cancelable: true }));
      return { enter, drop };
    });
    expect(taken).toEqual({ enter: false, drop: false });
    expect(await page().locator('[data-drop-zone]').count()).toBe(0);
  });
});
