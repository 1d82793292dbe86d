/**
 * A week of the snapshot history as changes against the week after it, field by field: for a site in both weeks,
 * the fields whose value differs (and those the older record lacks); a site only in the older week whole; and
 * the sites the older week did not have. Applying the changes to the newer week's records rebuilds the older
 * week's values exactly. Pure: the build writes the changes (diffWeek), and every door rebuilds a week from
 * them at run time (weeks.ts, applyWeek), the same code in Node, the DB worker and the service worker.
 */
export type SourceRecord = Record<string, unknown>;

/** A record's source file path, as the weekly changes name it: data/<initial_domain>.json. */
export const sourcePath = (record: SourceRecord): string => `data/${String(record.initial_domain)}.json`;

export interface WeekChanges {
  date: string;
  /** Per path: the older week's value of each field that differs; a field the older record lacks is listed in `dropped`. */
  changed: { path: string; set: SourceRecord; dropped?: string[] }[];
  /** Sites of the older week that the newer one does not have, whole. */
  added: { path: string; record: SourceRecord }[];
  /** Paths present the week after but not in this week. */
  absent: string[];
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

export function diffWeek(date: string, newer: ReadonlyMap<string, SourceRecord>, older: ReadonlyMap<string, SourceRecord>): WeekChanges {
  const changes: WeekChanges = { date, changed: [], added: [], absent: [] };
  for (const [path, record] of older) {
    const next = newer.get(path);
    if (!next) {
      changes.added.push({ path, record });
      continue;
    }
    const set: SourceRecord = {};
    let differs = false;
    for (const [key, value] of Object.entries(record)) {
      if (!(key in next) || !same(next[key], value)) {
        set[key] = value;
        differs = true;
      }
    }
    const dropped = Object.keys(next).filter((key) => !(key in record));
    // Key order is not kept: the import reads a record by its keys' names, never by position.
    if (differs || dropped.length > 0) changes.changed.push({ path, set, ...(dropped.length ? { dropped } : {}) });
  }
  changes.absent = [...newer.keys()].filter((path) => !older.has(path));
  return changes;
}

/** The older week's records from the newer week's and the changes (inverse of diffWeek), by path; `newer` is left as it is. */
export function applyWeek(newer: ReadonlyMap<string, SourceRecord>, changes: WeekChanges): Map<string, SourceRecord> {
  const older = new Map(newer);
  // Only the records a change rewrites are copied; the others are shared with the newer week.
  for (const { path } of changes.changed) {
    const record = older.get(path);
    if (record) older.set(path, { ...record });
  }
  applyWeekInPlace(older, changes);
  return older;
}

/**
 * The older week's records made from the newer week's in place, on records the caller owns: the run-time rebuild
 * walks up to 16 weeks of 20,000–36,000 changed records each, where a copy of each changed record made most of a
 * week's rebuild time.
 */
export function applyWeekInPlace(records: Map<string, SourceRecord>, changes: WeekChanges): void {
  for (const path of changes.absent) records.delete(path);
  for (const { path, set, dropped } of changes.changed) {
    const record = records.get(path);
    // A change to a site the week after does not list changes nothing.
    if (!record) continue;
    Object.assign(record, set);
    for (const key of dropped ?? []) delete record[key];
  }
  for (const { path, record } of changes.added) records.set(path, record);
}
