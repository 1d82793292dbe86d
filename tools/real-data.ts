/**
 * The real datasets the repository ships under data/ (docs/api/data-sources.md), read back for the build and the
 * tests: the 2025-06-09 Site Scanning snapshot, its earlier weeks rebuilt from the weekly changes, and the 2017
 * Schedule 70 price list. Each goes into a database through the import core, the same mapping as a user's file.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import type { Database, SqlJsStatic } from 'sql.js';
import { importIntoDatabase, type ImportProgress } from '../dataset/import/index.ts';
import type { DatasetName } from '../engine/http/types.ts';
import type { DatasetSource } from '../dataset/artifact/format.ts';
import { applyWeek, sourcePath, type SourceRecord, type WeekChanges } from '../engine/site-scanning/week-changes.ts';
import type { ChainFile } from '../engine/site-scanning/weeks.ts';
import { WEEKS_DIR, WEEKS_INDEX, weekFile, type ShippedWeek, type ShippedWeeks } from './site-scanning-source/weeks-file.ts';
import { createCeilingRatesSchema, insertCeilingRates, writeCeilingRatesColumns } from '../engine/ceilingrates/schema.ts';
import { fromShippedList, PRICE_LISTS_FILE, shippedJoins, type ShippedPriceLists } from '../dataset/price-lists/shipped.ts';
import { priceListRecords } from '../dataset/price-lists/records.ts';
import type { PriceList } from '../dataset/price-lists/sheet.ts';

const DATA_DIR = fileURLToPath(new URL('../data/', import.meta.url));

export const NEWEST_SNAPSHOT = '2025-06-09';
/** The first weekly snapshot, shipped as changes against the newest. */
export const FIRST_SNAPSHOT = '2025-02-10';
const SNAPSHOT_FILE = `site-scanning-${NEWEST_SNAPSHOT}.json.br`;
const FIRST_FILE = `site-scanning-${FIRST_SNAPSHOT}.changes.json.br`;
const S70_FILE = 'ceilingrates-s70-2017.csv';
const S70_PATH = 'contracts/docs/s70/s70_data.csv';

interface SourceEntry {
  repository: string;
  commit: string;
  date: string;
  /** The oldest file's date, where the files span days (the price lists). */
  from?: string;
  count: number;
  files?: number;
  dropped?: number;
  sha256: string;
  licence: string;
}

/** data/sources.json: where each shipped file came from. */
export function dataSources(): Record<string, SourceEntry> {
  return JSON.parse(readFileSync(`${DATA_DIR}sources.json`, 'utf8')) as Record<string, SourceEntry>;
}

/** A shipped Brotli file's bytes as data/ holds them, with its decoded size, and its JSON. */
function readBrotliFile(file: string): { chain: ChainFile; value: unknown } {
  const bytes = new Uint8Array(readFileSync(`${DATA_DIR}${file}`));
  const decoded = brotliDecompressSync(bytes);
  return { chain: { bytes, rawBytes: decoded.length }, value: JSON.parse(decoded.toString('utf8')) };
}

function readBrotliJson(file: string): unknown {
  return readBrotliFile(file).value;
}

let newest: { records: SourceRecord[]; chain: ChainFile } | undefined;

function readNewest(): { records: SourceRecord[]; chain: ChainFile } {
  if (!newest) {
    const { chain, value } = readBrotliFile(SNAPSHOT_FILE);
    newest = { records: value as SourceRecord[], chain };
  }
  return newest;
}

/**
 * The newest snapshot's records as the source published them, in file order. Read once per process: a build
 * imports it and rebuilds the first week from it (119 MB of JSON each time otherwise). Nothing mutates them.
 */
export function newestSnapshotRecords(): SourceRecord[] {
  return readNewest().records;
}

let weeks: ShippedWeeks | undefined;

/** data/site-scanning-weeks/weeks.json: every shipped week, oldest first. */
export function shippedWeeks(): ShippedWeeks {
  weeks ??= JSON.parse(readFileSync(`${DATA_DIR}${WEEKS_INDEX}`, 'utf8')) as ShippedWeeks;
  return weeks;
}

const byPath = ([a]: [string, SourceRecord], [b]: [string, SourceRecord]): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every shipped week's records by path in file (path) order, newest first, each rebuilt from the one after it
 * and its file of changes, with that file as shipped (the newest's: its records). One week at a time: the caller
 * keeps only what it needs.
 */
export function* everyWeek(): Generator<{ week: ShippedWeek; records: Map<string, SourceRecord>; chain: ChainFile }> {
  const list = shippedWeeks().weeks;
  let records = new Map(newestSnapshotRecords().map((r) => [sourcePath(r), r]));
  if (records.size !== list[list.length - 1].count) throw new Error(`${WEEKS_INDEX}: the newest week does not hold ${records.size} records`);
  yield { week: list[list.length - 1], records, chain: readNewest().chain };
  for (const week of list.slice(0, -1).reverse()) {
    const { chain, value } = readBrotliFile(weekFile(week.date));
    const change = value as WeekChanges;
    if (change.date !== week.date) throw new Error(`${weekFile(week.date)}: changes of ${change.date}`);
    records = new Map([...applyWeek(records, change)].sort(byPath));
    if (records.size !== week.count) throw new Error(`${WEEKS_DIR}: ${week.date} rebuilt with ${records.size} records, not ${week.count}`);
    yield { week, records, chain };
  }
}

/** One week's records: the newest as shipped, the first rebuilt from its changes, in file order. */
export function snapshotRecords(date: string): SourceRecord[] {
  const records = newestSnapshotRecords();
  if (date === NEWEST_SNAPSHOT) return records;
  if (date !== FIRST_SNAPSHOT) {
    for (const { week, records: held } of everyWeek()) if (week.date === date) return [...held.values()];
    throw new Error(
      `no Site Scanning snapshot of ${date} in data/ (${shippedWeeks()
        .weeks.map((w) => w.date)
        .join(', ')} are shipped)`,
    );
  }
  const older = applyWeek(new Map(records.map((r) => [sourcePath(r), r])), readBrotliJson(FIRST_FILE) as WeekChanges);
  return [...older.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

/** The label and provenance of one week's snapshot, as users see it. */
export function snapshotSource(date: string, count: number): DatasetSource {
  const week = date === NEWEST_SNAPSHOT || date === FIRST_SNAPSHOT ? null : shippedWeeks().weeks.find((w) => w.date === date);
  const entry = week ? { ...dataSources()[WEEKS_DIR], commit: week.commit } : dataSources()[date === NEWEST_SNAPSHOT ? SNAPSHOT_FILE : FIRST_FILE];
  if (!entry) throw new Error(`data/sources.json does not describe the snapshot of ${date}`);
  return {
    kind: 'real',
    label: `Real: the published Site Scanning snapshot of ${date}, ${count.toLocaleString('en-US')} sites (${entry.repository} @ ${entry.commit.slice(0, 8)}, data CC0)`,
    repository: entry.repository,
    commit: entry.commit,
    date,
    licence: 'CC0-1.0',
    count,
  };
}

/** A shipped file through the import core; more rejected rows than the file is known to have fails the build. */
async function importRecords(
  SQL: SqlJsStatic,
  bytes: Uint8Array,
  name: string,
  expected: DatasetName,
  options: {
    snapshotDate?: string;
    format: 'websites-json' | 'ceilingrates-csv';
    rejects?: number;
    now?: Date;
    onProgress?: (progress: ImportProgress) => void;
  },
): Promise<{ db: Database; rejected: number }> {
  const { rejects = 0, ...importOptions } = options;
  const result = await importIntoDatabase(SQL, bytes, { name, ...importOptions });
  if (result.dataset !== expected) throw new Error(`${name}: imported as ${result.dataset}, not ${expected}`);
  if (result.report.rowsRejected !== rejects) {
    result.db.close();
    throw new Error(`${name}: ${result.report.rowsRejected} records rejected (expected ${rejects}): ${JSON.stringify(result.report.rejected.slice(0, 3))}`);
  }
  return { db: result.db, rejected: result.report.rowsRejected };
}

/** A week's Site Scanning database, through the import core's JSON mapping (scan_date: the snapshot's day). */
export async function snapshotDatabase(
  SQL: SqlJsStatic,
  date: string,
  progress?: (records: number) => (progress: ImportProgress) => void,
): Promise<{ db: Database; source: DatasetSource }> {
  const records = snapshotRecords(date);
  const bytes = new TextEncoder().encode(JSON.stringify(records));
  const onProgress = progress?.(records.length);
  const { db } = await importRecords(SQL, bytes, `site-scanning-${date}.json`, 'websites', {
    format: 'websites-json',
    snapshotDate: date,
    ...(onProgress ? { onProgress } : {}),
  });
  return { db, source: snapshotSource(date, records.length) };
}

/** Rows of the 2017 list whose price is `N/A`: the import refuses a rate without a price, as it would from a user. */
const S70_ROWS_WITHOUT_PRICE = 13;
/** `_timestamp` of the list's rates: the start of its year. */
const S70_TIMESTAMP = '2017-01-01T00:00:00.000Z';

/** The 2017 Schedule 70 price list (18F/calc, public domain), as a ceiling-rates database. */
export async function s70Database(SQL: SqlJsStatic): Promise<{ db: Database; source: DatasetSource }> {
  const bytes = new Uint8Array(readFileSync(`${DATA_DIR}${S70_FILE}`));
  const { db, rejected } = await importRecords(SQL, bytes, S70_FILE, 'ceilingrates', {
    format: 'ceilingrates-csv',
    rejects: S70_ROWS_WITHOUT_PRICE,
    // The list carries no time of its own: a fixed one keeps the build's bytes the same on every run.
    now: new Date(S70_TIMESTAMP),
  });
  const entry = dataSources()[S70_FILE];
  const count = Number(db.exec('SELECT COUNT(*) FROM ceilingrates')[0].values[0][0]);
  return {
    db,
    source: {
      kind: 'real',
      label: `Real: the 2017 IT Schedule 70 price list, ${count.toLocaleString('en-US')} rates (${rejected} rows priced "N/A" left out; ${entry.repository}, ${S70_PATH} @ ${entry.commit}, public domain)`,
      repository: entry.repository,
      commit: entry.commit,
      date: entry.date,
      licence: entry.licence,
      count,
    },
  };
}

/** The shipped price lists (data/ceilingrates-gsa-mas-2025.json.br), as read back. */
export function shippedPriceLists(): { lists: PriceList[]; shipped: ShippedPriceLists } {
  const shipped = readBrotliJson(PRICE_LISTS_FILE) as ShippedPriceLists;
  return { lists: shipped.lists.map(fromShippedList), shipped };
}

/** The label users see wherever a real price-list figure is shown. */
export function priceListsLabel(count: number): string {
  const entry = dataSources()[PRICE_LISTS_FILE];
  return (
    `Real: GSA MAS price lists (Catalog Platform), generated ${entry.from} to ${entry.date}, ${count.toLocaleString('en-US')} hourly labor rates ` +
    `(GSA's published files, copies found in ${entry.repository} @ ${entry.commit.slice(0, 8)})`
  );
}

/** The default ceiling rates: every hourly labor row of the shipped price lists, one record each (records.ts maps them). */
export function gsaRatesDatabase(SQL: SqlJsStatic): { db: Database; source: DatasetSource } {
  const { lists, shipped } = shippedPriceLists();
  const records = priceListRecords(lists, shippedJoins(shipped));
  const db = new SQL.Database();
  createCeilingRatesSchema(db);
  insertCeilingRates(db, records);
  writeCeilingRatesColumns(db);
  const entry = dataSources()[PRICE_LISTS_FILE];
  return {
    db,
    source: {
      kind: 'real',
      label: priceListsLabel(records.length),
      repository: entry.repository,
      commit: entry.commit,
      date: entry.date,
      ...(entry.from ? { from: entry.from } : {}),
      licence: entry.licence,
      count: records.length,
    },
  };
}
