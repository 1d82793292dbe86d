import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetArtifact, Manifest } from '../artifact/format.ts';
import { obtainArtifact, type ExclusiveLock, type VerifiedFiles } from '../artifact/obtain.ts';
import type { PartialStore } from '../artifact/partial-store.ts';
import { resolveDataUrl } from '../artifact/manifest.ts';
import { decodable, decoderFor, unpack, unpackAs, type Decoders } from '../artifact/unpack.ts';
import { EarlyDecode } from '../artifact/early-decode.ts';
import { updateByPatch } from '../artifact/patch-update.ts';
import type { DownloadProgress } from '../artifact/resumable-download.ts';
import { transferArtifact } from '../artifact/format.ts';
import { openHandedOver } from '../artifact/open-database.ts';
import type { KeptDatabase, UnpackedStore } from '../artifact/unpacked-store.ts';
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

export type FetchFile = (url: string, init: RequestInit) => Promise<Response>;

/** The bytes of a build dataset: its verified gzip'd download, or the unpacked copy kept on this machine. */
/**
 * `decoded`: the database, when the transfer copy was decoded as it arrived (early-decode.ts). `patched`: the
 * database made from the copy kept here and a downloaded patch (patch-update.ts), verified.
 */
export type DatasetBytes =
  | { gz: Uint8Array; decoded?: Uint8Array | null; kept?: never; patched?: never }
  | { kept: KeptDatabase; gz?: never; decoded?: never; patched?: never }
  | { patched: Uint8Array; gz?: never; decoded?: never; kept?: never };

/** A build dataset's download, started at once; its CPU-bound steps wait for their turn (see DatasetHost). */
export interface PendingDownload {
  artifact: DatasetArtifact;
  bytes: Promise<DatasetBytes>;
  fileDate: string | null;
  started: number;
  downloaded: number;
  /** Where the unpacked file is kept once opened from a download (absent: not kept). */
  unpacked: UnpackedStore | null;
  /**
   * Settles when this dataset no longer needs the network: its last byte arrived (it is checked and decoded
   * after, off the link), it failed, or it was read from this machine. The next download starts then.
   */
  transfer: Promise<void>;
  /** Settles once its bytes are on their way: its first request sent, or no request needed (or it failed). */
  requested: Promise<void>;
  /** The file downloaded for it (the artifact's own, or its smaller transfer copy) and how it is encoded. */
  file: ReturnType<typeof transferArtifact>;
  decoders: Decoders | null;
}

/** Where downloads keep what arrives, and how contexts share them (all absent: plain downloads). */
export interface DownloadPlaces {
  partials?: PartialStore | null;
  files?: VerifiedFiles | null;
  lock?: ExclusiveLock | null;
  /** Decoders of the transfer encodings (absent: the gzip'd artifact is downloaded). */
  decoders?: Decoders | null;
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
  /** Read the kept copy without holding this thread: the answers of a dataset opened before it go out meanwhile. */
  background?: boolean;
  /** The download (if one is needed) starts once this settles: downloads go one at a time, in the load's order. */
  downloadAfter?: Promise<unknown>;
  places?: DownloadPlaces;
  /** Where a failure the load recovers from is logged (a patch that did not apply). */
  log?: (message: string, error: unknown) => void;
  /** Called when no unpacked copy on this machine will do: the file is downloaded (or read from the shared data cache). */
  onDownload?: () => void;
}

/**
 * Start reading a build dataset: the unpacked copy kept on this machine when there is one (not on a
 * `reload`, which means "from the server"), else the download, verified against the manifest.
 */
export function startDownload({
  fetchFile,
  dataUrl,
  artifact,
  reporter,
  cache,
  unpacked = null,
  after,
  background = false,
  downloadAfter,
  places = {},
  onDownload,
  log,
}: DownloadOptions): PendingDownload {
  const file = transferArtifact(artifact, decodable(places.decoders));
  const url = resolveDataUrl(dataUrl, file.file);
  let transferred!: () => void;
  let requested!: () => void;
  const fetchNoted: FetchFile = (...args) => {
    requested();
    return fetchFile(...args);
  };
  const onProgress = (progress: DownloadProgress) => {
    reporter.bytes(artifact.name, progress);
    if (progress.received >= progress.total) transferred();
  };
  const pending: PendingDownload = {
    artifact,
    bytes: Promise.resolve({ gz: new Uint8Array() }),
    fileDate: null,
    started: performance.now(),
    downloaded: 0,
    unpacked,
    transfer: new Promise<void>((resolve) => (transferred = resolve)),
    requested: new Promise<void>((resolve) => (requested = resolve)),
    file,
    decoders: places.decoders ?? null,
  };
  const download = async (): Promise<DatasetBytes> => {
    onDownload?.();
    await Promise.resolve(downloadAfter).catch(() => {});
    // A new version of a dataset whose older file is kept here: only what changed, when that is smaller.
    if (cache !== 'reload') {
      let patching = false;
      const patched = await updateByPatch({
        fetch: fetchNoted,
        dataUrl,
        artifact,
        unpacked,
        decoders: places.decoders ?? null,
        partials: places.partials ?? null,
        lock: places.lock ?? null,
        cache,
        onPatch: (patch) => {
          patching = true;
          reporter.expect(artifact.name, patch.bytes, { patch: true });
        },
        onProgress,
        onApplying: () => reporter.report(artifact.name, 'decompress'),
        log,
      });
      if (patched) {
        pending.downloaded = performance.now();
        return { patched };
      }
      // The patch failed: the whole file, counted from 0.
      if (patching) reporter.expect(artifact.name, file.bytes);
    }
    // A transfer copy is decoded as it arrives (gzip is unpacked natively, off this thread, after the check).
    const encoding = file.encoding;
    const early = encoding !== 'gzip' && places.decoders?.[encoding] ? new EarlyDecode(() => decoderFor(encoding, artifact.rawBytes, places.decoders)) : null;
    const got = await obtainArtifact({
      fetch: fetchNoted,
      url,
      artifact: file,
      cache,
      partials: places.partials ?? null,
      files: places.files ?? null,
      // A reset ('reload') asks the server: the copy kept for the other contexts does not stand for it, and
      // the server's verified copy replaces it (a damaged copy is repaired, not met again offline).
      useKept: cache !== 'reload',
      lock: places.lock ?? null,
      onProgress,
      onBytes: early?.feed,
    }).catch((error: unknown) => {
      early?.abandon();
      throw error;
    });
    reporter.report(artifact.name, 'verify');
    pending.fileDate = got.fileDate;
    pending.downloaded = performance.now();
    return { gz: got.gz, decoded: (await early?.result(file.bytes)) ?? null };
  };
  const store = cache === 'reload' ? null : unpacked;
  const stored = store
    ? Promise.resolve(after)
        .catch(() => {})
        .then(() => store.read(artifact, { background }))
        .catch(() => null)
    : Promise.resolve(null);
  pending.bytes = stored.then((kept) => {
    if (!kept) return download();
    pending.fileDate = kept.fileDate;
    pending.downloaded = performance.now();
    reporter.bytes(artifact.name, { received: file.bytes, total: file.bytes, resumedAt: null });
    return { kept };
  });
  pending.bytes.then(transferred, transferred);
  pending.bytes.then(requested, requested);
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
  const { gz, kept, decoded, patched } = await pending.bytes;
  // Its turn: the datasets before it are open (this is when its CPU-bound steps may start).
  const turn = performance.now();
  reporter.report(name, 'decompress');
  const raw = kept ? kept.raw : (patched ?? decoded ?? (await unpackAs(pending.file.encoding, gz!, artifact.rawBytes, pending.decoders)));
  const unpacked = performance.now();
  reporter.report(name, 'open');
  const db = openHandedOver(await SQL, raw);
  // Counted once, when the file is first opened: the kept copy carries the counts of the same bytes.
  const rows = kept?.rows ?? countRows(db, Object.keys(artifact.rows));
  // Kept for the next opening, after this one is served: the write is not on the way to the first answer.
  let keeping = Promise.resolve(false);
  if ((gz || patched) && pending.unpacked) {
    const store = pending.unpacked;
    const copy = { raw, fileDate: pending.fileDate, rows };
    keeping = new Promise((resolve) =>
      setTimeout(
        () =>
          store.write(artifact, copy).then(
            () => resolve(true),
            (error: unknown) => {
              console.error(`cannot keep the unpacked ${name} dataset`, error);
              resolve(false);
            },
          ),
        0,
      ),
    );
  }
  return {
    db,
    prepared: kept?.prepared ?? null,
    keeping,
    status: datasetStatus({
      name,
      loaded: true,
      version: manifest.version,
      rows,
      bytes: pending.file.bytes,
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
