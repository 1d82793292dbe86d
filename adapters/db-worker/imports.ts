/**
 * Imports and switches in the DB worker: a file becomes a new database built aside, is stored in
 * IndexedDB with its "active" mark in one transaction, and only then replaces the open dataset. Any
 * failure before that (bad file, cancel, another tab importing) closes the new database and leaves the open one,
 * and the stored choice, as they were. A database the browser will not store (quota, an engine's IndexedDB
 * refusing it) still answers in this window for the session, and the outcome says it was not kept; what is
 * stored is untouched, so the next start opens what was kept before.
 */
import type { Database, SqlJsStatic } from 'sql.js';
import { importIntoDatabase, isImportError, type ImportReport } from '../../dataset/import/index.ts';
import { BUILT_IN_FORMAT, FORMAT_LABELS, type ImportableDataset } from '../../dataset/import/formats.ts';
import type { DatasetName } from '../../engine/http/types.ts';
import { attachmentOf, DATASET_NAMES, datasetDefinition } from '../../engine/dataset-registry.ts';
import type {
  DatasetChoices,
  DatasetStatus,
  ImportedDataset,
  ImportOutcome,
  ImportProgressCallback,
  ImportProgressReport,
  NotKept,
  SwitchOutcome,
} from './db-api.ts';
import { pack } from '../../dataset/artifact/unpack.ts';
import { countRows } from '../../dataset/sqlite-catalogue.ts';
import { activeImports, deleteImport, isQuotaError, listImports, saveImport, setActive } from '../browser/import-store.ts';
import { announceActive, type ActiveChanged } from '../browser/active-channel.ts';
import { IMPORT_LOCK, importOwnerLock } from '../browser/import-locks.ts';
import type { ImportSource } from '../../dataset/import/source.ts';
import { fetchSource, FetchSourceError } from './fetch-source.ts';
import type { DatasetSource, ExtraArtifact } from '../../dataset/artifact/format.ts';
import type { ImportFormat } from '../../dataset/import/formats.ts';
import { ReportBuilder } from '../../dataset/import/report.ts';

export { IMPORT_LOCK, importOwnerLock };

const PROGRESS_INTERVAL_MS = 80;
/** How often a running import checks that the page which asked for it is still there. */
const OWNER_CHECK_MS = 500;

const OWNER_GONE_MESSAGE = 'The page that started the import was closed or reloaded before it finished. Nothing was changed.';

function hasLockQuery(): boolean {
  return typeof (globalThis.navigator as Navigator | undefined)?.locks?.query === 'function';
}

async function lockHeld(name: string): Promise<boolean> {
  if (!hasLockQuery()) return false;
  return !!(await navigator.locks.query()).held?.some((lock) => lock.name === name);
}

/** What the dataset host (dataset/host/) lends this module: its databases stay its own. */
export interface DatasetSwitcher<O> {
  sql(): Promise<SqlJsStatic>;
  /** Resolves once the worker's first load (or reload) is over. */
  settled(): Promise<void>;
  /** The import the dataset was opened from, or null for the build's. */
  activeImport(name: DatasetName): string | null;
  openImport(id: string): Promise<O>;
  openBuiltIn(name: DatasetName): Promise<O>;
  /** Installs an opened database as the dataset's answer (closing the old one) and tells the page. */
  adopt(name: DatasetName, opened: O): void;
  close(opened: O): void;
  /** Wraps a database built here with the status it will have. */
  opened(db: Database, status: Partial<DatasetStatus> & { name: DatasetName }): O;
  /** Where the build's own dataset's records come from (its manifest entry), null before the manifest is read. */
  builtInSource(name: DatasetName): DatasetSource | null;
  /** Installs a dataset's attachment just kept (or none), beside the active dataset, which stays; throws for one it cannot read. */
  attach(name: DatasetName, db: Database | null): Promise<unknown>;
  /** One of the build's extra datasets, downloaded and checked against the manifest, opened. */
  downloadExtra(id: string, signal?: AbortSignal): Promise<{ artifact: ExtraArtifact; gz: Uint8Array; db: Database }>;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const SESSION_ONLY = 'It answers in this window until the app is reloaded or closed; then the dataset kept before answers again.';

/** Why an import answers for this session only: the browser would not store it. */
function notKeptBecause(error: unknown): NotKept {
  if (isQuotaError(error)) {
    return {
      code: 'quota',
      message:
        'The browser refused to keep the imported dataset: not enough storage space is left for this site (quota exceeded). ' +
        `${SESSION_ONLY} To keep it, delete an imported dataset or free some disk space and import the file again.`,
    };
  }
  return { code: 'storage', message: `This browser could not keep the imported dataset (${message(error)}). ${SESSION_ONLY}` };
}

const CANCELLED_MESSAGE = 'Import cancelled. The previous dataset is still active.';

const BUSY_MESSAGE = 'Another tab of this app is importing a file right now. Try again when it has finished. Nothing was changed.';

/** Rate-limits progress reports crossing to the page; phase changes always go through. */
function throttle(send: ImportProgressCallback | undefined): (progress: ImportProgressReport) => void {
  let last = 0;
  let phase = '';
  return (progress) => {
    const now = performance.now();
    if (progress.phase === phase && now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    phase = progress.phase;
    try {
      send?.(progress);
    } catch {
      // The page that asked is gone; the import goes on and its outcome is stored.
    }
  };
}

export function createImports<O>(worker: DatasetSwitcher<O>) {
  const running = new Map<string, AbortController>();
  /** Per dataset, the open import the browser would not store: listed while it answers, gone once another does. */
  const unkept = new Map<DatasetName, ImportedDataset>();
  const install = (dataset: DatasetName, opened: O, sessionOnly: ImportedDataset | null = null) => {
    worker.adopt(dataset, opened);
    if (sessionOnly) unkept.set(dataset, sessionOnly);
    else unkept.delete(dataset);
  };
  /** One switch at a time in this worker: an import's swap, a choice, a deletion. */
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task, task);
    queue = next.catch(() => {});
    return next;
  };

  async function run(
    file: ImportSource,
    size: number | null,
    name: string,
    id: string,
    owned: boolean,
    signal: AbortSignal,
    onProgress: ImportProgressCallback | undefined,
  ): Promise<ImportOutcome> {
    const send = throttle(onProgress);
    const SQL = await worker.sql();
    let result;
    try {
      result = await importIntoDatabase(SQL, file, { name, signal, onProgress: send, ...(size === null ? {} : { totalBytes: size }) });
    } catch (error) {
      // A fetched body being read rejects with the abort's own error, not the import core's.
      if (signal.aborted) return { ok: false, code: 'cancelled', message: CANCELLED_MESSAGE, report: null };
      if (!isImportError(error) && typeof file === 'object' && 'getReader' in file) {
        return {
          ok: false,
          code: 'fetch',
          message: `The download stopped before the end of the file (${message(error)}). The previous dataset is still active; nothing was changed.`,
          report: null,
        };
      }
      if (!isImportError(error)) console.error('db worker: import failed', error);
      return {
        ok: false,
        code: isImportError(error) ? error.code : 'database',
        message: isImportError(error) ? error.message : `The import failed (${message(error)}). Nothing was changed.`,
        report: null,
      };
    }
    return keep({ ...result, name, size, id, owned, signal, send });
  }

  /** What `keep` stores: a database built aside, where it came from, and (already packed) its gzip'd bytes. */
  interface Built {
    db: Database;
    dataset: DatasetName;
    format: ImportFormat;
    report: ImportReport;
    name: string;
    size: number | null;
    id: string;
    owned: boolean;
    signal: AbortSignal;
    send: (progress: ImportProgressReport) => void;
    gz?: Uint8Array;
    formatLabel?: string;
    source?: DatasetSource;
    /** A dataset's attachment (its registry id): kept and installed beside the dataset, not made active. */
    attachment?: string;
  }

  /**
   * Stores a database built aside as an import and swaps it in; the open dataset stays on a cancel. When the browser
   * will not store it, it is swapped in all the same, for this session, and the outcome says so.
   */
  async function keep({
    db,
    dataset,
    format,
    report,
    name,
    size,
    id,
    owned,
    signal,
    send,
    gz: packed,
    formatLabel,
    source,
    attachment,
  }: Built): Promise<ImportOutcome> {
    const fail = (code: 'cancelled' | 'storage', text: string): ImportOutcome => {
      db.close();
      return { ok: false, code, message: text, report };
    };
    try {
      send({ phase: 'saving', bytesRead: report.bytesRead, totalBytes: size, rowsImported: report.rowsImported, rowsRejected: report.rowsRejected });
      if (signal.aborted) return fail('cancelled', CANCELLED_MESSAGE);
      const raw = db.export();
      const gz = packed ?? (await pack(raw));
      if (signal.aborted) return fail('cancelled', CANCELLED_MESSAGE);
      const rows = countRows(db, (attachment ? attachmentOf(attachment)?.attachment : undefined)?.tables ?? datasetDefinition(dataset).tables);
      const meta: ImportedDataset = {
        id: crypto.randomUUID(),
        dataset,
        fileName: name,
        format,
        formatLabel: formatLabel ?? FORMAT_LABELS[format],
        importedAt: new Date().toISOString(),
        rows: Object.keys(rows).length ? rows : countRows(db, tablesOf(db)),
        rowsImported: report.rowsImported,
        rowsRejected: report.rowsRejected,
        sourceBytes: size ?? report.bytesRead,
        bytes: gz.length,
        rawBytes: raw.length,
        ...(source ? { source } : {}),
        ...(attachment ? { attachment } : {}),
      };
      /** What the swap came to: the page gone (nothing stored or used), or used, kept or (why) not. */
      const swapped = await exclusive(async (): Promise<'owner-gone' | { notKept: NotKept | null }> => {
        if (owned && !(await lockHeld(importOwnerLock(id)))) return 'owner-gone';
        // Stored and marked active in one transaction; from here on the import is used, cancel or not. A write the
        // browser refuses stores none of it (what was kept stays as it was): the import answers for this session.
        const notKept = await saveImport(meta, gz).then(
          () => null,
          (error: unknown) => notKeptBecause(error),
        );
        // An attachment is kept beside the active dataset, never in its place: the week the lists answer stays.
        if (attachment) {
          await worker.attach(dataset, db);
          if (notKept) return { notKept };
          // Only the newest kept copy is read: one kept before (of an older form, refused, or the same one
          // again) would stay listed, and stored, for nothing.
          for (const older of (await listImports()).filter((item) => item.attachment === attachment && item.id !== meta.id)) {
            await deleteImport(older.id).catch((error) => console.error(`db worker: an older ${attachment} copy could not be deleted`, error));
          }
          return { notKept };
        }
        install(
          dataset,
          worker.opened(db, {
            name: dataset,
            loaded: true,
            rows: meta.rows,
            bytes: meta.bytes,
            rawBytes: meta.rawBytes,
            fileDate: meta.importedAt,
            loadedAt: new Date().toISOString(),
            importId: meta.id,
            importName: meta.fileName,
            source: meta.source ?? null,
          }),
          notKept ? { ...meta, sessionOnly: true } : null,
        );
        return { notKept };
      });
      if (swapped === 'owner-gone') return fail('cancelled', OWNER_GONE_MESSAGE);
      const { notKept } = swapped;
      if (notKept) return { ok: true, imported: { ...meta, sessionOnly: true }, report, notKept };
      // The other windows open it too; one the browser did not store, they cannot.
      if (!attachment) announceActive({ dataset, id: meta.id });
      return { ok: true, imported: meta, report };
    } catch (error) {
      console.error('db worker: keeping the import failed', error);
      return fail('storage', `The import failed while it was being kept (${message(error)}). The previous dataset is still active; nothing was changed.`);
    }
  }

  /** The file as it is, or (for a URL) fetched once the import may start: the fetch is cancellable too. */
  type Opened = { source: ImportSource; size: number | null; name: string };
  /** What an import does once it may start (the lock is taken, its page is still there). */
  type Work = (signal: AbortSignal, owned: boolean) => Promise<ImportOutcome>;

  function importFile(file: Blob, options: { id: string; name?: string }, onProgress?: ImportProgressCallback): Promise<ImportOutcome> {
    return guarded(
      options.id,
      fromSource(options.id, async () => ({ source: file, size: file.size, name: options.name ?? (file as File).name ?? 'file' }), onProgress),
    );
  }

  /** Imports the file at `url`, its body streamed into the import as it arrives (progress in bytes). */
  function importUrl(url: string, options: { id: string }, onProgress?: ImportProgressCallback): Promise<ImportOutcome> {
    return guarded(
      options.id,
      fromSource(options.id, async (signal) => fetchSource(url, signal).then(({ body, size, name }) => ({ source: body, size, name })), onProgress),
    );
  }

  /**
   * Loads one of the build's extra datasets (the first real Site Scanning week, the real 2017 price list): the
   * checked file is kept like an import, so it can be switched to, compared and deleted like one.
   */
  function importBuiltIn(extraId: string, options: { id: string }, onProgress?: ImportProgressCallback): Promise<ImportOutcome> {
    return guarded(options.id, async (signal: AbortSignal, owned: boolean): Promise<ImportOutcome> => {
      const send = throttle(onProgress);
      let extra;
      try {
        extra = await worker.downloadExtra(extraId, signal);
      } catch (error) {
        if (signal.aborted) return { ok: false, code: 'cancelled', message: CANCELLED_MESSAGE, report: null };
        return {
          ok: false,
          code: 'fetch',
          message: `The built-in dataset could not be loaded (${message(error)}). The previous dataset is still active; nothing was changed.`,
          report: null,
        };
      }
      const { artifact, gz, db } = extra;
      const rows = Object.values(artifact.rows).reduce((a, b) => a + b, 0);
      const format: ImportFormat = BUILT_IN_FORMAT[artifact.name as ImportableDataset];
      // The build imported it already: the report says so and where the records come from.
      const builder = new ReportBuilder(artifact.name, format);
      Object.assign(builder.report, { rowsRead: rows, rowsImported: rows, bytesRead: artifact.bytes });
      builder.warn(artifact.source.label);
      const report = builder.finish();
      return keep({
        db,
        dataset: artifact.name,
        format,
        report,
        name: artifact.title,
        size: artifact.bytes,
        id: options.id,
        owned,
        signal,
        send,
        gz,
        formatLabel: 'Built-in dataset (fetched on demand)',
        source: artifact.source,
        ...(attachmentOf(artifact.id) ? { attachment: artifact.id } : {}),
      });
    });
  }

  /** An import of a file or a fetched body: opened once the import may start, then run through the import core. */
  function fromSource(id: string, open: (signal: AbortSignal) => Promise<Opened>, onProgress: ImportProgressCallback | undefined): Work {
    return async (signal, owned) => {
      let opened: Opened;
      try {
        opened = await open(signal);
      } catch (error) {
        if (signal.aborted) return { ok: false, code: 'cancelled', message: CANCELLED_MESSAGE, report: null };
        if (error instanceof FetchSourceError) return { ok: false, code: 'fetch', message: error.message, report: null };
        throw error;
      }
      return run(opened.source, opened.size, opened.name, id, owned, signal, onProgress);
    };
  }

  /** Runs one import's work under the import lock, watched for its page going away. */
  async function guarded(id: string, work: Work): Promise<ImportOutcome> {
    const options = { id };
    const controller = new AbortController();
    running.set(options.id, controller);
    // The page takes the owner lock before it calls, and is watched: once it is gone the import stops and
    // stores nothing. A call that arrives when the lock is already gone comes from a page that was reloaded
    // or closed meanwhile (this worker was busy): it is not started at all. Without Web Locks, no watch.
    const owner = importOwnerLock(options.id);
    const watched = hasLockQuery();
    const owned = watched && (await lockHeld(owner));
    if (watched && !owned) {
      running.delete(options.id);
      return { ok: false, code: 'cancelled', message: OWNER_GONE_MESSAGE, report: null };
    }
    const watch = owned ? setInterval(() => void lockHeld(owner).then((held) => held || controller.abort()), OWNER_CHECK_MS) : null;
    try {
      await worker.settled();
      if (controller.signal.aborted || (owned && !(await lockHeld(owner)))) {
        return {
          ok: false,
          code: 'cancelled',
          message: controller.signal.aborted ? 'Import cancelled. Nothing was changed.' : OWNER_GONE_MESSAGE,
          report: null,
        };
      }
      const start = (): Promise<ImportOutcome> => work(controller.signal, owned);
      const locks = (globalThis.navigator as Navigator | undefined)?.locks;
      if (!locks) return await start();
      return await locks.request(IMPORT_LOCK, { ifAvailable: true }, async (lock) =>
        lock ? start() : ({ ok: false, code: 'busy', message: BUSY_MESSAGE, report: null } satisfies ImportOutcome),
      );
    } finally {
      if (watch !== null) clearInterval(watch);
      running.delete(options.id);
    }
  }

  /** Opens the chosen dataset aside, records the choice, then swaps it in; the old one stays on failure. */
  function activate(dataset: DatasetName, id: string | null): Promise<SwitchOutcome> {
    return exclusive(async () => {
      await worker.settled();
      if (worker.activeImport(dataset) === id) return { ok: true, message: 'That dataset is already active.' };
      let opened: O;
      try {
        opened = id === null ? await worker.openBuiltIn(dataset) : await worker.openImport(id);
      } catch (error) {
        console.error('db worker: switching failed', error);
        return { ok: false, message: `The dataset could not be opened (${message(error)}). The previous dataset is still active.` };
      }
      try {
        await setActive(dataset, id);
      } catch (error) {
        worker.close(opened);
        return { ok: false, message: `The choice could not be stored (${message(error)}). The previous dataset is still active.` };
      }
      install(dataset, opened);
      announceActive({ dataset, id });
      return { ok: true, message: id === null ? 'The built-in dataset is active.' : 'The imported dataset is active.' };
    });
  }

  /** Deletes an import; when it is the active one, the build's dataset is opened and swapped in first. */
  function remove(id: string): Promise<SwitchOutcome> {
    return exclusive(async () => {
      await worker.settled();
      const sessionOnly = [...unkept.values()].find((item) => item.id === id);
      if (sessionOnly) return closeUnkept(sessionOnly);
      const meta = (await listImports()).find((item) => item.id === id);
      if (!meta) return { ok: false, message: 'That imported dataset no longer exists.' };
      let fallback: O | null = null;
      if (worker.activeImport(meta.dataset) === id) {
        try {
          fallback = await worker.openBuiltIn(meta.dataset);
        } catch (error) {
          return { ok: false, message: `The built-in dataset could not be opened to replace it (${message(error)}); nothing was deleted.` };
        }
      }
      try {
        await deleteImport(id);
      } catch (error) {
        if (fallback) worker.close(fallback);
        return { ok: false, message: `The imported dataset could not be deleted (${message(error)}).` };
      }
      if (meta.attachment) await worker.attach(meta.dataset, null);
      if (fallback) {
        install(meta.dataset, fallback);
        announceActive({ dataset: meta.dataset, id: null });
        return { ok: true, message: `Deleted ${meta.fileName}; the built-in dataset is active again.` };
      }
      return { ok: true, message: `Deleted ${meta.fileName}.` };
    });
  }

  /** An import that was never stored is "deleted" by opening, in its place, the dataset kept as the active one. */
  async function closeUnkept(meta: ImportedDataset): Promise<SwitchOutcome> {
    const keptId = (await activeImports().catch(() => ({}) as Partial<Record<DatasetName, string>>))[meta.dataset] ?? null;
    let opened: O;
    try {
      opened = keptId === null ? await worker.openBuiltIn(meta.dataset) : await worker.openImport(keptId);
    } catch (error) {
      return { ok: false, message: `The dataset kept before could not be opened to replace it (${message(error)}); ${meta.fileName} still answers.` };
    }
    install(meta.dataset, opened);
    return { ok: true, message: `Closed ${meta.fileName} (it was never stored); the dataset kept before is active again.` };
  }

  /** Another tab changed the active dataset: open the same one here, so every window answers alike. */
  function follow(change: ActiveChanged): void {
    if (worker.activeImport(change.dataset) === change.id) return;
    void exclusive(async () => {
      if (worker.activeImport(change.dataset) === change.id) return;
      try {
        const opened = change.id === null ? await worker.openBuiltIn(change.dataset) : await worker.openImport(change.id);
        install(change.dataset, opened);
      } catch (error) {
        console.error('db worker: cannot follow the dataset another tab chose', error);
      }
    });
  }

  async function choices(): Promise<DatasetChoices[]> {
    await worker.settled();
    const all = await listImports();
    return DATASET_NAMES.map((dataset) => {
      const active = worker.activeImport(dataset);
      const sessionOnly = unkept.get(dataset);
      return {
        dataset,
        active,
        builtIn: worker.builtInSource(dataset),
        imports: [...all.filter((item) => item.dataset === dataset), ...(sessionOnly?.id === active ? [sessionOnly] : [])],
      };
    });
  }

  return {
    importFile,
    importUrl,
    importBuiltIn,
    cancel(id: string): void {
      running.get(id)?.abort();
    },
    activate,
    remove,
    follow,
    choices,
  };
}

function tablesOf(db: Database): string[] {
  return (db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")[0]?.values ?? []).map((r) => String(r[0]));
}

export type { ImportReport };
