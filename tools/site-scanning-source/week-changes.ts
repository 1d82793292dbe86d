/**
 * An older week as its changes against the week after it, field by field (the form data/ ships the weeks in,
 * weeks-file.ts): for a site in both weeks, the fields whose value differs (and those the older record lacks);
 * a site only in the older week whole; and the sites the older week did not have. Applying the changes to the
 * newer week's records makes the older week's exactly: extract.ts writes them (diffWeek), shipped-weeks.ts
 * applies them (applyWeek).
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
    // Key order is not preserved: the import reads a record by its keys' names, never by position.
    if (differs || dropped.length > 0) changes.changed.push({ path, set, ...(dropped.length ? { dropped } : {}) });
  }
  changes.absent = [...newer.keys()].filter((path) => !older.has(path));
  return changes;
}

/** The older week's records from the newer week's and the changes (inverse of diffWeek), by path; `newer` is left as it is. */
export function applyWeek(newer: ReadonlyMap<string, SourceRecord>, changes: WeekChanges): Map<string, SourceRecord> {
  const older = new Map(newer);
  for (const path of changes.absent) older.delete(path);
  for (const { path, set, dropped } of changes.changed) {
    const record = older.get(path);
    // A change to a site the week after does not list changes nothing.
    if (!record) continue;
    // Only the records a change rewrites are copied; the others are shared with the newer week.
    const copy = { ...record, ...set };
    for (const key of dropped ?? []) delete copy[key];
    older.set(path, copy);
  }
  for (const { path, record } of changes.added) older.set(path, record);
  return older;
}
