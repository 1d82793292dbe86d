import type { DatasetArtifact } from '../../dataset/artifact/format.ts';
import { isOtherUnpackedFile, unpackedFileName, type StoredDatabase, type UnpackedStore } from '../../dataset/artifact/unpacked-store.ts';

/** The origin-private directory that holds the unpacked databases. */
export const UNPACKED_DIRECTORY = 'unpacked-datasets';

/**
 * Unpacked databases in the origin-private file system (docs/decisions/0405), read by the DB worker and
 * the service worker alike: the database file and a small JSON file with its download's date, the JSON
 * written last (a database without it is not whole). `createWritable` writes to a swap file that replaces
 * the file only on `close`, so a reader never sees half a file, and two contexts writing the same artifact
 * write the same bytes. Every failure to read is a miss: the caller unpacks the verified download instead.
 * Null where the browser has no origin-private file system.
 */
export function opfsUnpackedStore(storage: StorageManager | undefined = globalThis.navigator?.storage): UnpackedStore | null {
  if (!storage?.getDirectory) return null;
  const directory = () => storage.getDirectory().then((root) => root.getDirectoryHandle(UNPACKED_DIRECTORY, { create: true }));
  const writeFile = async (dir: FileSystemDirectoryHandle, name: string, data: Uint8Array | string) => {
    const writable = await (await dir.getFileHandle(name, { create: true })).createWritable();
    await writable.write(data as Uint8Array<ArrayBuffer> | string);
    await writable.close();
  };
  return {
    async read(artifact: DatasetArtifact): Promise<StoredDatabase | null> {
      try {
        const dir = await directory();
        const [meta, file] = await Promise.all([
          dir.getFileHandle(unpackedFileName(artifact, 'json')).then((h) => h.getFile()),
          dir.getFileHandle(unpackedFileName(artifact)).then((h) => h.getFile()),
        ]);
        if (file.size !== artifact.rawBytes) return null;
        const { fileDate } = JSON.parse(await meta.text()) as { fileDate: string | null };
        return { raw: new Uint8Array(await file.arrayBuffer()), fileDate: typeof fileDate === 'string' ? fileDate : null };
      } catch {
        return null;
      }
    },
    async write(artifact: DatasetArtifact, { raw, fileDate }: StoredDatabase): Promise<void> {
      const dir = await directory();
      await dir.removeEntry(unpackedFileName(artifact, 'json')).catch(() => {});
      await writeFile(dir, unpackedFileName(artifact), raw);
      await writeFile(dir, unpackedFileName(artifact, 'json'), JSON.stringify({ fileDate }));
      for await (const name of dir.keys()) {
        if (isOtherUnpackedFile(name, artifact)) await dir.removeEntry(name).catch(() => {});
      }
    },
  };
}
