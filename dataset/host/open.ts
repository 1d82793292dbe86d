import type { Database, SqlJsStatic } from 'sql.js';
import type { Manifest } from '../artifact/format.ts';
import type { Acquired } from '../artifact/acquire.ts';
import { unpack } from '../artifact/unpack.ts';
import { openHandedOver } from '../artifact/open-database.ts';
import { countRows } from '../sqlite-catalogue.ts';
import { datasetDefinition } from '../../engine/dataset-registry.ts';
import type { ImportedStore } from './imported-store.ts';
import type { ProgressReporter } from './progress.ts';
import { datasetStatus, type DatasetStatus } from './status.ts';

/** A database opened aside, with the status it will have once installed. */
export interface OpenedDataset {
  db: Database;
  status: DatasetStatus;
  /** The engine's prepared index kept beside this database file, for its bind (null: none kept). */
  prepared: Uint8Array | null;
  /** Whether its unpacked copy was kept for the next opening (written once this opening is served); absent: not written. */
  keeping?: Promise<boolean>;
}

/** Unpack and open an acquired build dataset (its turn has come), without installing it. */
export async function openAcquired(
  SQL: Promise<SqlJsStatic>,
  got: Acquired,
  manifest: Pick<Manifest, 'version'>,
  reporter: ProgressReporter,
): Promise<OpenedDataset> {
  const { artifact, kept } = got;
  const name = artifact.name;
  // Its turn: the datasets before it are open (this is when its CPU-bound steps may start).
  const turn = performance.now();
  reporter.report(name, 'decompress');
  const raw = await got.database();
  const unpacked = performance.now();
  reporter.report(name, 'open');
  const db = openHandedOver(await SQL, raw);
  // Counted once, when the file is first opened: the kept copy carries the counts of the same bytes.
  const rows = kept?.rows ?? countRows(db, Object.keys(artifact.rows));
  // Kept for the next opening, after this one is served: the write is not on the way to the first answer.
  const keeping = new Promise<boolean>((resolve) => setTimeout(() => void got.keep(rows).then(resolve), 0));
  return {
    db,
    prepared: kept?.prepared ?? null,
    keeping,
    status: datasetStatus({
      name,
      loaded: true,
      version: manifest.version,
      rows,
      bytes: got.file.bytes,
      rawBytes: raw.length,
      sha256: artifact.sha256,
      source: artifact.source ?? null,
      fileDate: got.fileDate,
      loadedAt: new Date().toISOString(),
      timings: {
        download: Math.round(got.took),
        queued: Math.max(0, Math.round(turn - got.arrived)),
        decompress: Math.round(unpacked - turn),
        open: Math.round(performance.now() - unpacked),
        bind: null,
        firstAnswer: null,
      },
    }),
  };
}

/** Unpack and open a stored import, without installing it. */
export async function openImported(SQL: Promise<SqlJsStatic>, store: ImportedStore, id: string, reporter: ProgressReporter): Promise<OpenedDataset> {
  const stored = await store.readImport(id);
  if (!stored) throw new Error(`the imported dataset ${id} is no longer stored in this browser`);
  const { meta, file } = stored;
  const started = performance.now();
  reporter.report(meta.dataset, 'decompress');
  const raw = await unpack(file, meta.rawBytes);
  const unpacked = performance.now();
  reporter.report(meta.dataset, 'open');
  const db = openHandedOver(await SQL, raw);
  // Kept by an earlier version: answers in today's layout.
  datasetDefinition(meta.dataset).upgrade?.(db);
  return {
    db,
    prepared: null,
    status: datasetStatus({
      name: meta.dataset,
      loaded: true,
      rows: countRows(db, Object.keys(meta.rows)),
      bytes: meta.bytes,
      rawBytes: raw.length,
      fileDate: meta.importedAt,
      loadedAt: new Date().toISOString(),
      timings: {
        download: 0,
        queued: 0,
        decompress: Math.round(unpacked - started),
        open: Math.round(performance.now() - unpacked),
        bind: null,
        firstAnswer: null,
      },
      importId: meta.id,
      importName: meta.fileName,
      source: meta.source ?? null,
    }),
  };
}
