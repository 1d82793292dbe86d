/**
 * The weeks of load:history prepared on a second thread (history-thread.ts): week N+1 is read from git and
 * mapped while week N is copied into Postgres, which works in its own process, so both cores are busy.
 */
import { tsxWorker } from '../tsx-worker.ts';
import type { HistoryWeek } from './history.ts';
import type { PreparedWeek } from './history-week.ts';

export interface ToHistoryThread {
  id: number;
  dir: string;
  week: HistoryWeek;
  /** Also the week's file as the import reads it (PreparedWeek.file). */
  file: boolean;
}
export type FromHistoryThread = { id: number; prepared: PreparedWeek } | { id: number; error: string };

export interface WeekPreparer {
  prepare(week: HistoryWeek, file: boolean): Promise<PreparedWeek>;
  close(): Promise<void>;
}

export function startWeekPreparer(dir: string): WeekPreparer {
  const worker = tsxWorker(new URL('./history-thread.ts', import.meta.url));
  const pending = new Map<number, { done: (week: PreparedWeek) => void; fail: (error: Error) => void }>();
  let failed: Error | null = null;
  const failAll = (error: Error): void => {
    failed = error;
    for (const job of pending.values()) job.fail(error);
    pending.clear();
  };
  worker.on('message', (message: FromHistoryThread) => {
    const job = pending.get(message.id);
    if (!job) return;
    pending.delete(message.id);
    if ('error' in message) job.fail(new Error(`load:history thread: ${message.error}`));
    else job.done(message.prepared);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => {
    if (pending.size) failAll(new Error(`load:history thread exited (${code}) with ${pending.size} week(s) unprepared`));
  });
  let next = 0;
  return {
    prepare(week, file) {
      if (failed) return Promise.reject(failed);
      const id = next++;
      return new Promise((done, fail) => {
        pending.set(id, { done, fail });
        worker.postMessage({ id, dir, week, file } satisfies ToHistoryThread);
      });
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
