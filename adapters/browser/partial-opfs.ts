import type { DatasetArtifact } from '../../dataset/artifact/format.ts';
import { joinChunks, partialChunkName, partialChunkOffset, type PartialStore } from '../../dataset/artifact/partial-store.ts';

/** The origin-private directory that holds the chunks of downloads under way. */
export const PARTIAL_DIRECTORY = 'partial-downloads';

/**
 * The chunks of dataset downloads in the origin-private file system, one file per chunk, shared by the DB
 * worker and the service worker. A chunk is written to a swap file that replaces it only on `close`, so a
 * context that dies mid-write leaves no torn chunk, only a missing one (the run then ends before it). Null
 * where the browser has no origin-private file system: a cut download then starts again at 0.
 */
export function opfsPartialStore(storage: StorageManager | undefined = globalThis.navigator?.storage): PartialStore | null {
  if (!storage?.getDirectory) return null;
  const directory = () => storage.getDirectory().then((root) => root.getDirectoryHandle(PARTIAL_DIRECTORY, { create: true }));
  const chunksOf = async (dir: FileSystemDirectoryHandle, artifact: DatasetArtifact) => {
    const found: [number, string][] = [];
    for await (const name of dir.keys()) {
      const offset = partialChunkOffset(name, artifact);
      if (offset !== null) found.push([offset, name]);
    }
    return found;
  };
  return {
    async read(artifact) {
      const dir = await directory();
      const chunks = new Map<number, Uint8Array>();
      for (const [offset, name] of await chunksOf(dir, artifact)) {
        chunks.set(offset, new Uint8Array(await (await (await dir.getFileHandle(name)).getFile()).arrayBuffer()));
      }
      return joinChunks(chunks);
    },
    async write(artifact, offset, bytes) {
      const dir = await directory();
      if (offset === 0) {
        // A download of this file from 0: what is kept of the dataset's other files (older builds) goes.
        for await (const name of dir.keys()) {
          if (name.startsWith(`${artifact.name}.`) && partialChunkOffset(name, artifact) === null) await dir.removeEntry(name).catch(() => {});
        }
      }
      const writable = await (await dir.getFileHandle(partialChunkName(artifact, offset), { create: true })).createWritable();
      await writable.write(bytes as Uint8Array<ArrayBuffer>);
      await writable.close();
    },
    async clear(artifact) {
      const dir = await directory();
      for (const [, name] of await chunksOf(dir, artifact)) await dir.removeEntry(name).catch(() => {});
    },
  };
}
