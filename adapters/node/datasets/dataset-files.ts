/**
 * Datasets for the Node doors, from files: the build's gzip'd SQLite files (checked against their manifest
 * exactly as the browser checks a download), a user's own SQLite file, or a CSV/JSON file read through the
 * same import core as the app's import (same normalisation, same report).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Database } from 'sql.js';
import type { DatasetName } from '../../../engine/http/types.ts';
import { attachmentOf, DATASET_NAMES, datasetDefinition } from '../../../engine/dataset-registry.ts';
import { MANIFEST_FILE, transferArtifact, type DatasetArtifact, type DatasetSource, type Manifest } from '../../../dataset/artifact/format.ts';
import { checkManifest, manifestArtifacts } from '../../../dataset/artifact/manifest.ts';
import { verifyArtifact } from '../../../dataset/artifact/verify.ts';
import { unpack } from '../../../dataset/artifact/unpack.ts';
import { countRows } from '../../../dataset/sqlite-catalogue.ts';
import { importIntoDatabase, type ImportReport } from '../../../dataset/import/index.ts';
import { loadSqlJs } from './sqljs-node.ts';
import { nodeBrotli } from './brotli-sync.ts';

/** A Node door's dataset, opened from a file (a build's or the caller's): its database and where it came from. */
export interface DatasetFromFile {
  name: DatasetName;
  db: Database;
  /** Where it came from, for a start-up line: a file path, or `name (manifest version)`. */
  origin: string;
  /** What the records are, in one line: real (whose, which commit, licence) or synthetic, or the user's own file. */
  label: string;
  rows: Record<string, number>;
  /** The date of a real snapshot's records (the build's source), so its dated paths are answered too. */
  snapshot?: string;
  /** The build's manifest version and its source (real or synthetic, its dates), for what cites them. */
  version?: string;
  source?: DatasetSource;
  /** Present when the file went through the import core (CSV or JSON). */
  report?: ImportReport;
  /** Set for a dataset's attachment (its registry id, engine/dataset-registry.ts): opened beside the dataset's own database, never in its place. */
  attachment?: string;
}

/**
 * A built dataset file's database: its gzip'd file when the directory holds it, else its Brotli transfer copy (the
 * packed package carries only those, the smaller), checked against the manifest as the browser checks a download.
 */
async function readBuilt(dir: string, artifact: DatasetArtifact): Promise<Uint8Array> {
  if (existsSync(resolve(dir, artifact.file))) {
    const gz = new Uint8Array(await readFile(resolve(dir, artifact.file)));
    await verifyArtifact(gz, artifact);
    return unpack(gz, artifact.rawBytes);
  }
  const brotli = transferArtifact(artifact, new Set(['br']));
  if (brotli.encoding === 'br' && existsSync(resolve(dir, brotli.file))) {
    const br = new Uint8Array(await readFile(resolve(dir, brotli.file)));
    await verifyArtifact(br, brotli);
    return nodeBrotli(br, artifact.rawBytes);
  }
  throw new Error(`${artifact.file}: not in ${dir}`);
}

/** The extras' ids a build lists, and whether their files are here (an installed package has none until fetched). */
export interface BuiltExtra {
  id: string;
  title: string;
  present: boolean;
}

/** Reads and checks `dir`'s manifest.json. */
export async function readBuiltManifest(dir: string): Promise<Manifest> {
  const manifestPath = resolve(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(manifestPath, 'utf8');
  } catch {
    throw new Error(
      `no ${MANIFEST_FILE} in ${dir}: pass --data <dir> with a build's data directory (a clone of the repository makes one with \`npm run build\`), or --websites/--ceilingrates files`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`manifest: ${manifestPath} is not JSON`);
  }
  return checkManifest(value, manifestPath);
}

/** Every extra the build in `dir` lists, and whether its file is there to open. */
export async function builtExtras(dir: string): Promise<BuiltExtra[]> {
  const manifest = await readBuiltManifest(dir);
  return (manifest.extras ?? []).map((extra) => ({ id: extra.id, title: extra.title, present: existsSync(resolve(dir, extra.file)) }));
}

/**
 * Every first-visit dataset the build wrote into `dir` (manifest.json beside the files), verified and opened, and
 * the extras named in `extras` (by id): an extra is opened only when asked for, as the app fetches it only then.
 */
export async function openBuiltDatasets(dir: string, extras: readonly string[] = []): Promise<DatasetFromFile[]> {
  const manifest = await readBuiltManifest(dir);
  const SQL = await loadSqlJs();
  const opened: DatasetFromFile[] = [];
  for (const artifact of manifestArtifacts(manifest)) {
    const db = new SQL.Database(await readBuilt(dir, artifact));
    const label = artifact.source?.label ?? 'built-in (no source recorded)';
    opened.push({
      name: artifact.name,
      db,
      origin: `${artifact.file} (${manifest.version})`,
      label,
      ...(artifact.source?.kind === 'real' ? { snapshot: artifact.source.date } : {}),
      ...(artifact.source ? { source: artifact.source } : {}),
      version: manifest.version,
      rows: countRows(db, datasetDefinition(artifact.name).tables),
    });
  }
  for (const id of extras) {
    const extra = manifest.extras?.find((e) => e.id === id);
    if (!extra) throw new Error(`the build in ${dir} has no extra dataset "${id}" (${(manifest.extras ?? []).map((e) => e.id).join(', ') || 'none'})`);
    if (!existsSync(resolve(dir, extra.file))) {
      throw new Error(`${extra.title}: ${extra.file} is not in ${dir}; get it with \`offline-gov-api fetch-extra ${id} --from <a deployment of the app>\``);
    }
    const db = new SQL.Database(await readBuilt(dir, extra));
    // An attachment (the weeks) is opened beside its dataset's own database, never in its place.
    const attached = attachmentOf(id) ? { attachment: id } : {};
    opened.push({ name: extra.name, db, origin: `${extra.file} (${manifest.version})`, label: extra.source.label, rows: extra.rows, ...attached });
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
export async function openDatasetFile(path: string, expected: DatasetName): Promise<DatasetFromFile> {
  return openDatasetBytes(new Uint8Array(await readFile(path)), expected, path);
}

/** The same for bytes already in memory; `name` labels messages and is the import's file name. */
export async function openDatasetBytes(input: Uint8Array, expected: DatasetName, name: string = expected): Promise<DatasetFromFile> {
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
