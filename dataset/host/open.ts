import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetArtifact, Manifest } from '../artifact/format.ts';
import { readArtifact } from '../artifact/download.ts';
import { resolveDataUrl } from '../artifact/manifest.ts';
import { unpack } from '../artifact/unpack.ts';
import { countRows } from '../inspect.ts';
import type { ImportedStore } from './imported-store.ts';
import type { ProgressReporter } from './progress.ts';
import { datasetStatus, type DatasetStatus } from './status.ts';

/** A database opened aside, with the status it will have once installed. */
export interface OpenedDataset {
  db: Database;
  status: DatasetStatus;
}

export type FetchFile = (url: string, init: { cache: RequestCache }) => Promise<Response>;

/** A build dataset's download, started at once; its CPU-bound steps wait for their turn (see DatasetHost). */
export interface PendingDownload {
  artifact: DatasetArtifact;
  gz: Promise<Uint8Array>;
  fileDate: string | null;
  started: number;
  downloaded: number;
}

export function startDownload(fetchFile: FetchFile, dataUrl: string, artifact: DatasetArtifact, reporter: ProgressReporter, cache: RequestCache): PendingDownload {
  const url = resolveDataUrl(dataUrl, artifact.file);
  const pending: PendingDownload = { artifact, gz: Promise.resolve(new Uint8Array()), fileDate: null, started: performance.now(), downloaded: 0 };
  pending.gz = fetchFile(url, { cache }).then(async (response) => {
    pending.fileDate = toIsoDate(response.headers.get('last-modified'));
    const gz = await readArtifact(
      response,
      url,
      artifact,
      (received) => reporter.bytes(artifact.name, received),
      () => reporter.report(artifact.name, 'verify'),
    );
    pending.downloaded = performance.now();
    return gz;
  });
  // Failures are reported when this dataset's turn comes; until then the rejection is expected.
  pending.gz.catch(() => {});
  return pending;
}

/** Unpack and open a downloaded build dataset (its turn has come), without installing it. */
export async function openDownloaded(SQL: Promise<SqlJsStatic>, pending: PendingDownload, manifest: Manifest, reporter: ProgressReporter): Promise<OpenedDataset> {
  const { artifact } = pending;
  const name = artifact.name;
  const gz = await pending.gz;
  // Its turn: the datasets before it are open (this is when its CPU-bound steps may start).
  const turn = performance.now();
  reporter.report(name, 'decompress');
  const raw = await unpack(gz, artifact.rawBytes);
  const unpacked = performance.now();
  reporter.report(name, 'open');
  const db = new (await SQL).Database(raw);
  return {
    db,
    status: datasetStatus({
      name,
      loaded: true,
      version: manifest.version,
      rows: countRows(db, Object.keys(artifact.rows)),
      bytes: artifact.bytes,
      rawBytes: raw.length,
      sha256: artifact.sha256,
      source: artifact.source ?? null,
      fileDate: pending.fileDate,
      loadedAt: new Date().toISOString(),
      timings: {
        download: Math.round(pending.downloaded - pending.started),
        queued: Math.round(turn - pending.downloaded),
        decompress: Math.round(unpacked - turn),
        open: Math.round(performance.now() - unpacked),
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
  const db = new (await SQL).Database(raw);
  return {
    db,
    status: datasetStatus({
      name: meta.dataset,
      loaded: true,
      rows: countRows(db, Object.keys(meta.rows)),
      bytes: meta.bytes,
      rawBytes: raw.length,
      fileDate: meta.importedAt,
      loadedAt: new Date().toISOString(),
      timings: { download: 0, queued: 0, decompress: Math.round(unpacked - started), open: Math.round(performance.now() - unpacked) },
      importId: meta.id,
      importName: meta.fileName,
    }),
  };
}

function toIsoDate(httpDate: string | null): string | null {
  if (!httpDate) return null;
  const time = Date.parse(httpDate);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
