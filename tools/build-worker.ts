/**
 * A second thread for the data build: the machine a newcomer runs `npm start` on may have two cores, and the
 * build's thread is busy importing the newest Site Scanning snapshot for most of the build. The first week's
 * import (the history needs it) and the generated datasets run on this one meanwhile (decision 0106).
 */
import { tsxWorker } from './tsx-worker.ts';
import type { DatasetName } from '../engine/http/types.ts';
import type { DatasetSource } from '../dataset/artifact/format.ts';

export type BuildJob = { kind: 'snapshot'; date: string } | { kind: 'weeks' } | { kind: 'generated'; name: DatasetName; size: 'default' | 'small' };
export interface ToBuildThread {
  id: number;
  job: BuildJob;
}
export type FromBuildThread = { id: number; line: string } | { id: number; raw: Uint8Array; source?: DatasetSource } | { id: number; error: string };

export interface BuildWorker {
  /** The job's database as bytes (not yet in its shipped form); `say` gets its progress lines. */
  run(job: BuildJob, say: (line: string) => void): Promise<{ raw: Uint8Array; source?: DatasetSource }>;
  close(): Promise<void>;
}

export function startBuildWorker(): BuildWorker {
  const worker = tsxWorker(new URL('./build-thread.ts', import.meta.url));
  const pending = new Map<
    number,
    { say: (line: string) => void; done: (value: { raw: Uint8Array; source?: DatasetSource }) => void; fail: (error: Error) => void }
  >();
  let failed: Error | null = null;
  const failAll = (error: Error): void => {
    failed = error;
    for (const job of pending.values()) job.fail(error);
    pending.clear();
  };
  worker.on('message', (message: FromBuildThread) => {
    const job = pending.get(message.id);
    if (!job) return;
    if ('line' in message) return job.say(message.line);
    pending.delete(message.id);
    if ('error' in message) job.fail(new Error(`build thread: ${message.error}`));
    else job.done({ raw: message.raw, ...(message.source ? { source: message.source } : {}) });
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => {
    if (pending.size) failAll(new Error(`build thread exited (${code}) with ${pending.size} job(s) unfinished`));
  });
  let next = 0;
  return {
    run(job, say) {
      if (failed) return Promise.reject(failed);
      const id = next++;
      return new Promise((done, fail) => {
        pending.set(id, { say, done, fail });
        worker.postMessage({ id, job } satisfies ToBuildThread);
      });
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
