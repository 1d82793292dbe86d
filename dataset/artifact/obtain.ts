import type { DatasetArtifact, Manifest, TransferFile } from './format.ts';
import { downloadResumable, type DownloadedArtifact, type ResumableDownload } from './resumable-download.ts';
import { verifyArtifact } from './verify.ts';

/**
 * Verified dataset files kept where every context of the app finds them (the service worker's data cache in a
 * browser): a file the DB worker downloaded is not downloaded again by the service worker, nor the reverse.
 */
export interface VerifiedFiles {
  /** The kept file of this artifact (not yet checked), or null. */
  read(artifact: DatasetArtifact, url: string): Promise<{ gz: Uint8Array; fileDate: string | null } | null>;
  /** Keep a verified file. */
  write(artifact: DatasetArtifact, url: string, gz: Uint8Array, fileDate: string | null): Promise<void>;
  /**
   * Mark the set complete when every file of the manifest is kept, each as this context downloads it (true
   * then). `unpacked`: datasets whose verified database is kept unpacked instead of their file (made from the
   * older copy and a patch, patch-update.ts): their file is not needed.
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

/** The lock a download of this artifact holds: one download of a file at a time, whoever asks. */
export function downloadLockName(artifact: Pick<DatasetArtifact, 'sha256'>): string {
  return `offline-gov-api:download:${artifact.sha256}`;
}

export interface ObtainOptions extends ResumableDownload {
  files?: VerifiedFiles | null;
  /** False: the kept copy is not read (a reset asks the server), but the download still replaces it. */
  useKept?: boolean;
  lock?: ExclusiveLock | null;
  log?: (message: string, error: unknown) => void;
}

/**
 * A dataset file, verified: the copy another context already downloaded when there is one, else the download
 * (resumed where a cut one stopped), kept for the other contexts. Under the file's lock, so the DB worker and
 * the service worker never download the same file at once: the second waits and finds the first one's copy.
 */
export function obtainArtifact(options: ObtainOptions): Promise<DownloadedArtifact> {
  const { artifact, url, files, lock } = options;
  const log = options.log ?? ((text, error) => console.error(text, error));
  const run = async (): Promise<DownloadedArtifact> => {
    const found = options.useKept === false ? null : await files?.read(artifact, url).catch(() => null);
    let keptFailed: unknown = null;
    if (found) {
      try {
        await verifyArtifact(found.gz, artifact);
        options.onProgress?.({ received: artifact.bytes, total: artifact.bytes, resumedAt: null });
        return { gz: found.gz, fileDate: found.fileDate, resumedAt: null, transferred: 0 };
      } catch (error) {
        keptFailed = error;
        log(`${artifact.file}: the kept copy is not the manifest's file; downloading it`, error);
      }
    }
    let downloaded: DownloadedArtifact;
    try {
      downloaded = await downloadResumable(options);
    } catch (error) {
      // Offline with a damaged copy: the damage is the news, the failed download its consequence.
      if (keptFailed instanceof Error)
        throw new Error(`${keptFailed.message}; downloading it again failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      throw error;
    }
    if (files)
      await files
        .write(artifact, url, downloaded.gz, downloaded.fileDate)
        .catch((error: unknown) => log(`${artifact.file}: cannot keep the verified file`, error));
    return downloaded;
  };
  return lock ? lock(downloadLockName(artifact), run) : run();
}
