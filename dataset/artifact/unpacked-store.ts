import type { DatasetArtifact } from './format.ts';
import type { DatasetName } from '../../engine/http/types.ts';

/** An unpacked database as it is kept, with the date the server gave its download. */
export interface StoredDatabase {
  raw: Uint8Array;
  /** The download's Last-Modified (ISO 8601), or null when the server sent none. */
  fileDate: string | null;
  /** Row count per table, counted when the file was first opened (absent in copies kept before they were). */
  rows?: Record<string, number>;
}

/** A kept database as read back: the file, and the engine's prepared index of it when one was kept too. */
export interface KeptDatabase extends StoredDatabase {
  /** What the engine offered to keep after binding this file (`EngineEvents.preparedReady`), or null. */
  prepared: Uint8Array | null;
}

/**
 * Unpacked database files kept on this machine, one per dataset, named by the sha256 of the verified
 * gzip'd artifact they came from. Reopening a dataset then reads its file as it will be opened: no
 * download check, no gunzip, and (with the prepared index beside it) no bind over the records. Only a file
 * written from a verified artifact is ever stored, so a stored file is trusted when its name (dataset and
 * sha256) and its size match the manifest; the prepared index is checked by the engine that reads it.
 */
export interface UnpackedStore {
  /**
   * The stored file of this artifact, or null when there is none or it is not whole. `background`: read without
   * holding this thread (slower, but the answers of a dataset already open are not held behind it).
   */
  read(artifact: DatasetArtifact, options?: ReadOptions): Promise<KeptDatabase | null>;
  /**
   * The one file kept for a dataset, whichever artifact it came from (named by that artifact's sha256), read only
   * when `wanted` takes that sha256 (a patch from it to the manifest's artifact: patch-update.ts); without its
   * prepared index. Null when none or several are kept, or it is not wanted.
   */
  readKept(name: DatasetName, wanted: (sha256: string) => boolean): Promise<{ sha256: string; database: KeptDatabase } | null>;
  /** Keep the unpacked file of a verified artifact in place of the dataset's other stored files. */
  write(artifact: DatasetArtifact, stored: StoredDatabase): Promise<void>;
  /** Keep the engine's prepared index of an artifact's file beside it. */
  writePrepared(artifact: DatasetArtifact, prepared: Uint8Array): Promise<void>;
}

/**
 * What a store's write rejects with in a context that cannot write where the files are kept (a service worker of a
 * browser whose origin-private files only a dedicated worker can write): another context keeps them; not a failure.
 */
export class NotWritableHere extends Error {
  override name = 'NotWritableHere';
}

export interface ReadOptions {
  background?: boolean;
}

export type UnpackedFileKind = 'sqlite' | 'json' | 'prepared';

/** The stored file's name: the dataset and the artifact's sha256, so a new build never meets an old file. */
export function unpackedFileName(artifact: Pick<DatasetArtifact, 'name' | 'sha256'>, kind: UnpackedFileKind = 'sqlite'): string {
  return `${artifact.name}.${artifact.sha256}.${kind}`;
}

/** The artifact sha256 in a kept file's name when it is the `kind` file of dataset `name`, else null. */
export function keptSha256(fileName: string, name: DatasetName, kind: UnpackedFileKind = 'json'): string | null {
  const prefix = `${name}.`;
  const suffix = `.${kind}`;
  if (!fileName.startsWith(prefix) || !fileName.endsWith(suffix)) return null;
  const sha256 = fileName.slice(prefix.length, -suffix.length);
  return /^[0-9a-f]{64}$/.test(sha256) ? sha256 : null;
}

/** True for a stored file of the same dataset from another artifact (another build, an older version). */
export function isOtherUnpackedFile(fileName: string, artifact: Pick<DatasetArtifact, 'name' | 'sha256'>): boolean {
  return fileName.startsWith(`${artifact.name}.`) && !fileName.startsWith(`${artifact.name}.${artifact.sha256}.`);
}

/**
 * Compute the engine's prepared index (`EngineEvents.preparedReady`) and keep it beside the artifact's file.
 * Never throws: a failure is logged, and the next opening binds from the records as before.
 */
export function keepPreparedIndex(
  store: UnpackedStore,
  artifact: DatasetArtifact,
  prepared: () => Uint8Array,
  log: (text: string, error: unknown) => void,
): void {
  let bytes: Uint8Array;
  try {
    bytes = prepared();
  } catch (error) {
    log(`the prepared ${artifact.name} index cannot be kept`, error);
    return;
  }
  store.writePrepared(artifact, bytes).catch((error: unknown) => {
    if (!(error instanceof NotWritableHere)) log(`cannot keep the prepared ${artifact.name} index`, error);
  });
}
