/**
 * The weeks data/ ships (weeks-file.ts), read back: the one reader of their records. The build writes the weeks
 * attachment from it, `load:history` loads Postgres from it and the tests compare with it. The newest week is
 * data/site-scanning-<newest>.json.br itself; each older week is the week after it with its changes applied.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import type { Database, SqlJsStatic } from 'sql.js';
import { importIntoDatabase, type ImportProgress } from '../../dataset/import/index.ts';
import type { DatasetSource } from '../../dataset/artifact/format.ts';
import { applyWeek, sourcePath, type SourceRecord, type WeekChanges } from './week-changes.ts';
import { newestFile, WEEKS_DIR, WEEKS_INDEX, weekFile, type ShippedWeek, type ShippedWeeks } from './weeks-file.ts';
import { SOURCE_REPOSITORY } from './git-snapshot.ts';

const DATA_DIR = fileURLToPath(new URL('../../data/', import.meta.url));

/** The newest week data/ ships. */
export const NEWEST_WEEK = '2025-06-09';

function readBrotliJson(file: string): unknown {
  return JSON.parse(brotliDecompressSync(readFileSync(`${DATA_DIR}${file}`)).toString('utf8'));
}

let index: ShippedWeeks | undefined;

/** data/site-scanning-weeks/weeks.json: every shipped week, oldest first. */
export function shippedWeeks(): ShippedWeeks {
  index ??= JSON.parse(readFileSync(`${DATA_DIR}${WEEKS_INDEX}`, 'utf8')) as ShippedWeeks;
  return index;
}

let newest: SourceRecord[] | undefined;

/**
 * The newest week's records as the source published them, in file order. Read once per process (119 MB of
 * JSON); nothing mutates them.
 */
export function newestWeekRecords(): SourceRecord[] {
  newest ??= readBrotliJson(newestFile(NEWEST_WEEK)) as SourceRecord[];
  return newest;
}

const byPath = ([a]: [string, SourceRecord], [b]: [string, SourceRecord]): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every shipped week's records by source path, in file (path) order, newest first, each made from the one after
 * it and its changes. One week at a time: the caller keeps only what it needs.
 */
export function* everyWeek(): Generator<{ week: ShippedWeek; records: Map<string, SourceRecord> }> {
  const list = shippedWeeks().weeks;
  if (list[list.length - 1].date !== NEWEST_WEEK) throw new Error(`${WEEKS_INDEX}: the newest week is ${list[list.length - 1].date}, not ${NEWEST_WEEK}`);
  let records = new Map(newestWeekRecords().map((r) => [sourcePath(r), r]));
  if (records.size !== list[list.length - 1].count) throw new Error(`${WEEKS_INDEX}: the newest week does not hold ${records.size} records`);
  yield { week: list[list.length - 1], records };
  for (const week of list.slice(0, -1).reverse()) {
    const change = readBrotliJson(weekFile(week.date)) as WeekChanges;
    if (change.date !== week.date) throw new Error(`${weekFile(week.date)}: changes of ${change.date}`);
    records = new Map([...applyWeek(records, change)].sort(byPath));
    if (records.size !== week.count) throw new Error(`${WEEKS_DIR}: ${week.date} made with ${records.size} records, not ${week.count}`);
    yield { week, records };
  }
}

/** One week's records in file order. */
export function weekRecords(date: string): SourceRecord[] {
  if (date === NEWEST_WEEK) return newestWeekRecords();
  for (const { week, records } of everyWeek()) if (week.date === date) return [...records.values()];
  throw new Error(
    `no Site Scanning week of ${date} in data/ (${shippedWeeks()
      .weeks.map((w) => w.date)
      .join(', ')} are shipped)`,
  );
}

/** The label and provenance of one week, as users see it. */
export function weekSource(week: ShippedWeek): DatasetSource {
  return {
    kind: 'real',
    label: `Real: the published Site Scanning week of ${week.date}, ${week.count.toLocaleString('en-US')} sites (${SOURCE_REPOSITORY} @ ${week.commit.slice(0, 8)}, data CC0)`,
    repository: SOURCE_REPOSITORY,
    commit: week.commit,
    date: week.date,
    licence: 'CC0-1.0',
    count: week.count,
  };
}

/** A week as shipped, by its day. */
export function shippedWeek(date: string): ShippedWeek {
  const week = shippedWeeks().weeks.find((w) => w.date === date);
  if (!week) throw new Error(`data/ ships no Site Scanning week of ${date}`);
  return week;
}

/**
 * A week's websites database through the import core's JSON mapping, as the import of that week's file makes it
 * (scan_date: the week's day where a record has none). `records` when the caller holds them already.
 */
export async function weekDatabase(
  SQL: SqlJsStatic,
  date: string,
  { records = weekRecords(date), progress }: { records?: readonly SourceRecord[]; progress?: (records: number) => (progress: ImportProgress) => void } = {},
): Promise<{ db: Database; source: DatasetSource }> {
  const bytes = new TextEncoder().encode(JSON.stringify(records));
  const onProgress = progress?.(records.length);
  const name = `site-scanning-${date}.json`;
  const result = await importIntoDatabase(SQL, bytes, { name, format: 'websites-json', snapshotDate: date, ...(onProgress ? { onProgress } : {}) });
  if (result.report.rowsRejected !== 0) {
    result.db.close();
    throw new Error(`${name}: ${result.report.rowsRejected} records rejected: ${JSON.stringify(result.report.rejected.slice(0, 3))}`);
  }
  return { db: result.db, source: weekSource(shippedWeek(date)) };
}
