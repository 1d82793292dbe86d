/**
 * The data build's second thread (tools/build-worker.ts starts it): builds the databases the build's thread asks
 * for, one after another, and hands back their bytes. Its lines go to the build's log.
 */
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { datasetGenerator, buildDatabase } from './generated-datasets.ts';
import { weeksDatabase } from './site-scanning-source/weeks-dataset.ts';
import { weekDatabase } from './site-scanning-source/shipped-weeks.ts';
import type { BuildJob, BuildResult } from './build-worker.ts';
import { serveJobs } from './job-thread.ts';

const SQL = await loadSqlJs();

async function run(job: BuildJob, say: (line: string) => void): Promise<BuildResult> {
  if (job.kind === 'generated') {
    const db = buildDatabase(SQL, datasetGenerator(job.name), job.size);
    return { raw: exported(db) };
  }
  if (job.kind === 'week') {
    const { db, source } = await weekDatabase(SQL, job.date);
    return { raw: exported(db), source };
  }
  const { db, source } = weeksDatabase(SQL, { say });
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
