import type { DatasetArtifact } from '../../dataset/artifact/format.ts';
import { isOtherUnpackedFile, keptSha256, unpackedFileName, type KeptDatabase, type UnpackedStore } from '../../dataset/artifact/unpacked-store.ts';
import { keptFiles, type KeptDirectory, type KeptFiles } from './kept-files.ts';

/** The directory (origin-private, or its IndexedDB stand-in) that holds the unpacked databases. */
export const UNPACKED_DIRECTORY: KeptDirectory = 'unpacked-datasets';

/**
 * Unpacked databases kept on this machine (docs/decisions/0405, 1200), read by the DB worker and the service worker
 * alike, wherever this browser keeps files (kept-files.ts): the database file, a small JSON file with its download's
 * date and row counts (written last, removed first: a database without it is not whole), and the engine's prepared
 * index beside them once the engine offered one. Two contexts writing the same artifact write the same bytes. Every
 * failure to read is a miss: the caller unpacks the verified download (or binds from the records) instead.
 */
export function unpackedStore(files: KeptFiles = keptFiles(UNPACKED_DIRECTORY)): UnpackedStore {
  /** The kept files of one artifact; `rawBytes` null: whatever size it has. Every failure is a miss. */
  const readArtifactFiles = async (
    artifact: Pick<DatasetArtifact, 'name' | 'sha256'>,
    rawBytes: number | null,
    { withPrepared = true, background = false } = {},
  ): Promise<KeptDatabase | null> => {
    try {
      // Asked for together: each is a round trip to the browser, which is busy while a page opens.
      const [metaBytes, raw, prepared] = await Promise.all([
        files.read(unpackedFileName(artifact, 'json')),
        files.read(unpackedFileName(artifact), { background, size: rawBytes }),
        // Optional: the engine checks what it reads, and binds from the records without it.
        withPrepared ? files.read(unpackedFileName(artifact, 'prepared'), { background }).catch(() => null) : null,
      ]);
      if (!metaBytes || !raw) return null;
      const { fileDate, rows } = JSON.parse(new TextDecoder().decode(metaBytes)) as { fileDate?: unknown; rows?: unknown };
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
    read: (artifact, { background = false } = {}) => readArtifactFiles(artifact, artifact.rawBytes, { background }),
    async readKept(name, wanted) {
      try {
        const kept = (await files.names()).map((fileName) => keptSha256(fileName, name)).filter((sha256) => sha256 !== null);
        if (kept.length !== 1 || !wanted(kept[0])) return null;
        const database = await readArtifactFiles({ name, sha256: kept[0] }, null, { withPrepared: false });
        return database && { sha256: kept[0], database };
      } catch {
        return null;
      }
    },
    async write(artifact, { raw, fileDate, rows }): Promise<void> {
      await files.remove(unpackedFileName(artifact, 'json'));
      await files.write(unpackedFileName(artifact), raw);
      await files.write(unpackedFileName(artifact, 'json'), JSON.stringify({ fileDate, rows }));
      for (const name of await files.names()) {
        if (isOtherUnpackedFile(name, artifact)) await files.remove(name).catch(() => {});
      }
    },
    async writePrepared(artifact, prepared): Promise<void> {
      await files.write(unpackedFileName(artifact, 'prepared'), prepared);
    },
  };
}

function isRowCounts(value: unknown): value is Record<string, number> {
  return !!value && typeof value === 'object' && Object.values(value).every((n) => Number.isSafeInteger(n) && (n as number) >= 0);
}
