import type { DatasetArtifact } from '../../dataset/artifact/format.ts';
import { joinChunks, partialChunkName, partialChunkOffset, type PartialStore } from '../../dataset/artifact/partial-store.ts';
import { keptFiles, type KeptDirectory, type KeptFiles } from './kept-files.ts';

/** The directory (origin-private, or its IndexedDB stand-in) that holds the chunks of downloads under way. */
export const PARTIAL_DIRECTORY: KeptDirectory = 'partial-downloads';

/**
 * The chunks of dataset downloads, one file per chunk, wherever this browser keeps files (kept-files.ts), shared
 * by the DB worker and the service worker. A chunk a context dies writing is missing (a swap file, a record) or
 * short (a sync handle): the run of chunks ends before it, and the whole file is checked before use anyway.
 * Nowhere to keep them (or no write here): a cut download starts again at 0.
 */
export function partialStore(files: KeptFiles = keptFiles(PARTIAL_DIRECTORY)): PartialStore {
  const chunksOf = async (artifact: DatasetArtifact) => {
    const found: [number, string][] = [];
    for (const name of await files.names()) {
      const offset = partialChunkOffset(name, artifact);
      if (offset !== null) found.push([offset, name]);
    }
    return found;
  };
  return {
    async read(artifact) {
      const chunks = new Map<number, Uint8Array>();
      for (const [offset, name] of await chunksOf(artifact)) {
        const bytes = await files.read(name);
        if (bytes) chunks.set(offset, bytes);
      }
      return joinChunks(chunks);
    },
    async write(artifact, offset, bytes) {
      if (offset === 0) {
        // A download of this file from 0: what is kept of the dataset's other files (older builds) goes.
        for (const name of await files.names()) {
          if (name.startsWith(`${artifact.name}.`) && partialChunkOffset(name, artifact) === null) await files.remove(name).catch(() => {});
        }
      }
      await files.write(partialChunkName(artifact, offset), bytes);
    },
    async clear(artifact) {
      for (const [, name] of await chunksOf(artifact)) await files.remove(name).catch(() => {});
    },
  };
}
