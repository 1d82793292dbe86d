/**
 * The real weeks as the tests compare them: three weeks' imports (the first, partial; one from the middle; the
 * newest) and the weeks attachment, from the real fixtures (real-fixtures.ts), and a build's data directory made of
 * them for the doors that read a build (`serve`, `load`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import { MANIFEST_FILE, type DatasetArtifact, type DatasetSource, type Manifest } from '../dataset/artifact/format.ts';
import { manifestVersion } from '../dataset/artifact/manifest.ts';
import { countRows } from '../dataset/sqlite-catalogue.ts';
import { datasetDefinition } from '../engine/dataset-registry.ts';
import { artifactOf, gzipDatabase } from '../adapters/node/datasets/dataset-writer.ts';
import { realWeek, realWeeks } from './real-fixtures.ts';

/** The weeks compared with their imports: the first (partial), one from the middle, the newest. */
export const COMPARED_WEEKS = ['2025-02-10', '2025-03-17', '2025-06-09'] as const;
export type ComparedWeek = (typeof COMPARED_WEEKS)[number];

/** The fixtures the compared weeks need, as the global setups name them (real-fixtures.ts). */
export const WEEKS_FIXTURES = [...COMPARED_WEEKS.map((date) => `week:${date}`), 'weeks'];

/**
 * A build's data directory made of the fixtures (the newest week's import as the websites dataset, the weeks as the
 * attachment's extra, gzip'd as the build ships them but faster).
 */
export async function writeBuildDir(SQL: SqlJsStatic, out: string): Promise<Manifest> {
  const artifact = async (raw: Uint8Array, file: string, rows: Record<string, number>, source: DatasetSource): Promise<DatasetArtifact> => {
    const gz = gzipDatabase(raw, 1);
    writeFileSync(join(out, file), gz);
    return artifactOf({ name: 'websites', file, rawBytes: raw.length, rows, source }, { gz, br: null });
  };
  mkdirSync(out, { recursive: true });
  const newest = await realWeek(SQL, COMPARED_WEEKS[COMPARED_WEEKS.length - 1]);
  const weeks = await realWeeks(SQL);
  const attachment = datasetDefinition('websites').attachment!;
  try {
    const manifest: Manifest = {
      version: '',
      datasets: { websites: await artifact(newest.db.export(), 'websites.sqlite.gz', countRows(newest.db, ['websites']), newest.source) },
      extras: [
        {
          ...(await artifact(weeks.db.export(), `${attachment.id}.sqlite.gz`, countRows(weeks.db, attachment.tables), weeks.source)),
          id: attachment.id,
          title: 'Every week',
        },
      ],
    };
    manifest.version = await manifestVersion(manifest);
    writeFileSync(join(out, MANIFEST_FILE), JSON.stringify(manifest));
    return manifest;
  } finally {
    newest.db.close();
    weeks.db.close();
  }
}
