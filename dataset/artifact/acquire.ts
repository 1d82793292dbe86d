/**
 * The one road a dataset file takes onto this machine (docs/decisions/0310), whoever asks: the DB worker's load,
 * its switches and extras, the service worker's engine and its update install. Platform-free: the stores, the
 * lock and the decoders are handed in.
 */
import type { DatasetArtifact, Manifest, PatchFile, TransferFile } from './format.ts';
import { transferArtifact } from './format.ts';
import { resolveDataUrl } from './manifest.ts';
import type { PartialStore } from './partial-store.ts';
import { downloadResumable, type DownloadProgress } from './resumable-download.ts';
import { verifyArtifact } from './verify.ts';
import { EarlyDecode } from './early-decode.ts';
import { decodable, decoderFor, unpackAs, type Decoders } from './unpack.ts';
import { patchedDatabase, patchFromKept } from './patch-update.ts';
import { NotWritableHere, type KeptDatabase, type UnpackedStore } from './unpacked-store.ts';

export type FetchFile = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Verified dataset files kept where every context of the app finds them (the service worker's data cache in a
 * browser): a file one context downloaded is not downloaded again by another.
 */
export interface VerifiedFiles {
  /** The kept file of this artifact (not yet checked), or null. */
  read(artifact: DatasetArtifact, url: string): Promise<{ gz: Uint8Array; fileDate: string | null } | null>;
  /** Keep a verified file. */
  write(artifact: DatasetArtifact, url: string, gz: Uint8Array, fileDate: string | null): Promise<void>;
  /**
   * Mark the set complete when every file of the manifest is kept (true then). `unpacked`: datasets whose
   * verified database is kept unpacked instead of their file (kept, or made from a patch): their file is not needed.
   */
  complete(
    manifest: Manifest,
    dataUrl: string,
    decoders: ReadonlySet<TransferFile['encoding']>,
    unpacked?: ReadonlySet<DatasetArtifact['name']>,
  ): Promise<boolean>;
}

/** Run `task` while holding the lock `name`, alone among every context of the origin (Web Locks), or at once without it. */
export type ExclusiveLock = <T>(name: string, task: () => Promise<T>) => Promise<T>;

/** The lock an artifact is acquired under: one context at a time brings a dataset file, whoever asks. */
export function acquireLockName(artifact: Pick<DatasetArtifact, 'sha256'>): string {
  return `offline-gov-api:download:${artifact.sha256}`;
}

/** Where acquisitions keep what they bring, and how contexts share it (each absent: not kept, not shared). */
export interface AcquirePlaces {
  /** Unpacked databases, read first and written once opened (absent: every opening unpacks). */
  unpacked?: UnpackedStore | null;
  /** A download's chunks as they arrive, so a cut one resumes (absent: it starts again at 0). */
  partials?: PartialStore | null;
  /** Verified files shared with the other contexts (the data cache of the manifest's version). */
  files?: VerifiedFiles | null;
  lock?: ExclusiveLock | null;
  /** Decoders of the smaller transfer copies (absent: the gzip'd file is downloaded). */
  decoders?: Decoders | null;
}

/** What is asked for: one artifact of the build at `dataUrl`, and how. */
export interface AcquireRequest {
  fetch: FetchFile;
  dataUrl: string;
  artifact: DatasetArtifact;
  /** 'reload' asks the server: no kept copy, patch or shared file stands for it (the download replaces the shared one). */
  cache?: RequestCache;
  /** False: no patch from the kept older file (the whole file is brought). */
  patch?: boolean;
  /** Read the kept copy without holding this thread. */
  background?: boolean;
  /** The network (and the lock) is used once this settles: files come one at a time, in the caller's order. */
  turn?: Promise<unknown>;
}

/** What the caller hears along the way (each optional), as a Workbox strategy tells its plugins. */
export interface AcquireEvents {
  /** No copy kept here will do: the file comes from the shared copy or the network. */
  onMiss?: () => void;
  /** Its first request left. */
  onRequest?: () => void;
  /** It needs the network no more: its last byte arrived (it is checked after, off the link), or none was needed. */
  onTransferred?: () => void;
  /** A patch was chosen (its size is what the progress then counts), or null: it failed, the whole file follows. */
  onPatch?: (patch: PatchFile | null) => void;
  onProgress?: (progress: DownloadProgress) => void;
  /** The bytes are all here and are being checked. */
  onVerify?: () => void;
  log?: (message: string, error: unknown) => void;
}

/** Where the bytes may be (places), what is asked (request) and who listens (events). */
export interface AcquireOptions extends AcquirePlaces, AcquireRequest {
  events?: AcquireEvents;
}

/** How the bytes were had: the unpacked copy kept here, a patch from an older one, another context's file, the network. */
export type Acquisition = 'kept' | 'patched' | 'shared' | 'downloaded';

export interface Acquired {
  how: Acquisition;
  artifact: DatasetArtifact;
  /** The file brought for it (the artifact's own, or its transfer copy) and its encoding. */
  file: ReturnType<typeof transferArtifact>;
  /** The verified file's bytes when a file was brought whole (shared, downloaded); else null. */
  gz: Uint8Array | null;
  /** The kept copy (rows counted and prepared index kept with it), when `how` is 'kept'. */
  kept: KeptDatabase | null;
  fileDate: string | null;
  /** Milliseconds from the call until the bytes were had, and when that was (performance.now()). */
  took: number;
  arrived: number;
  /** The database file, unpacked on the first call (CPU work: call it in its turn). */
  database(): Promise<Uint8Array>;
  /** Keep the unpacked database for the next opening: false when there is nowhere, nothing new to keep, or the write failed. */
  keep(rows: Record<string, number>): Promise<boolean>;
}

/**
 * Bring one artifact onto the machine, in one order: the unpacked copy kept here; then, under the artifact's
 * lock (so no two contexts ever bring the same file, and the second finds what the first kept), the kept copy
 * again, a patch from the older kept file, the verified file another context kept, and the resumable download
 * (decoded as it arrives where there is a decoder), verified and kept for the other contexts.
 */
export async function acquireArtifact(options: AcquireOptions): Promise<Acquired> {
  const { artifact, unpacked, cache = 'default' } = options;
  const started = performance.now();
  const file = transferArtifact(artifact, decodable(options.decoders));
  const log = options.events?.log ?? ((text, error) => console.error(text, error));
  const fromServer = cache === 'reload';
  /** `raw`: the database when it is already had (kept, patched, decoded as it arrived); else `gz` is unpacked. */
  const done = (how: Acquisition, got: { gz?: Uint8Array; raw?: Uint8Array | null; kept?: KeptDatabase; fileDate: string | null }) => {
    let raw: Promise<Uint8Array> | null = null;
    const result: Acquired = {
      how,
      artifact,
      file,
      gz: got.gz ?? null,
      kept: got.kept ?? null,
      fileDate: got.fileDate,
      took: performance.now() - started,
      arrived: performance.now(),
      database: () => (raw ??= got.raw ? Promise.resolve(got.raw) : unpackAs(file.encoding, got.gz!, artifact.rawBytes, options.decoders)),
      keep: async (rows) => {
        if (how === 'kept' || !unpacked) return false;
        try {
          await unpacked.write(artifact, { raw: await result.database(), fileDate: got.fileDate, rows });
          return true;
        } catch (error) {
          if (!(error instanceof NotWritableHere)) log(`cannot keep the unpacked ${artifact.name} dataset`, error);
          return false;
        }
      },
    };
    return result;
  };
  const keptCopy = (kept: KeptDatabase) => {
    options.events?.onProgress?.({ received: file.bytes, total: file.bytes, resumedAt: null });
    return done('kept', { kept, raw: kept.raw, fileDate: kept.fileDate });
  };
  const readKept = () => (fromServer || !unpacked ? Promise.resolve(null) : unpacked.read(artifact, { background: options.background }).catch(() => null));
  try {
    await Promise.resolve(options.turn).catch(() => {});
    const kept = await readKept();
    if (kept) return keptCopy(kept);
    options.events?.onMiss?.();
    const underLock = async (): Promise<Acquired> => {
      // Another context may have kept it while this one waited for the lock.
      const keptSince = await readKept();
      if (keptSince) return keptCopy(keptSince);
      const fetch: FetchFile = (url, init) => {
        options.events?.onRequest?.();
        return options.fetch(url, init);
      };
      if (!fromServer && options.patch !== false) {
        const raw = await patched({ ...options, fetch, log });
        if (raw) return done('patched', { raw, fileDate: null });
      }
      const url = resolveDataUrl(options.dataUrl, file.file);
      const shared = fromServer ? null : await sharedFile(options, file, url, log);
      if (shared && !(shared instanceof Error)) return done('shared', shared);
      const encoding = file.encoding;
      const early =
        encoding !== 'gzip' && options.decoders?.[encoding] ? new EarlyDecode(() => decoderFor(encoding, artifact.rawBytes, options.decoders)) : null;
      const downloaded = await downloadResumable({
        fetch,
        url,
        artifact: file,
        partials: options.partials ?? null,
        cache,
        onBytes: early?.feed,
        onProgress: (progress) => {
          options.events?.onProgress?.(progress);
          if (progress.received >= progress.total) options.events?.onTransferred?.();
        },
      }).catch((error: unknown) => {
        early?.abandon();
        // Offline with a damaged copy: the damage is the news, the failed download its consequence.
        if (shared instanceof Error) throw new Error(`${shared.message}; downloading it again failed: ${message(error)}`, { cause: error });
        throw error;
      });
      options.events?.onTransferred?.();
      options.events?.onVerify?.();
      await options.files
        ?.write(file, url, downloaded.gz, downloaded.fileDate)
        .catch((error: unknown) => log(`${file.file}: cannot keep the verified file`, error));
      return done('downloaded', { gz: downloaded.gz, raw: await early?.result(file.bytes), fileDate: downloaded.fileDate });
    };
    return await (options.lock ? options.lock(acquireLockName(artifact), underLock) : underLock());
  } finally {
    options.events?.onTransferred?.();
  }
}

/** The new database from the older kept file and the build's patch, or null: none to use, or it did not check out. */
async function patched(options: AcquireOptions & { fetch: FetchFile; log: (message: string, error: unknown) => void }): Promise<Uint8Array | null> {
  const { artifact, decoders = null } = options;
  const from = await patchFromKept(artifact, options.unpacked ?? null, decoders);
  if (!from) return null;
  options.events?.onPatch?.(from.patch);
  try {
    const patchFile = { ...artifact, file: from.patch.file, bytes: from.patch.bytes, sha256: from.patch.sha256, rawBytes: from.patch.patchBytes };
    const { gz } = await downloadResumable({
      fetch: options.fetch,
      url: resolveDataUrl(options.dataUrl, from.patch.file),
      artifact: patchFile,
      partials: options.partials ?? null,
      cache: options.cache,
      onProgress: options.events?.onProgress,
    });
    options.events?.onVerify?.();
    return await patchedDatabase(artifact, from, gz, decoders);
  } catch (error) {
    options.log(`${artifact.file}: the patch from the kept copy did not apply; downloading the whole file`, error);
    options.events?.onPatch?.(null);
    return null;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The verified file another context kept; null when there is none, the check's error when it is not the manifest's. */
async function sharedFile(
  options: AcquireOptions,
  file: DatasetArtifact,
  url: string,
  log: (message: string, error: unknown) => void,
): Promise<{ gz: Uint8Array; fileDate: string | null } | Error | null> {
  const found = await options.files?.read(file, url).catch(() => null);
  if (!found) return null;
  try {
    await verifyArtifact(found.gz, file);
  } catch (error) {
    log(`${file.file}: the kept copy is not the manifest's file; downloading it`, error);
    return error instanceof Error ? error : new Error(message(error));
  }
  options.events?.onProgress?.({ received: file.bytes, total: file.bytes, resumedAt: null });
  return found;
}
