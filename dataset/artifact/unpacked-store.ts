import type { DatasetArtifact } from './format.ts';

/** An unpacked database as it was kept, with the date the server gave its download. */
export interface StoredDatabase {
  raw: Uint8Array;
  /** The download's Last-Modified (ISO 8601), or null when the server sent none. */
  fileDate: string | null;
}

/**
 * Unpacked database files kept on this machine, one per dataset, named by the sha256 of the verified
 * gzip'd artifact they came from. Reopening a dataset then reads its file as it will be opened: no
 * download check, no gunzip. Only a file written from a verified artifact is ever stored, so a stored file
 * is trusted when its name (dataset and sha256) and its size match the manifest.
 */
export interface UnpackedStore {
  /** The stored file of this artifact, or null when there is none or it is not whole. */
  read(artifact: DatasetArtifact): Promise<StoredDatabase | null>;
  /** Keep the unpacked file of a verified artifact in place of the dataset's other stored files. */
  write(artifact: DatasetArtifact, stored: StoredDatabase): Promise<void>;
}

/** The stored file's name: the dataset and the artifact's sha256, so a new build never meets an old file. */
export function unpackedFileName(artifact: Pick<DatasetArtifact, 'name' | 'sha256'>, extension: 'sqlite' | 'json' = 'sqlite'): string {
  return `${artifact.name}.${artifact.sha256}.${extension}`;
}

/** True for a stored file of the same dataset from another artifact (another build, an older version). */
export function isOtherUnpackedFile(fileName: string, artifact: Pick<DatasetArtifact, 'name' | 'sha256'>): boolean {
  return fileName.startsWith(`${artifact.name}.`) && !fileName.startsWith(`${artifact.name}.${artifact.sha256}.`);
}
