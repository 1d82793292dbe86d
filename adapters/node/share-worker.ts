/**
 * A short-lived thread that opens the datasets (verify, unpack, import, bind) and hands back one shared copy
 * of each (share-datasets.ts), then ends. Opening peaks at several times the data's size; done here, that
 * peak goes with the thread instead of staying in the server's resident memory for its whole life.
 * Bundled on its own (tools/build-node.ts) as adapters/node/dist/share-worker.js.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openEngine } from './open-engine.ts';
import { shareDatasets } from './share-datasets.ts';
import type { SharedDatasets, ShareWorkerData } from './pool-protocol.ts';

const { engine, datasets } = await openEngine(workerData as ShareWorkerData);
const summaries = datasets.map(({ db: _closedBelow, ...summary }) => summary);
parentPort!.postMessage({ datasets: summaries, shared: shareDatasets(engine.apis, datasets) } satisfies SharedDatasets);
