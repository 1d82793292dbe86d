/**
 * The data build's second thread (tools/build-worker.ts starts it): builds the databases the build's thread asks
 * for, one after another, and hands back their bytes. Its lines go to the build's log.
 */
import { parentPort } from 'node:worker_threads';
import { loadSqlJs } from '../adapters/node/sqljs-node.ts';
import { datasetGenerator, buildDatabase } from './generated-datasets.ts';
import { snapshotDatabase } from './real-data.ts';
import { weeksDatabase } from './site-scanning-source/weeks-dataset.ts';
import type { BuildJob, FromBuildThread, ToBuildThread } from './build-worker.ts';
import type { DatasetSource } from '../dataset/artifact/format.ts';
import type { ImportProgress } from '../dataset/import/index.ts';

const port = parentPort!;
const SQL = await loadSqlJs();

async function run(id: number, job: BuildJob): Promise<{ raw: Uint8Array; source?: DatasetSource }> {
  const say = (line: string): void => port.postMessage({ id, line } satisfies FromBuildThread);
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

// One job at a time, in the order asked: the build asks first for what it needs first.
let queue = Promise.resolve();
port.on('message', ({ id, job }: ToBuildThread) => {
  queue = queue.then(async () => {
    try {
      const { raw, source } = await run(id, job);
      port.postMessage({ id, raw, ...(source ? { source } : {}) } satisfies FromBuildThread, [raw.buffer as ArrayBuffer]);
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies FromBuildThread);
    }
  });
});
