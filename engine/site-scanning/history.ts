/**
 * How each site's record changed across the weekly snapshots shipped with a dataset: a side table of the core
 * fields whose value differed in an earlier week (the values of that week), and the sites an earlier week did not
 * have or had alone. Not an API route (production keeps no history): the app's detail view reads it.
 */
import type { Database } from 'sql.js';
import { FURTHER_FIELDS, WEBSITE_FIELDS, type WebsiteRecord } from './record.ts';
import { recordFromStored } from './stored-record.ts';
import { selectAllWebsites } from './sql.ts';
import { inTransaction } from '../sqlite-transaction.ts';

export const HISTORY_TABLE = 'website_history';

/**
 * The fields compared: the interface's and production's DTO fields. scan_date is left out (the newest snapshot's
 * is the snapshot's day, the copying job having removed the real one), and so are the snapshot's further fields,
 * whose counters and hashes change every week.
 */
const FURTHER = new Set<string>(FURTHER_FIELDS.map(([name]) => name));
export const HISTORY_FIELDS: readonly (keyof WebsiteRecord)[] = WEBSITE_FIELDS.map(([name]) => name).filter(
  (name) => name !== 'scan_date' && name !== 'target_url' && !FURTHER.has(name),
);

/** One field that differed: its value in that week and in the dataset's own record. */
export interface FieldChange {
  field: string;
  then: unknown;
  now: unknown;
}

/** One earlier week as seen from a site. */
export interface WeekOfSite {
  date: string;
  /** `changed`: fields differ; `same`: no compared field differs; `absent`: that week had no such site. */
  state: 'changed' | 'same' | 'absent';
  changes: FieldChange[];
}

export interface SiteHistory {
  /** The dataset's own snapshot day, when it records one. */
  date: string | null;
  weeks: WeekOfSite[];
}

export function hasHistory(db: Database): boolean {
  return (db.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '${HISTORY_TABLE}'`)[0]?.values.length ?? 0) > 0;
}

function recordsByUrl(db: Database): Map<string, WebsiteRecord> {
  const records = new Map<string, WebsiteRecord>();
  for (const stored of selectAllWebsites(db)) {
    const record = recordFromStored(stored);
    records.set(record.target_url, record);
  }
  return records;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Writes into `db` how its records differ from `older`'s (the snapshot of `date`): per site, one JSON object of its
 * weeks, each the older values of the fields that differ, or null when that week did not have the site. Sites
 * that did not change have no row. One row per site, keyed by URL (no separate index): 1.1 MB gzip'd for the real
 * weeks, where a row per field took 2.5 MB.
 */
export function writeHistory(db: Database, ownDate: string, older: Database, date: string): void {
  db.run(`CREATE TABLE IF NOT EXISTS ${HISTORY_TABLE} (target_url TEXT PRIMARY KEY, weeks TEXT NOT NULL) WITHOUT ROWID`);
  db.run(`CREATE TABLE IF NOT EXISTS ${HISTORY_TABLE}_dates (date TEXT PRIMARY KEY, own INTEGER NOT NULL)`);
  const now = recordsByUrl(db);
  const then = recordsByUrl(older);
  const read = db.prepare(`SELECT weeks FROM ${HISTORY_TABLE} WHERE target_url = ?`);
  const write = db.prepare(`INSERT OR REPLACE INTO ${HISTORY_TABLE} VALUES (?, ?)`);
  try {
    inTransaction(db, () => {
      db.run(`INSERT OR REPLACE INTO ${HISTORY_TABLE}_dates VALUES (?, 1)`, [ownDate]);
      db.run(`INSERT OR REPLACE INTO ${HISTORY_TABLE}_dates VALUES (?, 0)`, [date]);
      for (const [url, record] of now) {
        const before = then.get(url);
        let week: Record<string, unknown> | null = null;
        if (before) {
          week = {};
          for (const field of HISTORY_FIELDS) if (!same(before[field], record[field])) week[field] = before[field];
          if (Object.keys(week).length === 0) continue;
        }
        read.bind([url]);
        const weeks = (read.step() ? JSON.parse(String(read.get()[0])) : {}) as Record<string, unknown>;
        read.reset();
        weeks[date] = week;
        write.run([url, JSON.stringify(weeks)]);
      }
    });
  } finally {
    read.free();
    write.free();
  }
}

/** A site's weeks, newest first; null when the dataset holds no history. */
export function siteHistory(db: Database, record: WebsiteRecord): SiteHistory | null {
  if (!hasHistory(db)) return null;
  const dates = (db.exec(`SELECT date, own FROM ${HISTORY_TABLE}_dates ORDER BY date DESC`)[0]?.values ?? []).map(([d, own]) => ({
    date: String(d),
    own: own === 1,
  }));
  const row = db.exec(`SELECT weeks FROM ${HISTORY_TABLE} WHERE target_url = ?`, [record.target_url])[0]?.values[0];
  const stored = (row ? JSON.parse(String(row[0])) : {}) as Record<string, Record<string, unknown> | null>;
  const weeks: WeekOfSite[] = dates
    .filter((d) => !d.own)
    .map(({ date }) => {
      if (!(date in stored)) return { date, state: 'same', changes: [] };
      const fields = stored[date];
      if (fields === null) return { date, state: 'absent', changes: [] };
      const changes = Object.entries(fields).map(([field, then]) => ({ field, then, now: record[field as keyof WebsiteRecord] }));
      return { date, state: 'changed', changes };
    });
  return { date: dates.find((d) => d.own)?.date ?? null, weeks };
}
