/**
 * The weeks data/ ships (shipped-weeks.ts, their one reader) loaded into Postgres, one snapshot per week under
 * its day: each week's records mapped as the app's import of its file maps them (scan_date the week's day where a
 * record has none), in the engine's listing order (`listingOrder`: target_url in UTF-8 byte order, then file
 * order), copied by the Postgres store's own load (one transaction per week; loading a week again replaces it).
 * Given a clone of the source repository, each week is first checked to be what its commit holds less its stale
 * files (git-weeks.ts). Build and bench time only.
 */
import type pg from 'pg';
import { mapJsonRecords } from '../../dataset/import/import.ts';
import { inLoadTransaction, vacuumLoaded } from '../../adapters/node/backends/postgres/load.ts';
import { loadWebsitesSnapshot } from '../../adapters/node/backends/postgres/websites-store.ts';
import { quote } from '../../adapters/node/backends/postgres/quote.ts';
import { storeOf } from '../../adapters/node/backends/postgres/stores.ts';
import { WEBSITE_FILTER_PARAMETERS } from '../../engine/site-scanning/parameters.ts';
import { listingOrder } from '../../engine/site-scanning/schema.ts';
import { storedRecord } from '../../engine/site-scanning/stored-record.ts';
import { SOURCE_REPOSITORY } from './git-snapshot.ts';
import { gitWeekRecords, gitWeeks, type GitWeek } from './git-weeks.ts';
import { everyWeek } from './shipped-weeks.ts';
import type { SourceRecord } from './week-changes.ts';

/** The columns of the week, order, filters (websites.ts whereOf) and /analysis groups (analysisCountsSql) of a request. */
const PLANNED_COLUMNS = [
  ...new Set(['snapshot', 'ord', 'target_url', 'final_url_domain', 'target_url_agency_owner', ...WEBSITE_FILTER_PARAMETERS.map(({ name }) => name)]),
];

/** The store's tables, the wide one by its planned columns only (the narrow ones are cheap to sample whole). */
const INTERIM_ANALYZE = `ANALYZE ${storeOf('websites')!
  .tables.map((table) => (table === 'websites' ? `websites (${PLANNED_COLUMNS.map(quote).join(', ')})` : table))
  .join(', ')}`;

/** What the per-week report says of a week. */
export interface LoadedWeek {
  date: string;
  commit: string;
  /** `data/*.json` files in its commit, records selected, stale files dropped. */
  files: number;
  selected: number;
  dropped: number;
  /** The week's share of the wall time. */
  ms: number;
}

/** One line of the per-week report. */
export const weekLine = (w: LoadedWeek): string =>
  `${w.date} @ ${w.commit.slice(0, 8)}: ${w.files} files, ${w.selected} selected, ${w.dropped} stale dropped (${(w.ms / 1000).toFixed(1)} s)`;

export interface WeeksOptions {
  /** Only these dates (default: every week). */
  only?: readonly string[];
  /** A bare clone of the source repository: each week is checked against its commit before it is loaded. */
  git?: string;
  print?: (line: string) => void;
  /** Called with each week's records once the week is loaded (the caller may compare an engine over them). */
  loaded?: (week: LoadedWeek, records: readonly SourceRecord[]) => Promise<void>;
}

/** A week's records as the import maps them, their stored texts in listing order; every record must be imported. */
export function listedStoredTexts(date: string, records: Iterable<SourceRecord>): string[] {
  const { records: mapped, report } = mapJsonRecords('websites', records, { snapshotDate: date });
  if (report.rowsRejected !== 0) throw new Error(`the week of ${date}: the import refuses ${report.rowsRejected} records`);
  return listingOrder(mapped).map((i) => storedRecord(mapped[i]));
}

/** Throws unless the clone's commit of the week, less its stale files, holds the same records (as the import maps them). */
function checkAgainstGit(dir: string, week: GitWeek | undefined, date: string, records: ReadonlyMap<string, SourceRecord>): void {
  if (!week) throw new Error(`the clone has no weekly commit of ${date}`);
  const fromGit = gitWeekRecords(dir, week);
  const paths = [...records.keys()];
  if (fromGit.size !== records.size || paths.some((path) => !fromGit.has(path))) {
    throw new Error(`the week of ${date}: data/ holds ${records.size} sites, the clone's ${week.commit.slice(0, 8)} ${fromGit.size} (or others)`);
  }
  const ours = listedStoredTexts(date, records.values());
  const theirs = listedStoredTexts(
    date,
    paths.map((path) => fromGit.get(path)!),
  );
  const differ = ours.findIndex((text, i) => text !== theirs[i]);
  if (differ >= 0) throw new Error(`the week of ${date}: a record differs from the clone's ${week.commit.slice(0, 8)} (listing place ${differ})`);
}

/** Load every week (or the `only` dates), newest first, reporting each as it is loaded. */
export async function loadWeeks(pool: pg.Pool, options: WeeksOptions = {}): Promise<LoadedWeek[]> {
  const { only, git, print = (line) => console.log(line), loaded: after } = options;
  const fromGit = git ? new Map(gitWeeks(git).map((w) => [w.date, w])) : null;
  const loaded: LoadedWeek[] = [];
  let started = performance.now();
  for (const { week, records } of everyWeek()) {
    if (only && !only.includes(week.date)) continue;
    if (git && fromGit) checkAgainstGit(git, fromGit.get(week.date), week.date, records);
    const origin = `Real: the published Site Scanning week of ${week.date} (${SOURCE_REPOSITORY} @ ${week.commit.slice(0, 8)}), ${week.count} of ${week.files} files, ${week.dropped} stale dropped`;
    const stored = listedStoredTexts(week.date, records.values());
    await inLoadTransaction(pool, (client) => loadWebsitesSnapshot(client, week.date, origin, stored));
    // One VACUUM after the last week, not one per week (each would read every week before it again); the
    // planner's statistics meanwhile from ANALYZE's sample of the columns requests plan on (a quarter of the time
    // of every column's; the VACUUM (ANALYZE) at the end makes them all).
    await pool.query(INTERIM_ANALYZE);
    const line: LoadedWeek = {
      date: week.date,
      commit: week.commit,
      files: week.files,
      selected: week.count,
      dropped: week.dropped,
      ms: performance.now() - started,
    };
    print(weekLine(line));
    loaded.push(line);
    if (after) await after(line, [...records.values()]);
    started = performance.now();
  }
  if (loaded.length > 0) await vacuumLoaded(pool, ['websites']);
  return loaded;
}
