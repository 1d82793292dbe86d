/**
 * The real datasets the repository ships under data/ (docs/api/data-sources.md), read back for the build and the
 * tests: the rates of GSA's 2025 price lists and the 2017 Schedule 70 price list. (The Site Scanning weeks are read
 * by site-scanning-source/shipped-weeks.ts.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import type { Database, SqlJsStatic } from 'sql.js';
import { importIntoDatabase } from '../dataset/import/index.ts';
import type { DatasetName } from '../engine/http/types.ts';
import type { DatasetSource } from '../dataset/artifact/format.ts';
import { createCeilingRatesSchema, insertCeilingRates, writeCeilingRatesColumns } from '../engine/ceilingrates/schema.ts';
import { fromShippedList, PRICE_LISTS_FILE, shippedJoins, type ShippedPriceLists } from '../dataset/price-lists/shipped.ts';
import { priceListRecords } from '../dataset/price-lists/records.ts';
import type { PriceList } from '../dataset/price-lists/sheet.ts';

const DATA_DIR = fileURLToPath(new URL('../data/', import.meta.url));

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

function readBrotliJson(file: string): unknown {
  return JSON.parse(brotliDecompressSync(readFileSync(`${DATA_DIR}${file}`)).toString('utf8'));
}

/** A shipped file through the import core; more rejected rows than the file is known to have fails the build. */
async function importRecords(
  SQL: SqlJsStatic,
  bytes: Uint8Array,
  name: string,
  expected: DatasetName,
  options: {
    format: 'ceilingrates-csv';
    rejects?: number;
    now?: Date;
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
