import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetArtifact, Manifest } from '../artifact/format.ts';
import { readArtifact } from '../artifact/download.ts';
import { resolveDataUrl } from '../artifact/manifest.ts';
import { unpack } from '../artifact/unpack.ts';
import { openHandedOver } from '../artifact/open-database.ts';
import type { KeptDatabase, UnpackedStore } from '../artifact/unpacked-store.ts';
import { countRows } from '../sqlite-catalogue.ts';
import type { ImportedStore } from './imported-store.ts';
import type { ProgressReporter } from './progress.ts';
import { datasetStatus, type DatasetStatus } from './status.ts';

/** A database opened aside, with the status it will have once installed. */
export interface OpenedDataset {
  db: Database;
  status: DatasetStatus;
  /** The engine's prepared index kept beside this database file, for its bind (null: none kept). */
  prepared: Uint8Array | null;
}

export type FetchFile = (url: string, init: { cache: RequestCache }) => Promise<Response>;

/** The bytes of a build dataset: its verified gzip'd download, or the unpacked copy kept on this machine. */
export type DatasetBytes = { gz: Uint8Array; kept?: never } | { kept: KeptDatabase; gz?: never };

/** A build dataset's download, started at once; its CPU-bound steps wait for their turn (see DatasetHost). */
export interface PendingDownload {
  artifact: DatasetArtifact;
  bytes: Promise<DatasetBytes>;
  fileDate: string | null;
  started: number;
  downloaded: number;
  /** Where the unpacked file is kept once opened from a download (absent: not kept). */
  unpacked: UnpackedStore | null;
}

export interface DownloadOptions {
  fetchFile: FetchFile;
  dataUrl: string;
  artifact: DatasetArtifact;
  reporter: ProgressReporter;
  cache: RequestCache;
  unpacked?: UnpackedStore | null;
  /**
   * The kept copy is read once this settles: reading the first view's file alone is faster than reading
   * every file at once (a download, on a miss, starts at once all the same).
   */
  after?: Promise<unknown>;
}

/**
 * Start reading a build dataset: the unpacked copy kept on this machine when there is one (not on a
 * `reload`, which means "from the server"), else the download, verified against the manifest.
 */
export function startDownload({ fetchFile, dataUrl, artifact, reporter, cache, unpacked = null, after }: DownloadOptions): PendingDownload {
  const url = resolveDataUrl(dataUrl, artifact.file);
  const pending: PendingDownload = {
    artifact,
    bytes: Promise.resolve({ gz: new Uint8Array() }),
    fileDate: null,
    started: performance.now(),
    downloaded: 0,
    unpacked,
  };
  const download = async (): Promise<DatasetBytes> => {
    const response = await fetchFile(url, { cache });
    pending.fileDate = toIsoDate(response.headers.get('last-modified'));
    const gz = await readArtifact(
      response,
      url,
      artifact,
      (received) => reporter.bytes(artifact.name, received),
      () => reporter.report(artifact.name, 'verify'),
    );
    pending.downloaded = performance.now();
    return { gz };
  };
  const store = cache === 'reload' ? null : unpacked;
  const stored = store
    ? Promise.resolve(after)
        .catch(() => {})
        .then(() => store.read(artifact))
        .catch(() => null)
    : Promise.resolve(null);
  pending.bytes = stored.then((kept) => {
    if (!kept) return download();
    pending.fileDate = kept.fileDate;
    pending.downloaded = performance.now();
    reporter.bytes(artifact.name, artifact.bytes);
    return { kept };
  });
  // Failures are reported when this dataset's turn comes; until then the rejection is expected.
  pending.bytes.catch(() => {});
  return pending;
}

/** Unpack and open a downloaded build dataset (its turn has come), without installing it. */
export async function openDownloaded(
  SQL: Promise<SqlJsStatic>,
  pending: PendingDownload,
  manifest: Manifest,
  reporter: ProgressReporter,
): Promise<OpenedDataset> {
  const { artifact } = pending;
  const name = artifact.name;
  const { gz, kept } = await pending.bytes;
  // Its turn: the datasets before it are open (this is when its CPU-bound steps may start).
  const turn = performance.now();
  reporter.report(name, 'decompress');
  const raw = kept ? kept.raw : await unpack(gz!, artifact.rawBytes);
  const unpacked = performance.now();
  reporter.report(name, 'open');
  const db = openHandedOver(await SQL, raw);
  // Counted once, when the file is first opened: the kept copy carries the counts of the same bytes.
  const rows = kept?.rows ?? countRows(db, Object.keys(artifact.rows));
  // Kept for the next opening, after this one is served: the write is not on the way to the first answer.
  if (gz && pending.unpacked) {
    const store = pending.unpacked;
    const copy = { raw, fileDate: pending.fileDate, rows };
    setTimeout(() => void store.write(artifact, copy).catch((error: unknown) => console.error(`cannot keep the unpacked ${name} dataset`, error)), 0);
  }
  return {
    db,
    prepared: kept?.prepared ?? null,
    status: datasetStatus({
      name,
      loaded: true,
      version: manifest.version,
      rows,
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
  const db = openHandedOver(await SQL, raw);
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
      timings: { download: 0, queued: 0, decompress: Math.round(unpacked - started), open: Math.round(performance.now() - unpacked) },
      importId: meta.id,
      importName: meta.fileName,
      source: meta.source ?? null,
    }),
  };
}

function toIsoDate(httpDate: string | null): string | null {
  if (!httpDate) return null;
  const time = Date.parse(httpDate);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
