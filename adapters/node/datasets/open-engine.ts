import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createEngine, type Engine } from '../../../engine/index.ts';
import type { DatasetName } from '../../../engine/http/types.ts';
import { MANIFEST_FILE } from '../../../dataset/artifact/format.ts';
import { openBuiltDatasets, openDatasetBytes, openDatasetFile, type DatasetFromFile } from './dataset-files.ts';
import { builtDataDir } from './package-root.ts';
import type { Dialect } from '../../../engine/dialect/dialect.ts';
import { installOpened } from './install-opened.ts';

export interface OpenEngineOptions {
  /**
   * Directory of the build's dataset files (manifest.json beside them); default: the package's dist/data.
   * Set to false to start from no built dataset at all.
   */
  dataDir?: string | false;
  /** A dataset from a file: CSV or JSON (read by the import core) or SQLite (plain or gzip'd). */
  files?: Partial<Record<DatasetName, string>>;
  /** A dataset from bytes in memory, in any of the same forms. */
  bytes?: Partial<Record<DatasetName, Uint8Array>>;
  /**
   * The build's extra datasets to open too, by id (`websites-weeks`: every week's dated paths; `ceilingrates-s70-2017`,
   * `ceilingrates-synthetic`: in place of the default rates). None by default: an extra costs seconds and memory,
   * and a package holds its files only once fetched (`offline-gov-api fetch-extra`).
   */
  extras?: readonly string[];
  /**
   * How the engine answers a request that names no dialect: `interface` (the default, the 2.0 interface) or
   * `production` (production's 2026 names, types and order; docs/api/differences.md).
   */
  dialect?: Dialect;
}

export interface OpenedEngine {
  engine: Engine;
  /** What each dataset came from, with its row counts and, for an import, its report. */
  datasets: DatasetFromFile[];
}

/**
 * The engine with its datasets, for any Node door: the built datasets first, each replaced by the caller's
 * file or bytes when given. Without a build, only the caller's own datasets are opened.
 */
export async function openEngine(options: OpenEngineOptions = {}): Promise<OpenedEngine> {
  const own: DatasetFromFile[] = [];
  for (const [name, path] of Object.entries(options.files ?? {}) as [DatasetName, string][]) own.push(await openDatasetFile(path, name));
  for (const [name, bytes] of Object.entries(options.bytes ?? {}) as [DatasetName, Uint8Array][]) own.push(await openDatasetBytes(bytes, name));

  const dataDir = options.dataDir ?? builtDataDir();
  // With a file of their own, a user needs no build: the API without a dataset answers its own 503.
  const needBuilt = dataDir !== false && own.length < 2 && (own.length === 0 || existsSync(resolve(dataDir, MANIFEST_FILE)));
  const built = needBuilt ? await openBuiltDatasets(dataDir, options.extras) : [];
  // An extra in place of a default (the 2017 list for the rates) wins over it; the caller's own files over both.
  const chosen = built.filter((b, i) => b.attachment || !built.some((later, j) => j > i && !later.attachment && later.name === b.name));
  const datasets = [...own, ...chosen.filter((b) => !own.some((o) => o.name === b.name))];
  for (const b of built) if (!datasets.includes(b)) b.db.close();

  const engine = createEngine({}, options.dialect);
  for (const d of datasets) installOpened(engine, { ...d, prepared: null });
  return { engine, datasets };
}
