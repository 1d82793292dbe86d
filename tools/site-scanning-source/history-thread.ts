/**
 * load:history's second thread (history-worker.ts starts it): prepares the weeks asked for, one after another,
 * while the first thread copies the week before into Postgres.
 */
import { prepareWeek, type PreparedWeek } from './history-week.ts';
import type { HistoryJob } from './history-worker.ts';
import { serveJobs } from '../job-thread.ts';

serveJobs<HistoryJob, PreparedWeek>(async ({ dir, week, file }) => {
  const result = prepareWeek(dir, week, file);
  return { result, transfer: result.file ? [result.file.buffer as ArrayBuffer] : [] };
});
