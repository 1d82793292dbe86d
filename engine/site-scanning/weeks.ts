/**
 * Every weekly Site Scanning snapshot in one database (the built-in weeks dataset): its `websites` table is the
 * newest week, a dataset like any other; side tables hold each older week as its differences from the newest
 * (so any week costs the same to rebuild), a per-week count of sites by agency, bureau and scan outcome (the
 * trends), and the week list. A week's own database is rebuilt from them on demand (weekDatabase) and answers the
 * API exactly as the import of that week's file would.
 *
 * A site is told across weeks by its source file's path (data/<initial_domain>.json), as the weekly changes are.
 * Differences are per field of the stored record (stored-record.ts: one JSON text per field). Most records differ
 * from the newest every week (counters, hashes): 25 MB of differences a week, so each week's are one gzip'd
 * blob (3 MB), inflated only to rebuild that week; the core fields' differences, which a site's timeline reads
 * and which change rarely, are kept apart, uncompressed.
 */
import type { Database, SqlJsStatic, SqlValue } from 'sql.js';
import { gunzipSync, gzipSync } from 'fflate';
import { WEBSITE_FIELDS, type WebsiteRecord } from './record.ts';
import { createWebsitesSchema, insertWebsites, placeSortKeys, RECORD_COLUMN, SORT_KEY, WEBSITES_TABLE } from './schema.ts';
import { FIELD_SEPARATOR, recordFromStored } from './stored-record.ts';
import { HISTORY_FIELDS, HISTORY_TABLE } from './history.ts';
import { allRows } from '../sqlite-rows.ts';
import type { WeekSource } from '../http/snapshots.ts';
import { inTransaction } from '../sqlite-transaction.ts';

export const WEEKS_TABLE = 'website_weeks';
/** The newest week's rows by sort key (stable through VACUUM, unlike rowids), with their source path. */
const PATHS_TABLE = 'website_week_paths';
/** Per older week: gzip'd JSON of [sort key, {field index: text} | null (absent that week)] of each newest row that differs. */
const CHANGES_TABLE = 'website_week_changes';
/** Per newest row and older week where its core fields differ: those fields' texts (JSON {index: text}), or NULL: absent. */
const CORE_TABLE = 'website_week_core';
/** Per older week: the rows the newest week does not have, whole. */
const ONLY_TABLE = 'website_week_only';
const FACTS_TABLE = 'website_week_facts';

/** One week the dataset holds. */
export interface WeekEntry {
  date: string;
  count: number;
}

const FIELD_INDEX = new Map<string, number>(WEBSITE_FIELDS.map(([name], i) => [name, i]));
/** The core fields a site's timeline shows (history.ts), with their index in the stored record. */
const TIMELINE_FIELDS = HISTORY_FIELDS.map((name) => [name, FIELD_INDEX.get(name)!] as const);
const CORE_INDEXES = new Set(TIMELINE_FIELDS.map(([, i]) => i));

/** A stored record's field texts, in WEBSITE_FIELDS order. */
const textsOf = (stored: string): string[] => stored.split(FIELD_SEPARATOR);

// ---- Writing (the build) ----

/** The week tables, in a database whose `websites` table is the newest week's, each row's path given in sort-key order. */
export function createWeeks(db: Database, newestDate: string, pathsBySortKey: ReadonlyMap<number, string>): void {
  db.run(`CREATE TABLE ${WEEKS_TABLE} (date TEXT PRIMARY KEY, count INTEGER NOT NULL, newest INTEGER NOT NULL) WITHOUT ROWID`);
  db.run(`CREATE TABLE ${PATHS_TABLE} (${SORT_KEY} INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE)`);
  db.run(`CREATE TABLE ${CHANGES_TABLE} (date TEXT PRIMARY KEY, changes BLOB NOT NULL)`);
  db.run(`CREATE TABLE ${CORE_TABLE} (${SORT_KEY} INTEGER NOT NULL, date TEXT NOT NULL, fields TEXT, PRIMARY KEY (${SORT_KEY}, date)) WITHOUT ROWID`);
  db.run(
    `CREATE TABLE ${ONLY_TABLE} (date TEXT NOT NULL, path TEXT NOT NULL, target_url TEXT NOT NULL, ${RECORD_COLUMN} TEXT NOT NULL, PRIMARY KEY (date, path)) WITHOUT ROWID`,
  );
  db.run(`CREATE INDEX ${ONLY_TABLE}_by_url ON ${ONLY_TABLE} (target_url)`);
  db.run(
    `CREATE TABLE ${FACTS_TABLE} (date TEXT NOT NULL, agency TEXT, bureau TEXT, scan_status TEXT, sites INTEGER NOT NULL, live INTEGER NOT NULL, dap INTEGER NOT NULL, uswds INTEGER NOT NULL)`,
  );
  inTransaction(db, () => {
    const insert = db.prepare(`INSERT INTO ${PATHS_TABLE} VALUES (?, ?)`);
    try {
      for (const [key, path] of pathsBySortKey) insert.run([key, path]);
    } finally {
      insert.free();
    }
  });
  addWeek(
    db,
    newestDate,
    allRows(db, `SELECT ${RECORD_COLUMN} FROM ${WEBSITES_TABLE}`, []).map(([stored]) => recordFromStored(String(stored))),
    true,
  );
}

/** Each row's sort key and path, for createWeeks: `paths` are the records' paths in the order they were imported. */
export function sortKeyPaths(db: Database, paths: readonly string[]): Map<number, string> {
  const rows = allRows(db, `SELECT ${SORT_KEY} FROM ${WEBSITES_TABLE} ORDER BY rowid`, []);
  if (rows.length !== paths.length) throw new Error(`${rows.length} rows for ${paths.length} paths`);
  return new Map(rows.map(([key], i) => [Number(key), paths[i]]));
}

/**
 * A week's count and its sites per agency, bureau and scan status, from its records: what the SQL over its
 * `websites` columns would count (the columns hold the same values), without a database of the week.
 */
function addWeek(db: Database, date: string, records: Iterable<WebsiteRecord>, newest: boolean): void {
  const groups = new Map<string, [string | null, string | null, string | null, number, number, number, number]>();
  let count = 0;
  for (const r of records) {
    count++;
    const key = JSON.stringify([r.target_url_agency_owner, r.target_url_bureau_owner, r.scan_status]);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = [r.target_url_agency_owner, r.target_url_bureau_owner, r.scan_status, 0, 0, 0, 0]));
    group[3]++;
    if (r.final_url_live === true) group[4]++;
    if (r.dap_detected_final_url === true) group[5]++;
    if ((r.ds_usa_classes ?? 0) > 0) group[6]++;
  }
  db.run(`INSERT INTO ${WEEKS_TABLE} VALUES (?, ?, ?)`, [date, count, newest ? 1 : 0]);
  const insert = db.prepare(`INSERT INTO ${FACTS_TABLE} VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  try {
    inTransaction(db, () => {
      for (const group of groups.values()) insert.run([date, ...group]);
    });
  } finally {
    insert.free();
  }
}

/**
 * Adds an older week: `records` are its records as the import of its file maps them, `older` their stored texts
 * (stored-record.ts) by path. Written as its differences from the newest week this database holds.
 */
export function writeOlderWeek(db: Database, date: string, records: readonly WebsiteRecord[], older: ReadonlyMap<string, string>): void {
  const newest = allRows(db, `SELECT p.${SORT_KEY}, p.path, w.${RECORD_COLUMN} FROM ${PATHS_TABLE} p JOIN ${WEBSITES_TABLE} w USING (${SORT_KEY})`, []);
  const core = db.prepare(`INSERT INTO ${CORE_TABLE} VALUES (?, ?, ?)`);
  const only = db.prepare(`INSERT INTO ${ONLY_TABLE} VALUES (?, ?, ?, ?)`);
  const changes: [number, Record<number, string> | null][] = [];
  try {
    inTransaction(db, () => {
      const seen = new Set<string>();
      for (const [key, path, stored] of newest) {
        seen.add(String(path));
        const then = older.get(String(path));
        if (then === undefined) {
          changes.push([Number(key), null]);
          core.run([key, date, null]);
          continue;
        }
        if (then === stored) continue;
        const now = textsOf(String(stored));
        const fields: Record<number, string> = {};
        const coreFields: Record<number, string> = {};
        textsOf(then).forEach((text, i) => {
          if (text === now[i]) return;
          fields[i] = text;
          if (CORE_INDEXES.has(i)) coreFields[i] = text;
        });
        changes.push([Number(key), fields]);
        if (Object.keys(coreFields).length > 0) core.run([key, date, JSON.stringify(coreFields)]);
      }
      for (const [path, stored] of older) {
        if (!seen.has(path)) only.run([date, path, recordFromStored(stored).target_url, stored]);
      }
      db.run(`INSERT INTO ${CHANGES_TABLE} VALUES (?, ?)`, [date, gzipSync(new TextEncoder().encode(JSON.stringify(changes)), { level: 9, mtime: 0 })]);
    });
  } finally {
    core.free();
    only.free();
  }
  addWeek(db, date, records, false);
}

// ---- Reading ----

export function isWeeksDatabase(db: Database): boolean {
  return allRows(db, `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`, [WEEKS_TABLE]).length > 0;
}

/** The weeks held, oldest first. */
export function weekList(db: Database): WeekEntry[] {
  return allRows(db, `SELECT date, count FROM ${WEEKS_TABLE} ORDER BY date`, []).map(([date, count]) => ({ date: String(date), count: Number(count) }));
}

export function newestWeek(db: Database): string | null {
  const row = allRows(db, `SELECT date FROM ${WEEKS_TABLE} WHERE newest = 1`, [])[0];
  return row ? String(row[0]) : null;
}

function applyFields(stored: string, fields: Record<string, string>): string {
  const texts = textsOf(stored);
  for (const [i, text] of Object.entries(fields)) texts[Number(i)] = text;
  return texts.join(FIELD_SEPARATOR);
}

/** A week's stored records in its file's order (by path), or null when the dataset does not hold that week. */
export function weekStoredRecords(db: Database, date: string): string[] | null {
  if (allRows(db, `SELECT 1 FROM ${WEEKS_TABLE} WHERE date = ?`, [date]).length === 0) return null;
  const blob = allRows(db, `SELECT changes FROM ${CHANGES_TABLE} WHERE date = ?`, [date])[0]?.[0];
  const changes = new Map<number, Record<string, string> | null>(
    blob ? (JSON.parse(new TextDecoder().decode(gunzipSync(blob as Uint8Array))) as [number, Record<string, string> | null][]) : [],
  );
  const records: [string, string][] = [];
  for (const [key, path, stored] of allRows(
    db,
    `SELECT p.${SORT_KEY}, p.path, w.${RECORD_COLUMN} FROM ${PATHS_TABLE} p JOIN ${WEBSITES_TABLE} w USING (${SORT_KEY})`,
    [],
  )) {
    const fields = changes.get(Number(key));
    if (fields === null) continue;
    records.push([String(path), fields === undefined ? String(stored) : applyFields(String(stored), fields)]);
  }
  for (const [path, stored] of allRows(db, `SELECT path, ${RECORD_COLUMN} FROM ${ONLY_TABLE} WHERE date = ?`, [date]))
    records.push([String(path), String(stored)]);
  // The file order of a week is its paths in JavaScript's string order (the source reader's), not SQLite's.
  return records.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, stored]) => stored);
}

/**
 * A week's own websites database, as the import of that week's file makes it (same rows, order and sort keys);
 * null when the dataset does not hold the week. The caller owns (and closes) it.
 */
export function weekDatabase(SQL: SqlJsStatic, db: Database, date: string): Database | null {
  const stored = weekStoredRecords(db, date);
  if (!stored) return null;
  const week = new SQL.Database();
  try {
    createWebsitesSchema(week);
    insertWebsites(week, stored.map(recordFromStored), { sortKeys: 'later' });
    placeSortKeys(week);
    return week;
  } catch (error) {
    week.close();
    throw error;
  }
}

// ---- A site's weeks, trends ----

export interface TimelineRow {
  date: string;
  state: 'present' | 'absent';
  values: Record<string, unknown>;
  changed: string[];
}

/** A site's core fields in every week, oldest first, each with the fields that differ from the week present before; null: no such site. */
export function siteWeeks(db: Database, targetUrl: string): TimelineRow[] | null {
  const path =
    allRows(db, `SELECT p.path FROM ${WEBSITES_TABLE} w JOIN ${PATHS_TABLE} p USING (${SORT_KEY}) WHERE w.target_url = ? ORDER BY w.${SORT_KEY} LIMIT 1`, [
      targetUrl,
    ])[0]?.[0] ?? allRows(db, `SELECT path FROM ${ONLY_TABLE} WHERE target_url = ? ORDER BY date DESC, path LIMIT 1`, [targetUrl])[0]?.[0];
  if (path === undefined) return null;
  const base = allRows(db, `SELECT p.${SORT_KEY}, w.${RECORD_COLUMN} FROM ${PATHS_TABLE} p JOIN ${WEBSITES_TABLE} w USING (${SORT_KEY}) WHERE p.path = ?`, [
    path,
  ])[0] as [SqlValue, SqlValue] | undefined;
  const changes = new Map<string, SqlValue>(
    base ? allRows(db, `SELECT date, fields FROM ${CORE_TABLE} WHERE ${SORT_KEY} = ?`, [base[0]]).map(([d, f]) => [String(d), f]) : [],
  );
  const only = new Map(allRows(db, `SELECT date, ${RECORD_COLUMN} FROM ${ONLY_TABLE} WHERE path = ?`, [path]).map(([d, r]) => [String(d), String(r)]));
  const weeks: TimelineRow[] = [];
  let previous: Record<string, unknown> | null = null;
  for (const { date } of weekList(db)) {
    let stored: string | null = only.get(date) ?? null;
    if (stored === null && base) {
      const fields = changes.get(date);
      if (fields === undefined) stored = String(base[1]);
      else if (fields !== null) stored = applyFields(String(base[1]), JSON.parse(String(fields)) as Record<string, string>);
    }
    if (stored === null) {
      weeks.push({ date, state: 'absent', values: {}, changed: [] });
      continue;
    }
    const texts = textsOf(stored);
    const values: Record<string, unknown> = {};
    for (const [name, i] of TIMELINE_FIELDS) values[name] = texts[i] === '' ? null : JSON.parse(texts[i]);
    const before = previous;
    const changed = before ? TIMELINE_FIELDS.filter(([name]) => JSON.stringify(before[name]) !== JSON.stringify(values[name])).map(([name]) => name) : [];
    weeks.push({ date, state: 'present', values, changed });
    previous = values;
  }
  return weeks;
}

export interface WeekFact {
  date: string;
  name: string | null;
  sites: number;
  live: number;
  dap: number;
  uswds: number;
  outcomes: Record<string, number>;
}

/** Per week and agency (or bureau, of one agency or all), the sites and how many are live, have DAP, use USWDS, per scan status. */
export function weekFacts(db: Database, by: 'agency' | 'bureau', agency?: string): WeekFact[] {
  const where = agency === undefined ? '' : 'WHERE agency IS ?1';
  const rows = allRows(
    db,
    `SELECT date, ${by}, scan_status, SUM(sites), SUM(live), SUM(dap), SUM(uswds) FROM ${FACTS_TABLE} ${where} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    agency === undefined ? [] : [agency],
  );
  const facts = new Map<string, WeekFact>();
  for (const [date, name, status, sites, live, dap, uswds] of rows) {
    const key = JSON.stringify([date, name]);
    let fact = facts.get(key);
    if (!fact) facts.set(key, (fact = { date: String(date), name: name === null ? null : String(name), sites: 0, live: 0, dap: 0, uswds: 0, outcomes: {} }));
    fact.sites += Number(sites);
    fact.live += Number(live);
    fact.dap += Number(dap);
    fact.uswds += Number(uswds);
    const outcome = status === null ? 'unknown' : String(status);
    fact.outcomes[outcome] = (fact.outcomes[outcome] ?? 0) + Number(sites);
  }
  return [...facts.values()];
}

/** The weeks of a weeks database for the engine (Engine.useWeeks): each opened as weekDatabase rebuilds it. */
export function weekSource(SQL: SqlJsStatic, db: Database): WeekSource {
  const list = weekList(db);
  return { weeks: () => list, open: (date) => (list.some((w) => w.date === date) ? weekDatabase(SQL, db, date) : null) };
}

/**
 * The snapshot day a database records of itself (the weeks dataset's newest week, or the build's snapshot with its
 * history), or null. The records' own latest scan_date is not it: a week's scans ran the days before its snapshot
 * (2025-02-10's latest is 2025-02-09), so a load filed by it lands a day early.
 */
export function recordedSnapshotDate(db: Database): string | null {
  for (const sql of [`SELECT date FROM ${WEEKS_TABLE} WHERE newest = 1`, `SELECT date FROM ${HISTORY_TABLE}_dates WHERE own = 1`]) {
    try {
      const row = allRows(db, sql, [])[0];
      if (row) return String(row[0]);
    } catch {
      // No such table: the database does not record it that way.
    }
  }
  return null;
}
