import { warm } from './warm.ts';
import { openEngine } from '../datasets/open-engine.ts';
import type { ApiBackend } from './backend.ts';
import type { DatasetSummary, ShareOptions } from './pool-protocol.ts';
import { startWorkerPool } from './worker-pool.ts';
import { openShared } from './open-shared.ts';

export interface OpenedBackend {
  backend: ApiBackend;
  /** What was opened, for the start-up lines. */
  datasets: DatasetSummary[];
  /** Ends what answers (the worker threads); after the server has stopped sending it requests. */
  close(): Promise<void>;
}

/**
 * The datasets opened and ready to answer, warmed before the first client: for one worker, the engine
 * itself, answering in this thread; for more, a pool of worker threads over one shared copy of them.
 */
export async function openBackend(open: ShareOptions, workers: number): Promise<OpenedBackend> {
  if (workers <= 1) {
    const { engine, datasets } = await openEngine(open);
    warm(engine);
    return { backend: engine, datasets, close: async () => {} };
  }
  const { datasets, shared } = await openShared(open);
  const pool = await startWorkerPool(shared, workers);
  return { backend: pool, datasets, close: () => pool.close() };
}
