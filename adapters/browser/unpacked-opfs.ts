import type { DatasetArtifact } from '../../dataset/artifact/format.ts';
import { isOtherUnpackedFile, keptSha256, unpackedFileName, type KeptDatabase, type UnpackedStore } from '../../dataset/artifact/unpacked-store.ts';

/** The origin-private directory that holds the unpacked databases. */
export const UNPACKED_DIRECTORY = 'unpacked-datasets';

/**
 * Unpacked databases in the origin-private file system (docs/decisions/0405), read by the DB worker and
 * the service worker alike: the database file, a small JSON file with its download's date and row counts
 * (written last: a database without it is not whole), and the engine's prepared index beside them once
 * the engine offered one. `createWritable` writes to a swap file that replaces the file only on `close`,
 * so a reader never sees half a file, and two contexts writing the same artifact write the same bytes.
 * Every failure to read is a miss: the caller unpacks the verified download (or binds from the records)
 * instead. Null where the browser has no origin-private file system.
 */
export function opfsUnpackedStore(storage: StorageManager | undefined = globalThis.navigator?.storage): UnpackedStore | null {
  if (!storage?.getDirectory) return null;
  // Asked for once (two round trips to the browser), and again only after a failure.
  let opened: Promise<FileSystemDirectoryHandle> | null = null;
  const directory = () => {
    if (!opened) {
      opened = storage.getDirectory().then((root) => root.getDirectoryHandle(UNPACKED_DIRECTORY, { create: true }));
      opened.catch(() => (opened = null));
    }
    return opened;
  };
  const writeFile = async (dir: FileSystemDirectoryHandle, name: string, data: Uint8Array | string) => {
    const writable = await (await dir.getFileHandle(name, { create: true })).createWritable();
    await writable.write(data as Uint8Array<ArrayBuffer> | string);
    await writable.close();
  };
  /** The kept files of one artifact; `rawBytes` null: whatever size it has. Every failure is a miss. */
  const readArtifactFiles = async (
    dir: FileSystemDirectoryHandle,
    artifact: Pick<DatasetArtifact, 'name' | 'sha256'>,
    rawBytes: number | null,
    { withPrepared = true, background = false } = {},
  ): Promise<KeptDatabase | null> => {
    try {
      // The handles are asked for together: each is a round trip to the browser, which is busy while a page opens.
      const [metaHandle, file, preparedHandle] = await Promise.all([
        dir.getFileHandle(unpackedFileName(artifact, 'json')),
        dir.getFileHandle(unpackedFileName(artifact)),
        // Optional: the engine checks what it reads, and binds from the records without it.
        withPrepared ? dir.getFileHandle(unpackedFileName(artifact, 'prepared')).catch(() => null) : null,
      ]);
      const metaText = metaHandle.getFile().then((meta) => meta.text());
      const raw = await readWhole(file, { background, size: rawBytes });
      if (!raw) return null;
      const prepared = preparedHandle ? await readWhole(preparedHandle, { background }).catch(() => null) : null;
      const { fileDate, rows } = JSON.parse(await metaText) as { fileDate?: unknown; rows?: unknown };
      return {
        raw,
        fileDate: typeof fileDate === 'string' ? fileDate : null,
        ...(isRowCounts(rows) ? { rows } : {}),
        prepared,
      };
    } catch {
      return null;
    }
  };
  return {
    read: (artifact, { background = false } = {}) =>
      directory()
        .then((dir) => readArtifactFiles(dir, artifact, artifact.rawBytes, { background }))
        .catch(() => null),
    async readKept(name, wanted) {
      try {
        const dir = await directory();
        const kept: string[] = [];
        for await (const fileName of dir.keys()) {
          const sha256 = keptSha256(fileName, name);
          if (sha256) kept.push(sha256);
        }
        if (kept.length !== 1 || !wanted(kept[0])) return null;
        const database = await readArtifactFiles(dir, { name, sha256: kept[0] }, null, { withPrepared: false });
        return database && { sha256: kept[0], database };
      } catch {
        return null;
      }
    },
    async write(artifact, { raw, fileDate, rows }): Promise<void> {
      const dir = await directory();
      await dir.removeEntry(unpackedFileName(artifact, 'json')).catch(() => {});
      await writeFile(dir, unpackedFileName(artifact), raw);
      await writeFile(dir, unpackedFileName(artifact, 'json'), JSON.stringify({ fileDate, rows }));
      for await (const name of dir.keys()) {
        if (isOtherUnpackedFile(name, artifact)) await dir.removeEntry(name).catch(() => {});
      }
    },
    async writePrepared(artifact, prepared): Promise<void> {
      await writeFile(await directory(), unpackedFileName(artifact, 'prepared'), prepared);
    },
  };
}

/**
 * A whole file's bytes: through a synchronous access handle where there is one (a dedicated worker; about
 * half the time of a Blob read for a large file), else as a Blob. An access handle is exclusive: when another
 * context holds the file (a write under way), the Blob read is tried. `background`: always the Blob read, which
 * leaves this thread free meanwhile (a synchronous read of a large file holds it for a few hundred ms).
 * `size`: the length the file must have; null when it has another (no read then).
 */
async function readWhole(handle: FileSystemFileHandle, { background = false, size = null as number | null } = {}): Promise<Uint8Array | null> {
  if (!background && 'createSyncAccessHandle' in handle) {
    try {
      const access = await handle.createSyncAccessHandle();
      try {
        const length = access.getSize();
        if (size !== null && length !== size) return null;
        const bytes = new Uint8Array(length);
        if (access.read(bytes, { at: 0 }) === bytes.byteLength) return bytes;
      } finally {
        access.close();
      }
    } catch {
      // Fall through to the Blob read.
    }
  }
  const file = await handle.getFile();
  if (size !== null && file.size !== size) return null;
  return new Uint8Array(await file.arrayBuffer());
}

function isRowCounts(value: unknown): value is Record<string, number> {
  return !!value && typeof value === 'object' && Object.values(value).every((n) => Number.isSafeInteger(n) && (n as number) >= 0);
}
