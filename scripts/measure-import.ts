/**
 * Import figures for docs/decisions/0505 (run under the bench lock; a measurement, never a test):
 *   npx tsx scripts/measure-import.ts file <path> [--core] [--cancel-at 0.5]
 *     time and memory of one import of a file read from disk as a Blob (as the DB worker reads a File):
 *     the whole import into a new database, or (--core) only reading and mapping; with --cancel-at, the
 *     time from abort() at that fraction of the bytes to the import's rejection.
 *   npx tsx scripts/measure-import.ts digits <count>
 *     the two-line reproducer `Engineer,` + count × `1` + `x` through the import core.
 * Memory: peak RSS sampled at every progress report and every 20 ms, minus RSS just before the import.
 */
import { openAsBlob, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { importIntoDatabase } from '../dataset/import/into-database.ts';
import { startImport } from '../dataset/import/import.ts';
import { isImportError } from '../dataset/import/errors.ts';
import type { ImportOptions } from '../dataset/import/import.ts';
import type { ImportSource } from '../dataset/import/source.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { core: { type: 'boolean', default: false }, 'cancel-at': { type: 'string' } },
});
const [mode, arg] = positionals;
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

let peak = 0;
const sample = (): void => {
  peak = Math.max(peak, process.memoryUsage().rss);
};

async function measure(label: string, size: number, run: (options: ImportOptions) => Promise<string>, cancelAt?: number): Promise<void> {
  const SQL = await loadSqlJs();
  void SQL;
  const before = process.memoryUsage().rss;
  peak = before;
  const timer = setInterval(sample, 20);
  const controller = new AbortController();
  let abortedAt = 0;
  const options: ImportOptions = {
    signal: controller.signal,
    onProgress: (progress) => {
      sample();
      if (cancelAt !== undefined && abortedAt === 0 && progress.bytesRead >= cancelAt * size) {
        abortedAt = performance.now();
        controller.abort();
      }
    },
  };
  const t0 = performance.now();
  let outcome: string;
  try {
    outcome = await run(options);
  } catch (error) {
    outcome = isImportError(error) ? `${error.code}: ${error.message.slice(0, 120)}` : String(error);
  }
  const t1 = performance.now();
  clearInterval(timer);
  sample();
  console.log(`${label}: ${outcome}`);
  console.log(
    `  file ${mb(size)}; ${((t1 - t0) / 1000).toFixed(2)} s; RSS before ${mb(before)}, peak ${mb(peak)}, peak − before ${mb(peak - before)} (${((peak - before) / size).toFixed(2)} × the file)`,
  );
  if (abortedAt > 0) console.log(`  cancel: abort() to rejection ${(t1 - abortedAt).toFixed(0)} ms`);
}

if (mode === 'file' && arg) {
  const size = statSync(arg).size;
  const blob = await openAsBlob(arg);
  const cancelAt = values['cancel-at'] !== undefined ? Number(values['cancel-at']) : undefined;
  if (values.core) {
    await measure(
      `core ${arg}`,
      size,
      async (options) => {
        const run = await startImport(blob as ImportSource, options);
        let records = 0;
        for await (const batch of run.batches as AsyncIterable<unknown[]>) records += batch.length;
        return `${records} records, ${run.report.rowsRejected} rejected, encoding ${run.report.encoding}`;
      },
      cancelAt,
    );
  } else {
    const SQL = await loadSqlJs();
    await measure(
      `database ${arg}`,
      size,
      async (options) => {
        const { db, report } = await importIntoDatabase(SQL, blob as ImportSource, options);
        db.close();
        return `${report.rowsImported} imported, ${report.rowsRejected} rejected, encoding ${report.encoding}`;
      },
      cancelAt,
    );
  }
} else if (mode === 'digits' && arg) {
  const csv = `Labor Category,Current Year Labor Price\nEngineer,${'1'.repeat(Number(arg))}x\n`;
  const bytes = new TextEncoder().encode(csv);
  await measure(`digits ${arg}`, bytes.length, async (options) => {
    const run = await startImport(bytes, options);
    for await (const batch of run.batches) void batch;
    return 'finished';
  });
} else {
  console.error('usage: measure-import.ts file <path> [--core] [--cancel-at F] | digits <count>');
  process.exitCode = 2;
}
