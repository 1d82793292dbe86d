/**
 * Every weekly Site Scanning snapshot in one database (the built-in weeks dataset, docs/decisions/1100): its
 * `websites` table is the newest week, a dataset like any other. Beside it, the chain data/ ships, its Brotli bytes
 * verbatim (the newest week's source file, each older week's changes against the week after it: week-changes.ts),
 * and every few weeks one older week's source records whole (a checkpoint), from which a week's source records are
 * rebuilt at run time; a per-week count of sites by agency, bureau and scan
 * outcome (the trends); and each site's core fields where they change from the week after (its timeline).
 *
 * A site is told across weeks by its source file's path (data/<initial_domain>.json), as the weekly changes are.
 * The Brotli decoder is the caller's (Node's zlib, the browsers' WebAssembly one): this module stays pure.
 */
import type { Database, SqlValue } from 'sql.js';
import { WEBSITE_FIELDS, type WebsiteRecord } from './record.ts';
import { FIELD_SEPARATOR } from './stored-record.ts';
import { RECORD_COLUMN, SORT_KEY, WEBSITES_TABLE } from './schema.ts';
import { HISTORY_FIELDS, HISTORY_TABLE } from './history.ts';
import { applyWeekInPlace, sourcePath, type SourceRecord, type WeekChanges } from './week-changes.ts';
import { allRows } from '../sqlite-rows.ts';
import { inTransaction } from '../sqlite-transaction.ts';

export const WEEKS_TABLE = 'website_weeks';
/**
 * The week tables' form. A copy kept in another (format 1 held each week against the newest, format 2 had no
 * checkpoints) is refused with an error that says to load it again, never misread.
 */
export const WEEKS_FORMAT = 3;
const FORMAT_TABLE = 'website_week_format';
/** The newest week's rows by sort key (stable through VACUUM, unlike rowids), with their source path. */
const PATHS_TABLE = 'website_week_paths';
/**
 * Per week, data/'s Brotli file and its decoded size: the newest's records (a JSON array; `after` NULL), each older
 * week's changes against the week `after`.
 */
const CHAIN_TABLE = 'website_week_chain';
/**
 * Per older week kept whole, its source records as one Brotli JSON array: a week is rebuilt from the nearest one at
 * or after it, so a rebuild decodes one such file and at most a few chain files, not the chain from the newest.
 */
const CHECKPOINTS_TABLE = 'website_week_checkpoints';
/**
 * Per site (path) and older week where its core fields differ from the week after: those fields' values as JSON
 * {name: value}; NULL: absent that week though listed the week after. The newest week's are its `websites` rows.
 */
const CORE_TABLE = 'website_week_core';
/** Each target URL a site was listed under, with the last week it was: a timeline is asked by URL. */
const URLS_TABLE = 'website_week_urls';
const FACTS_TABLE = 'website_week_facts';

/** One week the dataset holds. */
export interface WeekEntry {
  date: string;
  count: number;
}

/**
 * Decodes Brotli bytes of a known decoded size, synchronously: Node's brotliDecompressSync, the browsers'
 * WebAssembly decoder once initialised (a week is rebuilt inside a synchronous request).
 */
export type BrotliDecode = (bytes: Uint8Array, rawBytes: number) => Uint8Array;

/** One file of data/'s chain, as shipped. */
export interface ChainFile {
  bytes: Uint8Array;
  rawBytes: number;
}

const byPath = <T>([a]: [string, T], [b]: [string, T]): number => (a < b ? -1 : a > b ? 1 : 0);

// ---- Writing (the build) ----

/**
 * Writes the week tables of a database whose `websites` table is the newest week's, the weeks added newest first
 * (each one's core fields are compared with the week added before it).
 */
export class WeeksWriter {
  /** The last week added: each site's core field texts by path. */
  private after: Map<string, string[]> | null = null;
  private readonly urls = new Set<string>();
  /** The last week whose chain file was written. */
  private last: string | null = null;

  /** `pathsBySortKey`: the newest week's rows' paths (sortKeyPaths). */
  constructor(
    private readonly db: Database,
    pathsBySortKey: ReadonlyMap<number, string>,
  ) {
    db.run(`CREATE TABLE ${FORMAT_TABLE} (version INTEGER NOT NULL)`);
    db.run(`INSERT INTO ${FORMAT_TABLE} VALUES (${WEEKS_FORMAT})`);
    db.run(`CREATE TABLE ${WEEKS_TABLE} (date TEXT PRIMARY KEY, count INTEGER NOT NULL, newest INTEGER NOT NULL) WITHOUT ROWID`);
    db.run(`CREATE TABLE ${PATHS_TABLE} (${SORT_KEY} INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE)`);
    db.run(`CREATE TABLE ${CHAIN_TABLE} (date TEXT PRIMARY KEY, after TEXT, raw_bytes INTEGER NOT NULL, bytes BLOB NOT NULL)`);
    db.run(`CREATE TABLE ${CHECKPOINTS_TABLE} (date TEXT PRIMARY KEY, raw_bytes INTEGER NOT NULL, bytes BLOB NOT NULL)`);
    db.run(`CREATE TABLE ${CORE_TABLE} (path TEXT NOT NULL, date TEXT NOT NULL, fields TEXT, PRIMARY KEY (path, date)) WITHOUT ROWID`);
    db.run(`CREATE TABLE ${URLS_TABLE} (target_url TEXT NOT NULL, path TEXT NOT NULL, last TEXT NOT NULL, PRIMARY KEY (target_url, path)) WITHOUT ROWID`);
    db.run(
      `CREATE TABLE ${FACTS_TABLE} (date TEXT NOT NULL, agency TEXT, bureau TEXT, scan_status TEXT, sites INTEGER NOT NULL, live INTEGER NOT NULL, dap INTEGER NOT NULL, uswds INTEGER NOT NULL)`,
    );
    inTransaction(db, () => this.each(`INSERT INTO ${PATHS_TABLE} VALUES (?, ?)`, pathsBySortKey, (key, path) => [key, path]));
  }

  /** Runs one statement per item. */
  private each<K, V>(sql: string, items: Iterable<[K, V]>, params: (key: K, value: V) => SqlValue[]): void {
    const statement = this.db.prepare(sql);
    try {
      for (const [key, value] of items) statement.run(params(key, value));
    } finally {
      statement.free();
    }
  }

  /**
   * Adds a week: its records as the import of its file maps them, `paths[i]` the source path of `records[i]`, and
   * its chain file (the newest's records, or its changes against the week added before).
   */
  add(date: string, records: readonly WebsiteRecord[], paths: readonly string[], chain: ChainFile): void {
    if (records.length !== paths.length) throw new Error(`the week of ${date}: ${records.length} records for ${paths.length} paths`);
    const now = new Map<string, string[]>();
    records.forEach((r, i) =>
      now.set(
        paths[i],
        HISTORY_FIELDS.map((name) => JSON.stringify(r[name] ?? null)),
      ),
    );
    const after = this.after;
    const core: [string, string | null][] = [];
    for (const [path, texts] of after === null ? [] : now) {
      const before = after?.get(path);
      const fields = HISTORY_FIELDS.map((name, i) => [name, texts[i]] as const).filter((_, i) => before === undefined || before[i] !== texts[i]);
      if (fields.length > 0) core.push([path, `{${fields.map(([name, text]) => `${JSON.stringify(name)}:${text}`).join(',')}}`]);
    }
    for (const path of after?.keys() ?? []) if (!now.has(path)) core.push([path, null]);
    const urls: [string, string][] = [];
    records.forEach((r, i) => {
      const key = `${r.target_url}\u0000${paths[i]}`;
      if (this.urls.has(key)) return;
      this.urls.add(key);
      urls.push([r.target_url, paths[i]]);
    });
    inTransaction(this.db, () => {
      this.db.run(`INSERT INTO ${WEEKS_TABLE} VALUES (?, ?, ?)`, [date, records.length, after === null ? 1 : 0]);
      this.link(date, chain);
      this.each(`INSERT INTO ${CORE_TABLE} VALUES (?, ?, ?)`, core, (path, fields) => [path, date, fields]);
      this.each(`INSERT INTO ${URLS_TABLE} VALUES (?, ?, ?)`, urls, (url, path) => [url, path, date]);
      this.each(`INSERT INTO ${FACTS_TABLE} VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, weekGroups(records), (_, group) => [date, ...group]);
    });
    this.after = now;
  }

  /** A week's chain file alone, the week not held (a smaller copy's): the older weeks held are decoded through it. */
  link(date: string, chain: ChainFile): void {
    this.db.run(`INSERT INTO ${CHAIN_TABLE} VALUES (?, ?, ?, ?)`, [date, this.last, chain.rawBytes, chain.bytes]);
    this.last = date;
  }

  /** A week's source records whole (a Brotli JSON array, as the newest's chain file), its chain file already written. */
  checkpoint(date: string, records: ChainFile): void {
    if (this.last !== date) throw new Error(`the week of ${date}: a checkpoint written before its chain file`);
    this.db.run(`INSERT INTO ${CHECKPOINTS_TABLE} VALUES (?, ?, ?)`, [date, records.rawBytes, records.bytes]);
  }
}

/** Each row's sort key and path, for WeeksWriter: `paths` are the records' paths in the order they were imported. */
export function sortKeyPaths(db: Database, paths: readonly string[]): Map<number, string> {
  const rows = allRows(db, `SELECT ${SORT_KEY} FROM ${WEBSITES_TABLE} ORDER BY rowid`, []);
  if (rows.length !== paths.length) throw new Error(`${rows.length} rows for ${paths.length} paths`);
  return new Map(rows.map(([key], i) => [Number(key), paths[i]]));
}

/**
 * A week's sites per agency, bureau and scan status, from its records: what the SQL over its `websites` columns
 * would count (the columns hold the same values), without a database of the week.
 */
function weekGroups(records: Iterable<WebsiteRecord>): Map<string, SqlValue[]> {
  const groups = new Map<string, [string | null, string | null, string | null, number, number, number, number]>();
  for (const r of records) {
    const key = JSON.stringify([r.target_url_agency_owner, r.target_url_bureau_owner, r.scan_status]);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = [r.target_url_agency_owner, r.target_url_bureau_owner, r.scan_status, 0, 0, 0, 0]));
    group[3]++;
    if (r.final_url_live === true) group[4]++;
    if (r.dap_detected_final_url === true) group[5]++;
    if ((r.ds_usa_classes ?? 0) > 0) group[6]++;
  }
  return groups;
}

// ---- Reading ----

export function isWeeksDatabase(db: Database): boolean {
  return allRows(db, `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`, [WEEKS_TABLE]).length > 0;
}

/** Throws unless the database holds the week tables in the form this code reads (WEEKS_FORMAT). */
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

/** The weeks held, oldest first. */
export function weekList(db: Database): WeekEntry[] {
  return allRows(db, `SELECT date, count FROM ${WEEKS_TABLE} ORDER BY date`, []).map(([date, count]) => ({ date: String(date), count: Number(count) }));
}

export function newestWeek(db: Database): string | null {
  const row = allRows(db, `SELECT date FROM ${WEEKS_TABLE} WHERE newest = 1`, [])[0];
  return row ? String(row[0]) : null;
}

/** The newest week's stored records (its `websites` table) in its file's order, by path: its database needs no decoding. */
export function newestStoredRecords(db: Database): string[] {
  const rows = allRows(db, `SELECT p.path, w.${RECORD_COLUMN} FROM ${PATHS_TABLE} p JOIN ${WEBSITES_TABLE} w USING (${SORT_KEY})`, []);
  return rows
    .map(([path, stored]): [string, string] => [String(path), String(stored)])
    .sort(byPath)
    .map(([, stored]) => stored);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A week's source records as its file lists them (by path), rebuilt from the nearest checkpoint at or after it (the
 * newest week's records when none is) and the chain files from there back to that week; null when the dataset does
 * not hold the week. A file missing, damaged or naming another week is an error that says which.
 */
export function weekSourceRecords(db: Database, date: string, decode: BrotliDecode): SourceRecord[] | null {
  const held = allRows(db, `SELECT count FROM ${WEEKS_TABLE} WHERE date = ?`, [date])[0];
  if (!held) return null;
  const newest = newestWeek(db);
  const checkpoint = allRows(db, `SELECT date FROM ${CHECKPOINTS_TABLE} WHERE date >= ? ORDER BY date LIMIT 1`, [date])[0];
  const start = String(checkpoint ? checkpoint[0] : newest);
  const links = allRows(db, `SELECT date, after FROM ${CHAIN_TABLE} WHERE date >= ? AND date <= ? ORDER BY date DESC`, [date, start]);
  if (links[0]?.[0] !== start)
    throw new Error(
      checkpoint
        ? `the weeks dataset is damaged: the changes of ${start} are missing`
        : `the weeks dataset is damaged: the newest week's records (${newest}) are missing`,
    );
  // Each file is the changes against the one before it here: a file left out would rebuild a wrong week, silently.
  links.forEach(([at, after], i) => {
    if (i === 0 && !checkpoint && after !== null) throw new Error(`the weeks dataset is damaged: the newest week's records (${newest}) are missing`);
    if (i > 0 && after !== links[i - 1][0])
      throw new Error(`the weeks dataset is damaged: the changes of ${String(after)}, which those of ${String(at)} follow, are missing`);
  });
  if (links[links.length - 1][0] !== date) throw new Error(`the weeks dataset is damaged: the changes of ${date} are missing`);
  const read = (table: string, link: string, what: string): unknown => {
    const [raw, bytes] = allRows(db, `SELECT raw_bytes, bytes FROM ${table} WHERE date = ?`, [link])[0];
    try {
      return JSON.parse(new TextDecoder().decode(decode(bytes as Uint8Array, Number(raw))));
    } catch (error) {
      throw new Error(`the weeks dataset is damaged: ${what} cannot be read (${message(error)})`);
    }
  };
  const what = checkpoint ? `the records of ${start} kept whole` : `the newest week's records (${start})`;
  const whole = read(checkpoint ? CHECKPOINTS_TABLE : CHAIN_TABLE, start, what);
  if (!Array.isArray(whole)) throw new Error(`the weeks dataset is damaged: ${what} are not a list of records`);
  const records = new Map((whole as SourceRecord[]).map((r) => [sourcePath(r), r]));
  for (const link of links.slice(1).map(([d]) => String(d))) {
    const value = read(CHAIN_TABLE, link, `the changes of ${link}`);
    if ((value as WeekChanges | null)?.date !== link) throw new Error(`the weeks dataset is damaged: the changes of ${link} are another week's`);
    applyWeekInPlace(records, value as WeekChanges);
  }
  const count = Number(held[0]);
  if (records.size !== count) throw new Error(`the weeks dataset is damaged: the week of ${date} rebuilds with ${records.size} records, not ${count}`);
  return [...records].sort(byPath).map(([, r]) => r);
}

// ---- A site's weeks, trends ----

export interface TimelineRow {
  date: string;
  state: 'present' | 'absent';
  values: Record<string, unknown>;
  changed: string[];
}

const FIELD_INDEX = new Map<string, number>(WEBSITE_FIELDS.map(([name], i) => [name, i]));

/** A stored record's core field values (stored-record.ts: one JSON text per field, empty for none). */
function coreValues(stored: string): Record<string, unknown> {
  const texts = stored.split(FIELD_SEPARATOR);
  return Object.fromEntries(
    HISTORY_FIELDS.map((name) => {
      const text = texts[FIELD_INDEX.get(name)!];
      return [name, text === '' ? null : JSON.parse(text)];
    }),
  );
}

/** A site's core fields in every week, oldest first, each with the fields that differ from the week present before; null: no such site. */
export function siteWeeks(db: Database, targetUrl: string): TimelineRow[] | null {
  const path = allRows(db, `SELECT path FROM ${URLS_TABLE} WHERE target_url = ? ORDER BY last DESC, path LIMIT 1`, [targetUrl])[0]?.[0];
  if (path === undefined) return null;
  const changes = new Map(allRows(db, `SELECT date, fields FROM ${CORE_TABLE} WHERE path = ?`, [path]).map(([d, f]) => [String(d), f]));
  // From the newest (its `websites` row) back: each week is the week after, changed where its row says.
  const newest = allRows(db, `SELECT w.${RECORD_COLUMN} FROM ${PATHS_TABLE} p JOIN ${WEBSITES_TABLE} w USING (${SORT_KEY}) WHERE p.path = ?`, [path])[0];
  const states: [string, Record<string, unknown> | null][] = [];
  let values: Record<string, unknown> | null = newest ? coreValues(String(newest[0])) : null;
  for (const { date } of weekList(db).reverse()) {
    const fields = changes.get(date);
    if (fields !== undefined) values = fields === null ? null : Object.assign({}, values, JSON.parse(String(fields)) as Record<string, unknown>);
    states.push([date, values]);
  }
  const weeks: TimelineRow[] = [];
  let previous: Record<string, unknown> | null = null;
  for (const [date, held] of states.reverse()) {
    if (held === null) {
      weeks.push({ date, state: 'absent', values: {}, changed: [] });
      continue;
    }
    const now = Object.fromEntries(HISTORY_FIELDS.map((name) => [name, held[name] ?? null]));
    const before = previous;
    const changed = before ? HISTORY_FIELDS.filter((name) => JSON.stringify(before[name]) !== JSON.stringify(now[name])) : [];
    weeks.push({ date, state: 'present', values: now, changed: [...changed] });
    previous = now;
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
