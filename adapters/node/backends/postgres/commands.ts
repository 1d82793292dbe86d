/**
 * The command line's Postgres side: `load --database` (the built datasets, or the user's files through the
 * app's import, into Postgres) and the answer source of `serve --database`.
 */
import { summariseReport } from '../../../../dataset/import/index.ts';
import type { DatasetName } from '../../../../engine/http/types.ts';
import { DATASET_NAMES } from '../../../../engine/dataset-registry.ts';
import { openBuiltDatasets, openDatasetFile, type DatasetFromFile } from '../../datasets/dataset-files.ts';
import { builtDataDir } from '../../datasets/package-root.ts';
import { createPool, oneLine, shownUrl } from './pool.ts';
import { loadIntoPostgres, type LoadResult } from './load.ts';
import { PostgresAnswers } from './answers.ts';
import { storeOf } from './stores.ts';

export interface LoadCommand {
  database: string;
  /** The user's files; without any, the built datasets (`--data`, default dist/data). */
  files: Partial<Record<DatasetName, string>>;
  dataDir?: string;
  snapshot?: string;
}

/** Open what to load: the given files (CSV and JSON through the import core, as the app reads them), or the build. */
async function datasetsToLoad(command: LoadCommand): Promise<DatasetFromFile[]> {
  const given = Object.entries(command.files) as [DatasetName, string][];
  if (given.length === 0) return openBuiltDatasets(command.dataDir ?? builtDataDir());
  const opened: DatasetFromFile[] = [];
  for (const [name, path] of given) opened.push(await openDatasetFile(path, name));
  return opened;
}

export async function runLoad(command: LoadCommand, print: (line: string) => void = (line) => console.error(line)): Promise<LoadResult> {
  const datasets = await datasetsToLoad(command);
  for (const d of datasets) if (d.report) print(`${d.name}: ${summariseReport(d.report)}`);
  const pool = createPool(command.database, { max: 1 });
  try {
    // An attachment (the build's weeks) is not loaded here: `load:history` loads the weeks.
    const own = datasets.filter((d) => !d.attachment);
    const sources = Object.fromEntries(own.map((d) => [d.name, { db: d.db, origin: d.origin }]));
    // The build's real week is filed at its own day (its records' latest scan may be the day before).
    const snapshot = command.snapshot ?? own.find((d) => d.snapshot)?.snapshot;
    const result = await loadIntoPostgres(pool, { ...sources, ...(snapshot ? { snapshot } : {}) });
    for (const name of DATASET_NAMES) {
      const loaded = (result as Partial<Record<DatasetName, unknown>>)[name];
      const store = storeOf(name);
      if (loaded !== undefined && store) print(store.describe(loaded, shownUrl(command.database)));
    }
    return result;
  } catch (error) {
    throw new Error(`load into ${shownUrl(command.database)} failed, nothing changed: ${oneLine(error)}`);
  } finally {
    for (const d of datasets) d.db.close();
    await pool.end();
  }
}

/** The answer source of `serve --database`, with the rates read before the first request when the database is up. */
export async function openPostgresAnswers(
  database: string,
  print: (line: string) => void = (line) => console.error(line),
  statementTimeoutMs?: number,
): Promise<PostgresAnswers & { end(): Promise<void> }> {
  const pool = createPool(database, statementTimeoutMs === undefined ? {} : { statementTimeoutMs });
  const answers = new PostgresAnswers(pool, print);
  try {
    await answers.warm();
    print(`offline-gov-api: answering from ${shownUrl(database)}`);
  } catch (error) {
    // Down or empty at start: serve anyway (503 until it is back) rather than refuse to start.
    print(`postgres: ${oneLine(error)} (answering 503 until the database is reachable)`);
  }
  return Object.assign(answers, {
    end: async () => {
      answers.close();
      await pool.end();
    },
  });
}
