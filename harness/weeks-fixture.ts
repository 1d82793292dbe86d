/**
 * The real weeks as the tests compare them: three weeks' imports (the first, partial; one from the middle; the
 * newest) and the weeks attachment, from the real fixtures (real-fixtures.ts), and a build's data directory made of
 * them for the doors that read a build (`serve`, `load`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import { MANIFEST_FILE, type DatasetArtifact, type DatasetSource, type ExtraArtifact, type Manifest } from '../dataset/artifact/format.ts';
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

/** A database written into `dir` as a build ships it (gzip'd, but faster), and its manifest entry. */
async function writeArtifact(dir: string, db: Database, file: string, tables: readonly string[], source: DatasetSource): Promise<DatasetArtifact> {
  const raw = db.export();
  const gz = gzipDatabase(raw, 1);
  writeFileSync(join(dir, file), gz);
  return artifactOf({ name: 'websites', file, rawBytes: raw.length, rows: countRows(db, tables), source }, { gz, br: null });
}

/** The weeks fixture as a build's extra: its file written into `dir`, and the manifest's entry for it. */
export async function writeWeeksExtra(SQL: SqlJsStatic, dir: string, title = 'Every week'): Promise<ExtraArtifact> {
  const weeks = await realWeeks(SQL);
  const attachment = datasetDefinition('websites').attachment!;
  try {
    return { ...(await writeArtifact(dir, weeks.db, `${attachment.id}.sqlite.gz`, attachment.tables, weeks.source)), id: attachment.id, title };
  } finally {
    weeks.db.close();
  }
}

/** A build's data directory made of the fixtures: the newest week's import as the websites dataset, the weeks as its extra. */
export async function writeBuildDir(SQL: SqlJsStatic, out: string): Promise<Manifest> {
  mkdirSync(out, { recursive: true });
  const newest = await realWeek(SQL, COMPARED_WEEKS[COMPARED_WEEKS.length - 1]);
  try {
    const manifest: Manifest = {
      version: '',
      datasets: { websites: await writeArtifact(out, newest.db, 'websites.sqlite.gz', ['websites'], newest.source) },
      extras: [await writeWeeksExtra(SQL, out)],
    };
    manifest.version = await manifestVersion(manifest);
    writeFileSync(join(out, MANIFEST_FILE), JSON.stringify(manifest));
    return manifest;
  } finally {
    newest.db.close();
  }
}
