/**
 * The real weeks as the tests share them, made once and kept under .tmp/ for as long as their inputs stay the
 * same (data/'s weeks, the code that writes and maps them): the weeks attachment as the build makes it from
 * data/, and the imports of the weeks the tests compare with (each week's records through the import core, as
 * the import of that week's file makes it). Made in a child process (weeks-fixture-make.ts), so the caller's
 * memory stays its own; the unit tests' global setup makes it before any test runs.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Database, SqlJsStatic } from 'sql.js';
import { MANIFEST_FILE, sha256Hex, type DatasetArtifact, type DatasetSource, type Manifest } from '../../dataset/artifact/format.ts';
import { manifestVersion } from '../../dataset/artifact/manifest.ts';
import { countRows } from '../../dataset/sqlite-catalogue.ts';
import { datasetDefinition } from '../../engine/dataset-registry.ts';
import { gzipDatabase } from '../../tools/gzip-database.ts';
import { shippedWeek, weekSource } from '../../tools/site-scanning-source/shipped-weeks.ts';
import { weeksSource } from '../../tools/site-scanning-source/weeks-dataset.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** The weeks compared with their imports: the first (partial), a checkpoint of the old form, the newest. */
export const COMPARED_WEEKS = ['2025-02-10', '2025-03-17', '2025-06-09'] as const;
export type ComparedWeek = (typeof COMPARED_WEEKS)[number];

/** What the fixture is made from: a change to any of these makes it again. */
const INPUTS = [
  'data/site-scanning-2025-06-09.json.br',
  'data/site-scanning-weeks',
  'engine/site-scanning',
  'engine/sqlite-rows.ts',
  'engine/sqlite-transaction.ts',
  'dataset/import',
  'tools/site-scanning-source/weeks-dataset.ts',
  'tools/site-scanning-source/shipped-weeks.ts',
  'tools/site-scanning-source/week-changes.ts',
  'tools/site-scanning-source/weeks-file.ts',
  'tests/helpers/weeks-fixture-make.ts',
];

function files(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/** The directory the fixture of these inputs is kept in. */
export function weeksFixtureDir(): string {
  const hash = createHash('sha256').update(COMPARED_WEEKS.join());
  for (const file of INPUTS.flatMap(files)) hash.update(file).update(readFileSync(join(ROOT, file)));
  return join(ROOT, '.tmp/weeks-fixture', hash.digest('hex').slice(0, 16));
}

export const weeksFile = (dir: string): string => join(dir, 'weeks.sqlite');
export const importFile = (dir: string, date: string): string => join(dir, `week-${date}.sqlite`);

/** Makes the fixture unless it is kept already; its directory. */
export function ensureWeeksFixture(): string {
  const dir = weeksFixtureDir();
  if (existsSync(join(dir, 'done'))) return dir;
  const made = spawnSync('npx', ['tsx', 'tests/helpers/weeks-fixture-make.ts', dir, ...COMPARED_WEEKS], { cwd: ROOT, stdio: 'inherit' });
  if (made.status !== 0) throw new Error(`the weeks fixture could not be made (exit ${made.status})`);
  return dir;
}

/** The fixture's weeks attachment, opened anew (the caller closes it). */
export const openWeeks = (SQL: SqlJsStatic, dir: string): Database => new SQL.Database(readFileSync(weeksFile(dir)));

/** One compared week's import, opened anew (the caller closes it). */
export const openImport = (SQL: SqlJsStatic, dir: string, date: ComparedWeek): Database => new SQL.Database(readFileSync(importFile(dir, date)));

/**
 * A build's data directory made of the fixture (the newest week's import as the websites dataset, the weeks as the
 * attachment's extra, gzip'd as the build ships them but faster), for the doors that read a build: `serve`, `load`.
 */
export async function writeBuildDir(SQL: SqlJsStatic, fixture: string, out: string): Promise<Manifest> {
  const newestDate = COMPARED_WEEKS[COMPARED_WEEKS.length - 1];
  const artifact = async (raw: Uint8Array, file: string, rows: Record<string, number>, source: DatasetSource): Promise<DatasetArtifact> => {
    const gz = gzipDatabase(raw, 1);
    writeFileSync(join(out, file), gz);
    return { name: 'websites', file, bytes: gz.length, rawBytes: raw.length, sha256: await sha256Hex(gz), rows, source };
  };
  mkdirSync(out, { recursive: true });
  const newest = openImport(SQL, fixture, newestDate);
  const weeks = openWeeks(SQL, fixture);
  const attachment = datasetDefinition('websites').attachment!;
  try {
    const manifest: Manifest = {
      version: '',
      datasets: { websites: await artifact(newest.export(), 'websites.sqlite.gz', countRows(newest, ['websites']), weekSource(shippedWeek(newestDate))) },
      extras: [
        {
          ...(await artifact(weeks.export(), `${attachment.id}.sqlite.gz`, countRows(weeks, attachment.tables), weeksSource())),
          id: attachment.id,
          title: 'Every week',
        },
      ],
    };
    manifest.version = await manifestVersion(manifest);
    writeFileSync(join(out, MANIFEST_FILE), JSON.stringify(manifest));
    return manifest;
  } finally {
    newest.close();
    weeks.close();
  }
}
