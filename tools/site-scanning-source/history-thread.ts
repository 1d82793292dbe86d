/**
 * load:history's second thread (history-worker.ts starts it): prepares the weeks asked for, one after another,
 * while the first thread copies the week before into Postgres.
 */
import { parentPort } from 'node:worker_threads';
import { prepareWeek } from './history-week.ts';
import type { FromHistoryThread, ToHistoryThread } from './history-worker.ts';

const port = parentPort!;
port.on('message', ({ id, dir, week, file }: ToHistoryThread) => {
  try {
    const prepared = prepareWeek(dir, week, file);
    const bytes = prepared.file;
    port.postMessage({ id, prepared } satisfies FromHistoryThread, bytes ? [bytes.buffer as ArrayBuffer] : []);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies FromHistoryThread);
  }
});
