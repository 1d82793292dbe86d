/**
 * A worker thread of the server's pool (worker-pool.ts): its own engine over the shared datasets, bound from
 * the shared prepared bytes and warmed before it says it is ready; then one answer per request message.
 * Bundled on its own (tools/build-node.ts) as adapters/node/dist/pool-worker.js.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEngine } from '../../../engine/index.ts';
import { loadSqlJs } from '../datasets/sqljs-node.ts';
import { openSharedDatabase } from './shared-bytes.ts';
import { warm } from './warm.ts';
import { installOpened } from '../datasets/install-opened.ts';
import type { FromWorker, PoolWorkerData, ToWorker } from './pool-protocol.ts';

const port = parentPort!;
const { datasets } = workerData as PoolWorkerData;
const SQL = await loadSqlJs();
const engine = createEngine();
for (const { file, ...dataset } of datasets) installOpened(engine, { ...dataset, db: openSharedDatabase(SQL, file) });
warm(engine);

port.on('message', ({ id, routed }: ToWorker) => {
  port.postMessage({ id, response: engine.answer(routed) } satisfies FromWorker);
});
port.postMessage({ ready: true } satisfies FromWorker);
