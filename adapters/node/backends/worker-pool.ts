/**
 * The engine on every core: N worker threads (pool-worker.ts), each with its own engine over the same shared
 * datasets (share-datasets.ts), behind one ApiBackend. Requests wait here, first come first served, and a
 * worker is handed the next when it holds fewer than IN_FLIGHT; a request whose client has gone by then is
 * dropped instead of computed (under overload, answers nobody would read). A worker that is lost (a crash, an
 * exit) fails its requests in flight and is replaced, so the server keeps its cores (at most REPLACEMENTS a
 * minute: a worker that cannot start is not started again and again).
 */
import { Worker } from 'node:worker_threads';
import { APIS } from '../../../engine/index.ts';
import type { ApiResponse } from '../../../engine/http/types.ts';
import { failed, routeAny, type Routed } from '../../../engine/http/route.ts';
import type { ApiRequest } from '../../../engine/http/types.ts';
import type { ApiBackend } from './backend.ts';
import type { FromWorker, PoolWorkerData, SharedDataset, ToWorker } from './pool-protocol.ts';
import { bundledFile } from '../datasets/package-root.ts';

export interface WorkerPool extends ApiBackend {
  readonly size: number;
  answer(routed: Routed, signal?: AbortSignal): Promise<ApiResponse>;
  /** Route and answer, for a caller with a plain request. */
  handle(request: ApiRequest, signal?: AbortSignal): Promise<ApiResponse>;
  /** Ends the workers; requests still unanswered are rejected. */
  close(): Promise<void>;
}

/**
 * Each thread's heap has its own young generation, which V8 lets grow to tens of MiB under a stream of
 * requests' short-lived garbage: capped, two workers used 60 MiB less at 100 connections (decision 0901).
 */
const YOUNG_GENERATION_MB = 8;

/**
 * Requests a worker holds at once: one computing and one in its port, so it never waits for the next
 * between two answers; the rest wait here, where a request whose client leaves can still be dropped.
 */
export const IN_FLIGHT = 2;

/** Lost workers replaced within a minute, at most, per worker of the pool. */
const REPLACEMENTS = 3;

/** How a worker thread is started: the bundled pool worker, unless a test watches its threads. */
export type SpawnWorker = (data: PoolWorkerData) => Worker;

export const spawnPoolWorker: SpawnWorker = (data) =>
  new Worker(bundledFile('pool-worker.js'), { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });

interface Waiting {
  routed: Routed;
  signal?: AbortSignal;
  done: (response: ApiResponse) => void;
  fail: (error: Error) => void;
}

interface Member {
  worker: Worker;
  pending: Map<number, { done: (response: ApiResponse) => void; fail: (error: Error) => void }>;
}

/** A worker, ready once it has bound and warmed its engine; `answered` runs after each of its answers. */
function startMember(data: PoolWorkerData, answered: () => void, spawn: SpawnWorker): Promise<Member> {
  const worker = spawn(data);
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
      answered();
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
export async function startWorkerPool(datasets: SharedDataset[], size: number, spawn: SpawnWorker = spawnPoolWorker): Promise<WorkerPool> {
  const queue: Waiting[] = [];
  const alive = new Set<Member>();
  let nextId = 0;
  let closing = false;
  /** When each replacement of the last minute started, and how many are starting. */
  const replaced: number[] = [];
  let starting = 0;
  /** With no worker left nor coming, the waiting requests cannot be answered. */
  const failIfNone = (): void => {
    if (alive.size > 0 || starting > 0) return;
    for (const { fail } of queue.splice(0)) fail(new Error('no worker thread is running'));
  };
  const pump = (): void => {
    for (const member of alive) {
      while (member.pending.size < IN_FLIGHT && queue.length > 0) {
        const { routed, signal, done, fail } = queue.shift()!;
        if (signal?.aborted) {
          // Its client has gone, so nobody reads it: the API's own "not answered".
          done(failed(APIS, routed, 'unavailable'));
          continue;
        }
        const id = nextId++;
        member.pending.set(id, { done, fail });
        member.worker.postMessage({ id, routed } satisfies ToWorker);
      }
    }
  };
  const join = (member: Member): void => {
    alive.add(member);
    member.worker.once('exit', () => {
      alive.delete(member);
      if (!closing) replace();
      failIfNone();
    });
    pump();
  };
  const replace = (): void => {
    const now = Date.now();
    while (replaced.length > 0 && now - replaced[0] > 60_000) replaced.shift();
    if (replaced.length >= REPLACEMENTS * size) {
      console.error(`offline-gov-api: ${replaced.length} worker threads lost in a minute; not starting another`);
      return;
    }
    replaced.push(now);
    starting++;
    console.error('offline-gov-api: a worker thread was lost; starting another');
    startMember({ datasets }, pump, spawn).then(
      (member) => {
        starting--;
        if (closing) void member.worker.terminate();
        else join(member);
      },
      (error: unknown) => {
        starting--;
        console.error('offline-gov-api: a replacement worker thread did not start', error);
        if (!closing) replace();
        failIfNone();
      },
    );
  };
  const members = await Promise.all(Array.from({ length: size }, () => startMember({ datasets }, pump, spawn)));
  for (const member of members) join(member);
  const pool: WorkerPool = {
    apis: APIS,
    size,
    handle: (request, signal) => pool.answer(routeAny(APIS, request), signal),
    answer(routed, signal) {
      if (alive.size === 0 && starting === 0) return Promise.reject(new Error('no worker thread is running'));
      return new Promise((done, fail) => {
        queue.push({ routed, signal, done, fail });
        pump();
      });
    },
    async close() {
      closing = true;
      await Promise.all([...alive].map((m) => m.worker.terminate()));
    },
  };
  return pool;
}
