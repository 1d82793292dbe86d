/**
 * Jobs on a second thread, one message each way: the caller's side (startJobThread) and the thread's (serveJobs).
 * The thread runs its jobs one at a time in the order asked (the caller asks first for what it needs first); its
 * progress lines come back as they are said; a thread that fails or exits fails every job still pending.
 */
import { parentPort } from 'node:worker_threads';
import { tsxWorker } from './tsx-worker.ts';

interface ToThread<J> {
  id: number;
  job: J;
}
type FromThread<R> = { id: number; line: string } | { id: number; result: R } | { id: number; error: string };

export interface JobThread<J, R> {
  /** The job's result; `say` gets its progress lines. */
  run(job: J, say?: (line: string) => void): Promise<R>;
  close(): Promise<void>;
}

/** Starts `entry` (a module that calls serveJobs) on a thread; `name` says whose thread failed in an error. */
export function startJobThread<J, R>(entry: URL, name: string): JobThread<J, R> {
  const worker = tsxWorker(entry);
  const pending = new Map<number, { say: (line: string) => void; done: (result: R) => void; fail: (error: Error) => void }>();
  let failed: Error | null = null;
  const failAll = (error: Error): void => {
    failed = error;
    for (const job of pending.values()) job.fail(error);
    pending.clear();
  };
  worker.on('message', (message: FromThread<R>) => {
    const job = pending.get(message.id);
    if (!job) return;
    if ('line' in message) return job.say(message.line);
    pending.delete(message.id);
    if ('error' in message) job.fail(new Error(`${name}: ${message.error}`));
    else job.done(message.result);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => {
    if (pending.size) failAll(new Error(`${name} exited (${code}) with ${pending.size} job(s) unfinished`));
  });
  let next = 0;
  return {
    run(job, say = () => {}) {
      if (failed) return Promise.reject(failed);
      const id = next++;
      return new Promise((done, fail) => {
        pending.set(id, { say, done, fail });
        worker.postMessage({ id, job } satisfies ToThread<J>);
      });
    },
    close: async () => {
      await worker.terminate();
    },
  };
}

/** The thread's side: each job's result from `work` (its `transfer` buffers moved, not copied), or its error. */
export function serveJobs<J, R>(work: (job: J, say: (line: string) => void) => Promise<{ result: R; transfer?: ArrayBuffer[] }>): void {
  const port = parentPort!;
  let queue = Promise.resolve();
  port.on('message', ({ id, job }: ToThread<J>) => {
    queue = queue.then(async () => {
      try {
        const { result, transfer = [] } = await work(job, (line) => port.postMessage({ id, line } satisfies FromThread<R>));
        port.postMessage({ id, result } satisfies FromThread<R>, transfer);
      } catch (error) {
        port.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies FromThread<R>);
      }
    });
  });
}
