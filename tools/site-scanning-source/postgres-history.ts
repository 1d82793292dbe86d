/**
 * The weekly Site Scanning snapshots of the fetched source repository loaded into Postgres, one snapshot per
 * week under its commit's date: each week's files less its stale ones (history.ts), mapped as the app's import
 * maps them (the same JSON mapping as a user's file, scan_date the week's day; history-week.ts), then copied by
 * the Postgres store's own load (one transaction per week; loading a week again replaces it). The next week is
 * prepared on a second thread meanwhile. Build and bench time only (it runs `git`).
 */
import type pg from 'pg';
import type { Database, SqlJsStatic } from 'sql.js';
import { importIntoDatabase } from '../../dataset/import/index.ts';
import { inLoadTransaction, vacuumLoaded } from '../../adapters/node/postgres/load.ts';
import { loadWebsitesSnapshot } from '../../adapters/node/postgres/websites-store.ts';
import { quote } from '../../adapters/node/postgres/quote.ts';
import { storeOf } from '../../adapters/node/postgres/stores.ts';
import { WEBSITE_FILTER_PARAMETERS } from '../../engine/site-scanning/parameters.ts';
import { SOURCE_REPOSITORY } from './git-snapshot.ts';
import { historyWeeks, type HistoryWeek } from './history.ts';
import type { PreparedWeek, WeekCounts } from './history-week.ts';
import { startWeekPreparer } from './history-worker.ts';

/** The columns of the week, order, filters (websites.ts whereOf) and /analysis groups (analysisCountsSql) of a request. */
const PLANNED_COLUMNS = [
  ...new Set(['snapshot', 'ord', 'target_url', 'final_url_domain', 'target_url_agency_owner', ...WEBSITE_FILTER_PARAMETERS.map(({ name }) => name)]),
];

/** The store's tables, the wide one by its planned columns only (the narrow ones are cheap to sample whole). */
const INTERIM_ANALYZE = `ANALYZE ${storeOf('websites')!
  .tables.map((table) => (table === 'websites' ? `websites (${PLANNED_COLUMNS.map(quote).join(', ')})` : table))
  .join(', ')}`;

export interface LoadedWeek extends WeekCounts {
  /** The week's share of the wall time: from the week before's end (its preparation overlapped that week's copy). */
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
  /**
   * Weeks whose database, as the import of the week's file makes it, the caller keeps (and closes), e.g. to
   * compare an engine over it. Only these weeks (every week when `loaded` is given) are imported.
   */
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
  const loaded: LoadedWeek[] = [];
  const imported = (date: string): boolean => after !== undefined || keep(date);
  // Started first: the thread loads its modules while this one reads the weeks' trees.
  const preparer = startWeekPreparer(dir);
  let weeks: HistoryWeek[] = [];
  try {
    weeks = historyWeeks(dir).filter((w) => !only || only.includes(w.date));
    const ask = (week: HistoryWeek | undefined): Promise<PreparedWeek> | null => {
      if (!week) return null;
      const asked = preparer.prepare(week, imported(week.date));
      // Awaited in its turn; this only keeps a failure meanwhile from counting as unhandled.
      asked.catch(() => {});
      return asked;
    };
    let next = ask(weeks[0]);
    let started = performance.now();
    for (let i = 0; i < weeks.length; i++) {
      const week = await next!;
      next = ask(weeks[i + 1]);
      const origin = `Real: the published Site Scanning snapshot of ${week.date} (${SOURCE_REPOSITORY} @ ${week.commit.slice(0, 8)}), ${week.kept} of ${week.files} files, ${week.dropped} stale dropped`;
      await inLoadTransaction(pool, (client) => loadWebsitesSnapshot(client, week.date, origin, week.stored));
      // One VACUUM after the last week, not one per week (each would read every week before it again); the
      // planner's statistics meanwhile from ANALYZE's sample of the columns requests plan on (a quarter of the time
      // of every column's; the VACUUM (ANALYZE) at the end makes them all).
      await pool.query(INTERIM_ANALYZE);
      const { date, commit, files, kept: keptCount, dropped, rejected, file } = week;
      const line = { date, commit, files, kept: keptCount, dropped, rejected, ms: performance.now() - started };
      print(weekLine(line));
      loaded.push(line);
      if (file) await importedWeek(SQL, line, file, kept, keep, after);
      started = performance.now();
    }
  } finally {
    await preparer.close();
  }
  if (weeks.length > 0) await vacuumLoaded(pool, ['websites']);
  return { weeks: loaded, kept };
}

/** The week's database as the import of its file makes it, for `loaded` and `keep`. */
async function importedWeek(
  SQL: SqlJsStatic,
  week: LoadedWeek,
  file: Uint8Array,
  kept: Map<string, Database>,
  keep: (date: string) => boolean,
  after: HistoryOptions['loaded'],
): Promise<void> {
  const { db, report } = await importIntoDatabase(SQL, file, { name: `site-scanning-${week.date}.json`, format: 'websites-json', snapshotDate: week.date });
  try {
    if (report.rowsRejected !== week.rejected) throw new Error(`${week.date}: the import refused ${report.rowsRejected} records, the load ${week.rejected}`);
    if (after) await after(week, db);
  } finally {
    if (keep(week.date)) kept.set(week.date, db);
    else db.close();
  }
}
