/**
 * Datasets for the Node doors, from files: the build's gzip'd SQLite files (checked against their manifest
 * exactly as the browser checks a download), a user's own SQLite file, or a CSV/JSON file read through the
 * same import core as the app's import (same normalisation, same report).
 */
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Database } from 'sql.js';
import type { DatasetName } from '../../engine/http/types.ts';
import { attachmentOf, DATASET_NAMES, datasetDefinition } from '../../engine/dataset-registry.ts';
import { MANIFEST_FILE } from '../../dataset/artifact/format.ts';
import { checkManifest, manifestArtifacts } from '../../dataset/artifact/manifest.ts';
import { verifyArtifact } from '../../dataset/artifact/verify.ts';
import { unpack } from '../../dataset/artifact/unpack.ts';
import { countRows } from '../../dataset/sqlite-catalogue.ts';
import { importIntoDatabase, type ImportReport } from '../../dataset/import/index.ts';
import { loadSqlJs } from './sqljs-node.ts';

export interface OpenedDataset {
  name: DatasetName;
  db: Database;
  /** Where it came from, for a start-up line: a file path, or `name (manifest version)`. */
  origin: string;
  /** What the records are, in one line: real (whose, which commit, licence) or synthetic, or the user's own file. */
  label: string;
  rows: Record<string, number>;
  /** The date of a real snapshot's records (the build's source), so its dated paths are answered too. */
  snapshot?: string;
  /** Present when the file went through the import core (CSV or JSON). */
  report?: ImportReport;
  /** Set for a dataset's attachment (its registry id, engine/dataset-registry.ts): opened beside the dataset's own database, never in its place. */
  attachment?: string;
}

/** Every dataset the build wrote into `dir` (manifest.json beside the .sqlite.gz files), verified and opened. */
export async function openBuiltDatasets(dir: string): Promise<OpenedDataset[]> {
  const manifestPath = resolve(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(manifestPath, 'utf8');
  } catch {
    throw new Error(`no ${MANIFEST_FILE} in ${dir}: run \`npm run build\` first, or pass --websites/--ceilingrates files`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`manifest: ${manifestPath} is not JSON`);
  }
  const manifest = checkManifest(value, manifestPath);
  const SQL = await loadSqlJs();
  const opened: OpenedDataset[] = [];
  for (const artifact of manifestArtifacts(manifest)) {
    const gz = new Uint8Array(await readFile(resolve(dir, artifact.file)));
    await verifyArtifact(gz, artifact);
    const db = new SQL.Database(await unpack(gz, artifact.rawBytes));
    const label = artifact.source?.label ?? 'built-in (no source recorded)';
    opened.push({
      name: artifact.name,
      db,
      origin: `${artifact.file} (${manifest.version})`,
      label,
      ...(artifact.source?.kind === 'real' ? { snapshot: artifact.source.date } : {}),
      rows: countRows(db, datasetDefinition(artifact.name).tables),
    });
  }
  // An attachment the build holds (the weeks) is opened too: every door answers what the build holds.
  for (const extra of manifest.extras ?? []) {
    const attached = attachmentOf(extra.id);
    if (!attached) continue;
    const gz = new Uint8Array(await readFile(resolve(dir, extra.file)));
    await verifyArtifact(gz, extra);
    const db = new SQL.Database(await unpack(gz, extra.rawBytes));
    opened.push({ name: attached.name, db, origin: `${extra.file} (${manifest.version})`, label: extra.source.label, rows: extra.rows, attachment: extra.id });
  }
  return opened;
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';

function isSqlite(bytes: Uint8Array): boolean {
  return new TextDecoder('latin1').decode(bytes.subarray(0, SQLITE_MAGIC.length)) === SQLITE_MAGIC;
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** The dataset whose tables a SQLite file holds, or null. */
function datasetOfDatabase(db: Database): DatasetName | null {
  return DATASET_NAMES.find((name) => datasetDefinition(name).tables.every((table) => table in countRows(db, [table]))) ?? null;
}

/**
 * A user's file as the dataset `expected`: a SQLite database (plain or gzip'd) with that dataset's tables,
 * or a CSV/JSON file the import core recognises. Throws with a message for the user when it is neither, or
 * holds the other dataset; an ImportError (its message is the app's) when the import core refuses it.
 */
export async function openDatasetFile(path: string, expected: DatasetName): Promise<OpenedDataset> {
  return openDatasetBytes(new Uint8Array(await readFile(path)), expected, path);
}

/** The same for bytes already in memory; `name` labels messages and is the import's file name. */
export async function openDatasetBytes(input: Uint8Array, expected: DatasetName, name: string = expected): Promise<OpenedDataset> {
  const SQL = await loadSqlJs();
  // A gzip'd SQLite file is several times its packed size; the buffer grows if that is not enough.
  const bytes = isGzip(input) ? await unpack(input, input.length * 4) : input;
  const { title, tables } = datasetDefinition(expected);
  if (isSqlite(bytes)) {
    const db = new SQL.Database(bytes);
    const holds = datasetOfDatabase(db);
    if (holds !== expected) {
      db.close();
      throw new Error(`${name}: this SQLite file has no ${title} table (${tables.join(', ')})${holds ? `; it holds ${datasetDefinition(holds).title}` : ''}`);
    }
    return { name: expected, db, origin: name, label: `Your file: ${basename(name)}`, rows: countRows(db, tables) };
  }
  const result = await importIntoDatabase(SQL, bytes, { name: basename(name) });
  if (result.dataset !== expected) {
    result.db.close();
    throw new Error(`${name}: this file holds ${datasetDefinition(result.dataset).title} records, not ${title}`);
  }
  return { name: expected, db: result.db, origin: name, label: `Your file: ${basename(name)}`, rows: countRows(result.db, tables), report: result.report };
}
