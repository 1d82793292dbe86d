/**
 * The weeks' tables (the websites dataset's weeks attachment, docs/decisions/1100): every week's websites in one
 * database, each version of a site's record stored once with the weeks it holds for, so that a week's request is
 * a query of these tables, with nothing rebuilt.
 * - `website_weeks`: the weeks, numbered oldest first, with their day, count of sites and, for a week whose list is
 *   known to be incomplete, why.
 * - `website_week_rows`: each version of a site's columns (the websites table's: its URL, the API's filters and
 *   what the measures count), valid from its first week to before `valid_to`, and its place in the listing order
 *   (`listed`: target_url in UTF-8 byte order, then source file, as each week's import orders it).
 * - `website_week_blocks`: the sites' whole records over the weeks (site-weeks.ts), BLOCK_SITES sites to a
 *   Brotli-compressed JSON array, in the order of their site numbers.
 * - `website_week_items`: the item list third_party_service_urls is written with (site-weeks.ts), one Brotli text.
 * - `website_week_facts`: per week, agency, bureau and scan outcome, the sites and their measures (the trends).
 */
import type { Database } from 'sql.js';
import { allRows } from '../sqlite-rows.ts';
import type { WeekEntry } from '../http/snapshots.ts';
import { COLUMN_DEFINITIONS } from './schema.ts';
import { MEASURES } from './measures.ts';

export const WEEKS_TABLE = 'website_weeks';
export const ROWS_TABLE = 'website_week_rows';
export const BLOCKS_TABLE = 'website_week_blocks';
export const ITEMS_TABLE = 'website_week_items';
export const FACTS_TABLE = 'website_week_facts';
const FORMAT_TABLE = 'website_week_format';

/** The attachment's tables, as the registry lists them (row counts are reported per table). */
export const WEEKS_TABLES = [WEEKS_TABLE, ROWS_TABLE, BLOCKS_TABLE, ITEMS_TABLE, FACTS_TABLE] as const;

/**
 * The tables' form. A copy kept in another (1: each week against the newest; 2: data/'s chain; 3: the chain with
 * whole weeks every 4th) is refused with an error that says to load it again, never misread.
 */
export const WEEKS_FORMAT = 4;

/** Sites per block: a record's first read decodes its block (0.5 ms for 16 sites' 17 weeks, 66 KB of JSON). */
export const BLOCK_SITES = 16;

export function createWeeksSchema(db: Database): void {
  db.run(`CREATE TABLE ${FORMAT_TABLE} (version INTEGER NOT NULL)`);
  db.run(`INSERT INTO ${FORMAT_TABLE} VALUES (${WEEKS_FORMAT})`);
  db.run(`CREATE TABLE ${WEEKS_TABLE} (week INTEGER PRIMARY KEY, date TEXT NOT NULL UNIQUE, count INTEGER NOT NULL, partial TEXT)`);
  db.run(
    `CREATE TABLE ${ROWS_TABLE} (${COLUMN_DEFINITIONS}, site INTEGER NOT NULL, listed INTEGER NOT NULL, valid_from INTEGER NOT NULL, valid_to INTEGER NOT NULL)`,
  );
  db.run(`CREATE TABLE ${BLOCKS_TABLE} (block INTEGER PRIMARY KEY, raw_bytes INTEGER NOT NULL, bytes BLOB NOT NULL)`);
  db.run(`CREATE TABLE ${ITEMS_TABLE} (raw_bytes INTEGER NOT NULL, bytes BLOB NOT NULL)`);
  db.run(
    `CREATE TABLE ${FACTS_TABLE} (week INTEGER NOT NULL, agency TEXT, bureau TEXT, scan_status TEXT, sites INTEGER NOT NULL, ${MEASURES.map((m) => `${m} INTEGER NOT NULL`).join(', ')})`,
  );
}

/** The indexes, made once the rows are in: a week's record by URL (`/websites/{url}`), a site's versions (its timeline). */
export function indexWeeks(db: Database): void {
  db.run(`CREATE INDEX ${ROWS_TABLE}_by_url ON ${ROWS_TABLE} (target_url, listed)`);
  db.run(`CREATE INDEX ${ROWS_TABLE}_by_site ON ${ROWS_TABLE} (site, valid_from)`);
}

/** True when the database holds the weeks' tables, in any form. */
export function isWeeksDatabase(db: Database): boolean {
  return allRows(db, `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)`, [FORMAT_TABLE, WEEKS_TABLE]).length > 0;
}

/** Throws unless the database holds the weeks' tables in the form this code reads (WEEKS_FORMAT). */
export function checkWeeksFormat(db: Database): void {
  let version: number | null = null;
  try {
    version = Number(allRows(db, `SELECT version FROM ${FORMAT_TABLE}`, [])[0]?.[0] ?? 0);
  } catch {
    // No such table: the first form, which held each week against the newest.
  }
  if (version !== WEEKS_FORMAT)
    throw new Error(`the weeks dataset kept here is in an older form (${version ?? 1}, not ${WEEKS_FORMAT}): delete it and load it again`);
}

/** A week held: its entry, its number (oldest 0) and, when its list is known to be incomplete, why. */
export interface HeldWeek extends WeekEntry {
  week: number;
  partial: string | null;
}

/** The weeks held, oldest first. */
export function heldWeeks(db: Database): HeldWeek[] {
  return allRows(db, `SELECT week, date, count, partial FROM ${WEEKS_TABLE} ORDER BY week`, []).map(([week, date, count, partial]) => ({
    week: Number(week),
    date: String(date),
    count: Number(count),
    partial: partial === null ? null : String(partial),
  }));
}
