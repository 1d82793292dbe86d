/**
 * The weekly Site Scanning snapshots of the fetched source repository loaded into Postgres, one snapshot per
 * week under its commit's date: each week's files less its stale ones (history.ts), through the app's import
 * (the same JSON mapping as a user's file, scan_date the week's day), then `load --database`'s own load (one
 * transaction per week; loading a week again replaces it). Build and bench time only (it runs `git`).
 */
import type pg from 'pg';
import type { Database, SqlJsStatic } from 'sql.js';
import { importIntoDatabase } from '../../dataset/import/index.ts';
import { loadIntoPostgres, vacuumLoaded } from '../../adapters/node/postgres/load.ts';
import { SOURCE_REPOSITORY } from './git-snapshot.ts';
import { historyWeeks, weekRecords, type HistoryWeek } from './history.ts';

export interface LoadedWeek {
  date: string;
  commit: string;
  files: number;
  kept: number;
  dropped: number;
  /** Records the import refused (reported, not loaded). */
  rejected: number;
  ms: number;
}

/** One line of the per-week report. */
export const weekLine = (w: LoadedWeek): string =>
  `${w.date} @ ${w.commit.slice(0, 8)}: ${w.files} files, ${w.kept} kept, ${w.dropped} stale dropped` +
  `${w.rejected ? `, ${w.rejected} refused by the import` : ''} (${(w.ms / 1000).toFixed(1)} s)`;

export interface HistoryOptions {
  /** Only these dates (default: every week). */
  only?: readonly string[];
  print?: (line: string) => void;
  /** Weeks whose imported database the caller keeps (and closes), e.g. to compare an engine over it. */
  keep?: (date: string) => boolean;
  /** Called with each week's imported database once the week is loaded (before it is closed or kept). */
  loaded?: (week: LoadedWeek, db: Database) => Promise<void>;
}

/** Load every week (or the `only` dates), oldest first, reporting each as it is loaded. */
export async function loadHistory(
  SQL: SqlJsStatic,
  pool: pg.Pool,
  dir: string,
  options: HistoryOptions = {},
): Promise<{ weeks: LoadedWeek[]; kept: Map<string, Database> }> {
  const { only, print = (line) => console.log(line), keep = () => false, loaded: after } = options;
  const kept = new Map<string, Database>();
  const weeks: HistoryWeek[] = historyWeeks(dir).filter((w) => !only || only.includes(w.date));
  const loaded: LoadedWeek[] = [];
  for (const week of weeks) {
    const started = performance.now();
    const records = weekRecords(dir, week);
    const bytes = new TextEncoder().encode(JSON.stringify([...records.values()]));
    const { db, report } = await importIntoDatabase(SQL, bytes, { name: `site-scanning-${week.date}.json`, format: 'websites-json', snapshotDate: week.date });
    try {
      const origin = `Real: the published Site Scanning snapshot of ${week.date} (${SOURCE_REPOSITORY} @ ${week.commit.slice(0, 8)}), ${records.size} of ${week.files} files, ${week.stale.size} stale dropped`;
      // One VACUUM after the last week, not one per week (each would read every week before it again); the
      // planner's statistics meanwhile from ANALYZE's sample.
      await loadIntoPostgres(pool, { websites: { db, origin }, snapshot: week.date, vacuum: false });
      await pool.query('ANALYZE websites');
      const line = {
        date: week.date,
        commit: week.commit,
        files: week.files,
        kept: records.size,
        dropped: week.stale.size,
        rejected: report.rowsRejected,
        ms: performance.now() - started,
      };
      print(weekLine(line));
      loaded.push(line);
      if (after) await after(line, db);
    } finally {
      if (keep(week.date)) kept.set(week.date, db);
      else db.close();
    }
  }
  if (weeks.length > 0) await vacuumLoaded(pool, ['websites']);
  return { weeks: loaded, kept };
}
