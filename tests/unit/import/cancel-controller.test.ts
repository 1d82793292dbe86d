/**
 * Cancel takes effect wherever the import is: a worker that does not give the outcome within
 * CANCEL_GRACE_MS of the cancel (busy in one long synchronous step) is replaced by the page, and the
 * client's recovery opens the active dataset again. Fake timers: behaviour, not a measured time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CANCEL_GRACE_MS, ImportController } from '../../../ui/components/import/import-controller.ts';
import { WorkerLostError, type DbClient, type ImportOutcome } from '../../../ui/api/db-client.ts';

/** A DB client whose import answers only when told, and whose restart fails the waiting call as the real one does. */
function fakeDb(cancelAnswers: boolean) {
  let settle!: { resolve: (outcome: ImportOutcome) => void; reject: (error: Error) => void };
  const db = {
    importFile: () => new Promise<ImportOutcome>((resolve, reject) => (settle = { resolve, reject })),
    cancelImport: vi.fn(async () => {
      if (cancelAnswers) settle.resolve({ ok: false, code: 'cancelled', message: 'Import cancelled. The previous dataset is still active.', report: null });
    }),
    restartWorker: vi.fn((reason: string) => settle.reject(new WorkerLostError(reason))),
  };
  return { db, client: db as unknown as DbClient };
}

describe('ImportController.cancel', () => {
  const changed = vi.fn();
  beforeEach(() => {
    vi.useFakeTimers();
    const page = new EventTarget();
    page.addEventListener('datasets-changed', changed);
    vi.stubGlobal('window', page);
    vi.stubGlobal('navigator', {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    changed.mockReset();
  });

  it('replaces a worker that has not stopped the import within the grace period, and reports a cancel', async () => {
    const { db, client } = fakeDb(false);
    const controller = new ImportController();
    const outcome = controller.start(client, new File(['a,b\n'], 'big.csv'));
    await vi.advanceTimersByTimeAsync(0);
    controller.cancel(client);
    expect(db.cancelImport).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(CANCEL_GRACE_MS - 1);
    expect(db.restartWorker).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(db.restartWorker).toHaveBeenCalledOnce();
    expect(await outcome).toMatchObject({ ok: false, code: 'cancelled', message: expect.stringMatching(/cancelled.*active dataset was opened again/) });
    expect(controller.state.kind).toBe('done');
    expect(changed).toHaveBeenCalledOnce();
  });

  it('leaves a worker that stops the import in time alone', async () => {
    const { db, client } = fakeDb(true);
    const controller = new ImportController();
    const outcome = controller.start(client, new File(['a,b\n'], 'big.csv'));
    await vi.advanceTimersByTimeAsync(0);
    controller.cancel(client);
    expect(await outcome).toMatchObject({ ok: false, code: 'cancelled' });
    await vi.advanceTimersByTimeAsync(CANCEL_GRACE_MS * 2);
    expect(db.restartWorker).not.toHaveBeenCalled();
    expect(changed).not.toHaveBeenCalled();
  });
});
