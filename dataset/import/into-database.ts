/**
 * The import driver: a fresh database with the dataset's schema, filled batch by batch from the import
 * core. The caller swaps it in only when this resolves; on any failure the new database is closed and an
 * ImportError thrown, so no existing database is ever touched.
 */
import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetName } from '../../engine/http/types.ts';
import { datasetDefinition } from '../../engine/dataset-registry.ts';
import { ImportError, isImportError, throwIfAborted } from './errors.ts';
import { startImport, type AnyImportRun, type ImportOptions } from './import.ts';
import type { ImportFormat } from './formats.ts';
import type { ImportTarget } from './target.ts';
import { importTarget } from './targets.ts';
import type { ImportReport } from './report.ts';
import type { ImportSource } from './source.ts';

export interface ImportResult {
  db: Database;
  dataset: DatasetName;
  format: ImportFormat;
  report: ImportReport;
}

/** Batches go into the database as they come, so at most one batch of records is held (decision 0504). */
async function fill(db: Database, run: AnyImportRun, options: ImportOptions): Promise<void> {
  const target = importTarget(run.dataset) as ImportTarget;
  let pending: unknown[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    const { report } = run;
    options.onProgress?.({
      phase: 'inserting',
      bytesRead: report.bytesRead,
      totalBytes: run.totalBytes,
      rowsImported: report.rowsImported,
      rowsRejected: report.rowsRejected,
    });
    target.insert(db, pending);
    pending = [];
  };
  for await (const batch of run.batches as AsyncIterable<unknown[]>) {
    throwIfAborted(options.signal);
    for (const record of batch) pending.push(record);
    if (pending.length >= target.insertEvery) flush();
  }
  throwIfAborted(options.signal);
  flush();
  target.finish(db);
}

function databaseError(error: unknown): ImportError {
  const message = error instanceof Error ? error.message : String(error);
  const memory = /memory|allocation|quota/i.test(message);
  return new ImportError(
    'database',
    memory
      ? 'There is not enough memory to build the imported dataset. Nothing was changed.'
      : `Building the imported dataset failed (${message}). Nothing was changed.`,
    { cause: error },
  );
}

/**
 * Imports `source` into a new database. Resolves with the database, its dataset and the report; rejects
 * with an ImportError (wrong format, truncated, malformed, no valid rows, cancelled, database).
 */
export async function importIntoDatabase(SQL: SqlJsStatic, source: ImportSource, options: ImportOptions = {}): Promise<ImportResult> {
  const run = await startImport(source, options);
  let db: Database | null = null;
  try {
    db = new SQL.Database();
    // No rollback journal: a failed import throws the whole new database away, so a journal would only be a
    // copy of every page a batch changes (the sort-key pass changes them all), held in memory.
    db.run('PRAGMA journal_mode = OFF');
    datasetDefinition(run.dataset).createSchema(db);
    await fill(db, run, options);
    throwIfAborted(options.signal);
    return { db, dataset: run.dataset, format: run.format, report: run.report };
  } catch (error) {
    db?.close();
    throw isImportError(error) ? error : databaseError(error);
  }
}
