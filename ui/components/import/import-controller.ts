import type { DbClient, ImportOutcome, ImportProgressReport } from '../../api/db-client.ts';
import { RELAY_PROTOCOL, type WindowToServiceWorker } from '../../../adapters/browser/relay-protocol.ts';
import { importOwnerLock } from '../../../adapters/browser/import-locks.ts';
import { fileNameOf } from '../../../adapters/db-worker/fetch-source.ts';

/** The page's one import: nothing, a run with its last progress, or the outcome until dismissed (fileBytes 0: not known yet). */
export type ImportState =
  | { kind: 'idle' }
  | { kind: 'running'; id: string; fileName: string; fileBytes: number; progress: ImportProgressReport | null; cancelling: boolean }
  | { kind: 'done'; fileName: string; outcome: ImportOutcome };

type Listener = (state: ImportState) => void;

/** Fired on window when the active or the stored datasets changed (an import, a switch, a deletion). */
export const DATASETS_CHANGED = 'datasets-changed';

/**
 * Tells the service worker the active dataset changed, so it drops its relay ports and the copy its own
 * engine holds (the DB worker also broadcasts it; this is the relay protocol's own message).
 */
export function tellServiceWorker(version: string): void {
  const message: WindowToServiceWorker = { type: 'dataset-changed', v: RELAY_PROTOCOL, version };
  navigator.serviceWorker?.controller?.postMessage(message);
  window.dispatchEvent(new Event(DATASETS_CHANGED));
}

/**
 * How long a cancelled import may take to stop. The worker hears the cancel between chunks, but not during
 * one long synchronous step (the insert of every website row, the export): past this the page replaces
 * the worker, whose successor opens the active dataset again (ui/api/db-client.ts).
 */
export const CANCEL_GRACE_MS = 1000;

const CANCELLED_BY_RESTART =
  'Import cancelled. The data worker was still busy with it, so it was stopped and started again; the active dataset was opened again.';

/**
 * Runs imports for the drop zone and the dataset panel alike: one at a time in this page, the file handed
 * to the DB worker as it is (the worker reads and parses it; nothing is read here).
 */
export class ImportController {
  private current: ImportState = { kind: 'idle' };
  /** The run whose worker the page replaced after a cancel: its lost-worker error means "cancelled". */
  private abandoned: string | null = null;
  private cancelTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<Listener>();

  get state(): ImportState {
    return this.current;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(state: ImportState): void {
    this.current = state;
    for (const listener of this.listeners) listener(state);
  }

  start(db: DbClient, file: File): Promise<ImportOutcome | null> {
    return this.run(file.name, file.size, (id, onProgress) => db.importFile(file, id, onProgress));
  }

  /** Imports the file at an http(s) URL: the DB worker fetches it and reads the body as it arrives. */
  startUrl(db: DbClient, url: string): Promise<ImportOutcome | null> {
    let name = url;
    try {
      name = fileNameOf(new URL(url));
    } catch {
      // Not a URL: the worker answers with the message that says so.
    }
    return this.run(name, 0, (id, onProgress) => db.importUrl(url, id, onProgress));
  }

  /** Loads one of the build's extra datasets (a real earlier snapshot, the real price list) as an import. */
  startBuiltIn(db: DbClient, extraId: string, title: string, bytes: number): Promise<ImportOutcome | null> {
    return this.run(title, bytes, (id, onProgress) => db.importBuiltIn(extraId, id, onProgress));
  }

  private async run(
    fileName: string,
    fileBytes: number,
    call: (id: string, onProgress: (progress: ImportProgressReport) => void) => Promise<ImportOutcome>,
  ): Promise<ImportOutcome | null> {
    if (this.current.kind === 'running') return null;
    const id = crypto.randomUUID();
    this.set({ kind: 'running', id, fileName, fileBytes, progress: null, cancelling: false });
    let outcome: ImportOutcome;
    const releaseOwner = await holdOwnerLock(id);
    try {
      outcome = await call(id, (progress) => {
        if (this.current.kind === 'running' && this.current.id === id) this.set({ ...this.current, progress });
      });
    } catch (error) {
      // The worker itself failed (crashed, terminated): its datasets are as they were.
      outcome =
        this.abandoned === id
          ? { ok: false, code: 'cancelled', message: CANCELLED_BY_RESTART, report: null }
          : {
              ok: false,
              code: 'database',
              message: `The import stopped: ${error instanceof Error ? error.message : String(error)}. Nothing was changed.`,
              report: null,
            };
    }
    if (this.cancelTimer !== null) clearTimeout(this.cancelTimer);
    this.cancelTimer = null;
    releaseOwner();
    // A replaced worker may have stored the import just before it stopped: the lists are read again.
    if (this.abandoned === id) window.dispatchEvent(new Event(DATASETS_CHANGED));
    this.set({ kind: 'done', fileName, outcome });
    if (outcome.ok) tellServiceWorker(outcome.imported.id);
    return outcome;
  }

  cancel(db: DbClient): void {
    if (this.current.kind !== 'running' || this.current.cancelling) return;
    const { id } = this.current;
    this.set({ ...this.current, cancelling: true });
    db.cancelImport(id).catch(() => {});
    this.cancelTimer = setTimeout(() => {
      this.cancelTimer = null;
      if (this.current.kind !== 'running' || this.current.id !== id) return;
      this.abandoned = id;
      db.restartWorker('an import was cancelled while it was busy');
    }, CANCEL_GRACE_MS);
  }

  dismiss(): void {
    if (this.current.kind === 'done') this.set({ kind: 'idle' });
  }
}

/**
 * Holds the import's owner lock until released: the DB worker stores nothing if this page was reloaded or
 * closed meanwhile (see importOwnerLock). Without Web Locks there is nothing to hold.
 */
async function holdOwnerLock(id: string): Promise<() => void> {
  if (!navigator.locks) return () => {};
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await new Promise<void>((acquired) => {
    void navigator.locks.request(importOwnerLock(id), () => {
      acquired();
      return held;
    });
  });
  return release;
}

/** One controller per page: the drop zone shows what the dataset panel's button started, and the reverse. */
export const importController = new ImportController();
