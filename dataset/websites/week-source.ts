/**
 * A week of the built-in weeks dataset as its own database (engine/site-scanning/weeks.ts): the newest from its
 * `websites` table, an older one from its source records (the chain decoded back to it) through the import core's
 * JSON mapping, so that it is the import of that week's file row for row, sort keys included.
 */
import type { Database, SqlJsStatic } from 'sql.js';
import type { WebsiteRecord } from '../../engine/site-scanning/record.ts';
import { createWebsitesSchema, insertWebsites, placeSortKeys } from '../../engine/site-scanning/schema.ts';
import { recordFromStored } from '../../engine/site-scanning/stored-record.ts';
import { checkWeeksFormat, newestStoredRecords, newestWeek, weekList, weekSourceRecords, type BrotliDecode } from '../../engine/site-scanning/weeks.ts';
import type { WeekSource } from '../../engine/http/snapshots.ts';
import { mapJsonRecords } from '../import/import.ts';

/** A websites database of mapped records, as the import fills one (sort keys placed after the last row). */
export function websitesDatabase(SQL: SqlJsStatic, records: readonly WebsiteRecord[]): Database {
  const db = new SQL.Database();
  try {
    createWebsitesSchema(db);
    insertWebsites(db, records, { sortKeys: 'later' });
    placeSortKeys(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** A week's records as the import of its file maps them (scan_date: the week's day); every record must be kept. */
export function mappedWeek(date: string, records: Iterable<unknown>): WebsiteRecord[] {
  const { records: mapped, report } = mapJsonRecords('websites', records, { snapshotDate: date });
  if (report.rowsRejected !== 0) throw new Error(`the week of ${date}: ${report.rowsRejected} records refused by the import`);
  return mapped;
}

/** A week's own websites database, or null when the dataset does not hold it. The caller owns (and closes) it. */
export function weekDatabase(SQL: SqlJsStatic, db: Database, date: string, decode: BrotliDecode): Database | null {
  checkWeeksFormat(db);
  if (date === newestWeek(db)) return websitesDatabase(SQL, newestStoredRecords(db).map(recordFromStored));
  let records = weekSourceRecords(db, date, decode);
  if (!records) return null;
  const mapped = mappedWeek(date, records);
  // Let the source records (about 500 MB of objects) go before the insert: it then runs without their weight.
  records = null;
  return websitesDatabase(SQL, mapped);
}

/** The weeks of a weeks database for the engine (Engine.useWeeks) and the weeks features; refuses another form. */
export function weekSource(SQL: SqlJsStatic, db: Database, decode: BrotliDecode): WeekSource {
  checkWeeksFormat(db);
  const list = weekList(db);
  return { weeks: () => list, open: (date) => (list.some((w) => w.date === date) ? weekDatabase(SQL, db, date, decode) : null) };
}
