import type { Database } from 'sql.js';
import { CEILINGRATES_TABLE, RECORD_FIELDS, type CeilingRateRecord } from './record.ts';
import { COLUMNS_TABLE, writeColumnTable } from './columns/table.ts';
import { readColumnsByRow } from './columns/load.ts';
import { inTransaction } from '../sqlite-transaction.ts';

/**
 * One table, columns named and ordered as the API's `_source`. The engine reads the columns once when it
 * binds and answers from memory, so the only index it needs is the primary key (page `_source` reads).
 */
export function createCeilingRatesSchema(db: Database): void {
  db.run(`
    CREATE TABLE IF NOT EXISTS ${CEILINGRATES_TABLE} (
      id INTEGER PRIMARY KEY,
      vendor_name TEXT NOT NULL,
      idv_piid TEXT NOT NULL,
      schedule TEXT NOT NULL,
      sin TEXT NOT NULL,
      labor_category TEXT NOT NULL,
      category TEXT NOT NULL,
      subcategory TEXT NOT NULL,
      education_level TEXT NOT NULL,
      min_years_experience INTEGER,
      worksite TEXT NOT NULL,
      security_clearance TEXT,
      business_size TEXT NOT NULL,
      current_price REAL,
      next_year_price REAL,
      second_year_price REAL,
      contract_start TEXT NOT NULL,
      contract_end TEXT NOT NULL,
      cont_beg_dtg TEXT NOT NULL,
      cont_end_dtg TEXT NOT NULL,
      dt_termg TEXT,
      _timestamp TEXT NOT NULL
    )
  `);
}

/** The single way records enter a ceilingrates database: one prepared statement, one transaction. */
export function insertCeilingRates(db: Database, records: readonly CeilingRateRecord[]): void {
  const columns = RECORD_FIELDS.join(', ');
  const slots = RECORD_FIELDS.map(() => '?').join(', ');
  const statement = db.prepare(`INSERT INTO ${CEILINGRATES_TABLE} (${columns}) VALUES (${slots})`);
  try {
    inTransaction(db, () => {
      for (const record of records) {
        statement.run(RECORD_FIELDS.map((field) => record[field]));
      }
      // The column table describes the records as they were: drop it, so the engine never binds a stale one
      // (it reads the text instead until writeCeilingRatesColumns runs again).
      db.run(`DROP TABLE IF EXISTS ${COLUMNS_TABLE}`);
    });
  } finally {
    statement.free();
  }
}

/**
 * After the last insert: the text columns' dictionaries as a table the engine binds from in a fraction of the
 * time (decision 0205). Optional — a database without it binds by reading the text — and to be written again
 * if the records change afterwards (the engine then ignores a stale table, at the cost of a slower bind).
 */
export function writeCeilingRatesColumns(db: Database): void {
  const store = readColumnsByRow(db);
  writeColumnTable(db, store.text, store.size);
}

export function countCeilingRates(db: Database): Record<string, number> {
  const result = db.exec(`SELECT COUNT(*) FROM ${CEILINGRATES_TABLE}`);
  return { [CEILINGRATES_TABLE]: Number(result[0].values[0][0]) };
}
