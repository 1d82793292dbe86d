/**
 * One week of the history as the Postgres load needs it, without a database: its records read from the git
 * directory (history.ts), mapped by the import core exactly as the import of the week's file maps them
 * (`mapJsonRecords`: scan_date the week's day, the same refusals), and their stored texts in the engine's listing
 * order (`listingOrder`, which the import's sort keys follow: target_url in UTF-8 byte order, then file order). The in-memory
 * import built a whole sql.js database per week only for the load to read these back (`--check` still builds
 * it, and compares the engine over it with what this loaded).
 */
import { mapJsonRecords } from '../../dataset/import/import.ts';
import { storedRecord } from '../../engine/site-scanning/stored-record.ts';
import { listingOrder } from '../../engine/site-scanning/schema.ts';
import { weekRecords, type HistoryWeek } from './history.ts';

/** What the per-week report says of a week: its commit, files, records kept and dropped, records refused. */
export interface WeekCounts {
  date: string;
  commit: string;
  files: number;
  kept: number;
  dropped: number;
  /** Records the import refused (reported, not loaded). */
  rejected: number;
}

export interface PreparedWeek extends WeekCounts {
  /** The kept records' stored texts (engine/site-scanning/stored-record.ts) in listing order. */
  stored: string[];
  /** When asked for: the week's records as one JSON file, for the import of a caller that wants the database too. */
  file?: Uint8Array;
}

export function prepareWeek(dir: string, week: HistoryWeek, file = false): PreparedWeek {
  const records = weekRecords(dir, week);
  const { records: mapped, report } = mapJsonRecords('websites', records.values(), { snapshotDate: week.date });
  const order = listingOrder(mapped);
  return {
    date: week.date,
    commit: week.commit,
    files: week.files,
    kept: records.size,
    dropped: week.stale.size,
    rejected: report.rowsRejected,
    stored: order.map((i) => storedRecord(mapped[i])),
    ...(file ? { file: new TextEncoder().encode(JSON.stringify([...records.values()])) } : {}),
  };
}
