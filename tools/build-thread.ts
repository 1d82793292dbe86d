/**
 * The data build's second thread (tools/build-worker.ts starts it): builds the databases the build's thread asks
 * for, one after another, and hands back their bytes. Its lines go to the build's log.
 */
import { loadSqlJs } from '../adapters/node/sqljs-node.ts';
import { datasetGenerator, buildDatabase } from './generated-datasets.ts';
import { snapshotDatabase } from './real-data.ts';
import { weeksDatabase } from './site-scanning-source/weeks-dataset.ts';
import type { BuildJob, BuildResult } from './build-worker.ts';
import { serveJobs } from './job-thread.ts';
import type { ImportProgress } from '../dataset/import/index.ts';

const SQL = await loadSqlJs();

async function run(job: BuildJob, say: (line: string) => void): Promise<BuildResult> {
  if (job.kind === 'generated') {
    const db = buildDatabase(SQL, datasetGenerator(job.name), job.size);
    return { raw: exported(db) };
  }
  if (job.kind === 'weeks') {
    const { db, source } = await weeksDatabase(SQL, { say });
    return { raw: exported(db), source };
  }
  const progress = (records: number) => {
    let last = performance.now();
    return (p: ImportProgress) => {
      if (performance.now() - last < 2500) return;
      last = performance.now();
      say(`the snapshot of ${job.date}: ${p.rowsImported.toLocaleString('en-US')} of ${records.toLocaleString('en-US')} records imported`);
    };
  };
  const { db, source } = await snapshotDatabase(SQL, job.date, progress);
  return { raw: exported(db), source };
}

function exported(db: { export(): Uint8Array; close(): void }): Uint8Array {
  const raw = db.export();
  db.close();
  return raw;
}

serveJobs<BuildJob, BuildResult>(async (job, say) => {
  const result = await run(job, say);
  return { result, transfer: [result.raw.buffer as ArrayBuffer] };
});
