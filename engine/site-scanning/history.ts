/**
 * How each site's record changed across the weekly snapshots shipped with a dataset: a side table of the core
 * fields whose value differed in an earlier week (the values of that week), and the sites an earlier week did not
 * have or had alone. Not an API route (production keeps no history): the app's detail view reads it.
 */
import type { Database } from 'sql.js';
import { FURTHER_FIELDS, WEBSITE_FIELDS, type WebsiteRecord } from './record.ts';
import { recordFromRow } from './shape.ts';
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
  const result = db.exec(`SELECT ${WEBSITE_FIELDS.map(([name]) => `"${name}"`).join(', ')} FROM websites`)[0];
  const records = new Map<string, WebsiteRecord>();
  for (const row of result?.values ?? []) {
    const record = recordFromRow(row);
    records.set(record.target_url, record);
  }
  return records;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Writes into `db` how its records differ from `older`'s (the snapshot of `date`): one row per differing field
 * (the older value as JSON), one `absent` row per site `older` lacks. `ownDate` is `db`'s own snapshot day.
 */
export function writeHistory(db: Database, ownDate: string, older: Database, date: string): void {
  db.run(`CREATE TABLE IF NOT EXISTS ${HISTORY_TABLE} (target_url TEXT NOT NULL, date TEXT NOT NULL, field TEXT, value TEXT)`);
  db.run(`CREATE TABLE IF NOT EXISTS ${HISTORY_TABLE}_dates (date TEXT PRIMARY KEY, own INTEGER NOT NULL)`);
  const now = recordsByUrl(db);
  const then = recordsByUrl(older);
  const insert = db.prepare(`INSERT INTO ${HISTORY_TABLE} VALUES (?, ?, ?, ?)`);
  try {
    inTransaction(db, () => {
      db.run(`INSERT OR REPLACE INTO ${HISTORY_TABLE}_dates VALUES (?, 1)`, [ownDate]);
      db.run(`INSERT OR REPLACE INTO ${HISTORY_TABLE}_dates VALUES (?, 0)`, [date]);
      for (const [url, record] of now) {
        const before = then.get(url);
        if (!before) {
          insert.run([url, date, null, null]);
          continue;
        }
        for (const field of HISTORY_FIELDS) {
          if (!same(before[field], record[field])) insert.run([url, date, field, JSON.stringify(before[field])]);
        }
      }
    });
  } finally {
    insert.free();
  }
  db.run(`CREATE INDEX IF NOT EXISTS ${HISTORY_TABLE}_by_url ON ${HISTORY_TABLE} (target_url)`);
}

/** A site's weeks, newest first; null when the dataset holds no history. */
export function siteHistory(db: Database, record: WebsiteRecord): SiteHistory | null {
  if (!hasHistory(db)) return null;
  const dates = (db.exec(`SELECT date, own FROM ${HISTORY_TABLE}_dates ORDER BY date DESC`)[0]?.values ?? []).map(([d, own]) => ({ date: String(d), own: own === 1 }));
  const rows = db.exec(`SELECT date, field, value FROM ${HISTORY_TABLE} WHERE target_url = ?`, [record.target_url])[0]?.values ?? [];
  const weeks: WeekOfSite[] = dates
    .filter((d) => !d.own)
    .map(({ date }) => {
      const mine = rows.filter(([d]) => d === date);
      if (mine.some(([, field]) => field === null)) return { date, state: 'absent', changes: [] };
      const changes = mine.map(([, field, value]) => ({ field: String(field), then: JSON.parse(String(value)) as unknown, now: record[String(field) as keyof WebsiteRecord] }));
      return { date, state: changes.length ? 'changed' : 'same', changes };
    });
  return { date: dates.find((d) => d.own)?.date ?? null, weeks };
}
