/**
 * The engine on every core: N worker threads (pool-worker.ts), each with its own engine over the same shared
 * datasets (share-datasets.ts), behind one ApiBackend. A request goes to the worker with the fewest
 * unanswered requests: each engine answers one at a time, so that is the one that will answer soonest.
 */
import { Worker } from 'node:worker_threads';
import { APIS } from '../../engine/index.ts';
import type { ApiRequest, ApiResponse } from '../../engine/http/types.ts';
import type { ApiBackend } from './backend.ts';
import type { FromWorker, PoolWorkerData, SharedDataset, SharedDatasets, ShareWorkerData, ToWorker } from './pool-protocol.ts';
import { bundledFile } from './package-root.ts';

export interface WorkerPool extends ApiBackend {
  readonly size: number;
  handle(request: ApiRequest): Promise<ApiResponse>;
  /** Ends the workers; requests still unanswered are rejected. */
  close(): Promise<void>;
}

/**
 * The datasets opened in a thread of their own (share-worker.ts) and shared: the opening's memory peak is
 * given back when that thread ends, and the server keeps only the shared copy.
 */
export function openShared(options: ShareWorkerData): Promise<SharedDatasets> {
  const worker = new Worker(bundledFile('share-worker.js'), { workerData: options });
  return new Promise((done, fail) => {
    worker.once('message', (message: SharedDatasets) => {
      done(message);
      void worker.terminate();
    });
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`the thread opening the datasets exited (${code})`)));
  });
}

/**
 * Each thread's heap has its own young generation, which V8 lets grow to tens of MiB under a stream of
 * requests' short-lived garbage: capped, two workers used 60 MiB less at 100 connections (decision 0901).
 */
const YOUNG_GENERATION_MB = 8;

interface Member {
  worker: Worker;
  pending: Map<number, { done: (response: ApiResponse) => void; fail: (error: Error) => void }>;
}

function startMember(data: PoolWorkerData): Promise<Member> {
  const worker = new Worker(bundledFile('pool-worker.js'), { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  const member: Member = { worker, pending: new Map() };
  const failAll = (error: Error): void => {
    for (const { fail } of member.pending.values()) fail(error);
    member.pending.clear();
  };
  return new Promise((ready, refuse) => {
    worker.on('message', (message: FromWorker) => {
      if ('ready' in message) return ready(member);
      const waiting = member.pending.get(message.id);
      member.pending.delete(message.id);
      waiting?.done(message.response);
    });
    worker.on('error', (error) => {
      console.error('offline-gov-api: a worker thread failed', error);
      failAll(error);
      refuse(error);
    });
    worker.on('exit', (code) => {
      const error = new Error(`worker thread exited (${code})`);
      failAll(error);
      refuse(error);
    });
  });
}

/** `size` workers over the shared datasets, resolved once every one has bound and warmed its engine. */
export async function startWorkerPool(datasets: SharedDataset[], size: number): Promise<WorkerPool> {
  const members = await Promise.all(Array.from({ length: size }, () => startMember({ datasets })));
  const alive = new Set(members);
  for (const member of members) member.worker.once('exit', () => alive.delete(member));
  let nextId = 0;
  return {
    apis: APIS,
    size,
    handle(request) {
      let chosen: Member | undefined;
      for (const member of alive) if (!chosen || member.pending.size < chosen.pending.size) chosen = member;
      if (!chosen) return Promise.reject(new Error('no worker thread is running'));
      const id = nextId++;
      const member = chosen;
      return new Promise((done, fail) => {
        member.pending.set(id, { done, fail });
        member.worker.postMessage({ id, request } satisfies ToWorker);
      });
    },
    async close() {
      await Promise.all(members.map((m) => m.worker.terminate()));
    },
  };
}
