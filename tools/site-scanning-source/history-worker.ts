/**
 * The weeks of load:history prepared on a second thread (history-thread.ts): week N+1 is read from git and
 * mapped while week N is copied into Postgres, which works in its own process, so both cores are busy.
 */
import { startJobThread } from '../job-thread.ts';
import type { HistoryWeek } from './history.ts';
import type { PreparedWeek } from './history-week.ts';

export interface HistoryJob {
  dir: string;
  week: HistoryWeek;
  /** Also the week's file as the import reads it (PreparedWeek.file). */
  file: boolean;
}

export interface WeekPreparer {
  prepare(week: HistoryWeek, file: boolean): Promise<PreparedWeek>;
  close(): Promise<void>;
}

export function startWeekPreparer(dir: string): WeekPreparer {
  const thread = startJobThread<HistoryJob, PreparedWeek>(new URL('./history-thread.ts', import.meta.url), 'load:history thread');
  return { prepare: (week, file) => thread.run({ dir, week, file }), close: () => thread.close() };
}
