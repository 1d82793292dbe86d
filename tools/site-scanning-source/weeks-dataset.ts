/**
 * The built-in weeks dataset (engine/site-scanning/weeks.ts): every shipped week (data/, real-data.ts everyWeek)
 * through the import core's mapping, the same as a user's file and as `load:history`'s Postgres weeks, the newest
 * imported as its `websites` table and each older one mapped in memory (no database of its own: 17 imports took
 * 8 minutes) and stored as its differences from it. Build time only.
 */
import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetSource } from '../../dataset/artifact/format.ts';
import { importIntoDatabase } from '../../dataset/import/index.ts';
import { mapJsonRecords } from '../../dataset/import/import.ts';
import { storedRecord } from '../../engine/site-scanning/stored-record.ts';
import type { WebsiteRecord } from '../../engine/site-scanning/record.ts';
import { createWeeks, sortKeyPaths, writeOlderWeek } from '../../engine/site-scanning/weeks.ts';
import { everyWeek, shippedWeeks } from '../real-data.ts';
import type { SourceRecord } from './weeks.ts';
import { SOURCE_REPOSITORY } from './git-snapshot.ts';

/** A week's records through the import core (scan_date: the week's day); every record must be kept. */
async function imported(SQL: SqlJsStatic, date: string, records: ReadonlyMap<string, SourceRecord>): Promise<Database> {
  const bytes = new TextEncoder().encode(JSON.stringify([...records.values()]));
  const { db, report, dataset } = await importIntoDatabase(SQL, bytes, { name: `site-scanning-${date}.json`, format: 'websites-json', snapshotDate: date });
  if (dataset !== 'websites' || report.rowsRejected !== 0) {
    db.close();
    throw new Error(`the week of ${date}: ${report.rowsRejected} records refused by the import`);
  }
  return db;
}

/** An older week's records mapped as its file's import maps them (every record must be kept), and their stored texts by path. */
function mapped(date: string, records: ReadonlyMap<string, SourceRecord>): { records: WebsiteRecord[]; stored: Map<string, string> } {
  const { records: mappedRecords, report } = mapJsonRecords('websites', records.values(), { snapshotDate: date });
  if (report.rowsRejected !== 0 || mappedRecords.length !== records.size)
    throw new Error(`the week of ${date}: ${report.rowsRejected} records refused by the import`);
  const paths = [...records.keys()];
  return { records: mappedRecords, stored: new Map(mappedRecords.map((record, i) => [paths[i], storedRecord(record)])) };
}

export function weeksSource(): DatasetSource {
  const { weeks } = shippedWeeks();
  const newest = weeks[weeks.length - 1];
  return {
    kind: 'real',
    label:
      `Real: every published weekly Site Scanning snapshot, ${weeks.length} weeks from ${weeks[0].date} to ${newest.date}, ` +
      `${newest.count.toLocaleString('en-US')} sites in the newest (${SOURCE_REPOSITORY} @ ${newest.commit.slice(0, 8)}, data CC0)`,
    repository: SOURCE_REPOSITORY,
    commit: newest.commit,
    date: newest.date,
    from: weeks[0].date,
    licence: 'CC0-1.0',
    count: newest.count,
  };
}

/** Every shipped week (or the newest and the `only` dates: a test's smaller copy) as one weeks database. */
export async function weeksDatabase(
  SQL: SqlJsStatic,
  { say = () => {}, only }: { say?: (line: string) => void; only?: readonly string[] } = {},
): Promise<{ db: Database; source: DatasetSource }> {
  let db: Database | null = null;
  try {
    for (const { week, records } of everyWeek()) {
      if (db && only && !only.includes(week.date)) continue;
      const started = performance.now();
      if (!db) {
        db = await imported(SQL, week.date, records);
        createWeeks(db, week.date, sortKeyPaths(db, [...records.keys()]));
      } else {
        const older = mapped(week.date, records);
        writeOlderWeek(db, week.date, older.records, older.stored);
      }
      say(`the week of ${week.date}: ${records.size.toLocaleString('en-US')} records in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } catch (error) {
    db?.close();
    throw error;
  }
  if (!db) throw new Error('no weeks shipped');
  return { db, source: weeksSource() };
}
