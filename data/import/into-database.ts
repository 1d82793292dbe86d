/**
 * The import driver: a fresh database with the dataset's schema, filled batch by batch from the import
 * core. The caller swaps it in only when this resolves; on any failure the new database is closed and an
 * ImportError thrown, so no existing database is ever touched.
 */
import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetName } from '../../worker/engine/http/types.ts';
import type { CeilingRateRecord } from '../../worker/engine/ceilingrates/record.ts';
import { datasetDefinition } from '../datasets.ts';
import { insertWebsites } from '../schema/websites.ts';
import { insertCeilingRates } from '../schema/ceilingrates.ts';
import { ImportError, isImportError, throwIfAborted } from './errors.ts';
import { startImport, type AnyImportRun, type ImportOptions } from './import.ts';
import type { ImportFormat } from './formats.ts';
import type { ImportReport } from './report.ts';
import type { ImportSource } from './source.ts';

export interface ImportResult {
  db: Database;
  dataset: DatasetName;
  format: ImportFormat;
  report: ImportReport;
}

async function fill(db: Database, run: AnyImportRun, signal: AbortSignal | undefined): Promise<void> {
  if (run.dataset === 'websites') {
    for await (const batch of run.batches) {
      throwIfAborted(signal);
      insertWebsites(db, batch);
    }
  } else {
    for await (const batch of run.batches) {
      throwIfAborted(signal);
      // The schema stores a NULL min_years_experience; the engine's record type is narrower (decision 0503).
      insertCeilingRates(db, batch as CeilingRateRecord[]);
    }
  }
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
    datasetDefinition(run.dataset).createSchema(db);
    await fill(db, run, options.signal);
    throwIfAborted(options.signal);
    return { db, dataset: run.dataset, format: run.format, report: run.report };
  } catch (error) {
    db?.close();
    throw isImportError(error) ? error : databaseError(error);
  }
}
