/**
 * `loadColumns`: the columns of one opened database, the fastest way that gives the same store (decision 0205).
 *
 * 1. The build's column table (table.ts) holds the text dictionaries; one table scan reads the ids, the
 *    price and the experience as JSON arrays. The table is used when it still looks like the records: the
 *    same row count, and evenly spaced sample records carry exactly the values their codes say.
 * 2. Without a table that passes (an imported database), the same scan also reads the text fields as JSON
 *    arrays and the dictionaries are built from them.
 * 3. When a scan cannot give the stepped values (see scan.ts), the rows are stepped one by one.
 *
 * All four numeric columns are read in the bind's one scan: reading next_year_price and second_year_price on
 * first use (an export, an ordering by either, the workbench's contract-year figures) made that one request
 * wait about 150 ms for a scan of its own.
 */
import type { Database } from 'sql.js';
import { assembleStore, NUMERIC_FIELDS, TEXT_FIELDS, type ColumnStore, type NumericField, type TextField } from './store.ts';
import { DictionaryBuilder, type Dictionary } from './dictionary.ts';
import { readRows, scanColumns, toText, type CellValue, type RawColumns } from './scan.ts';
import { readColumnTable, type StoredColumns } from './table.ts';
import { CEILINGRATES_TABLE } from '../record.ts';
import { compareBytes } from '../text.ts';

const SAMPLES = 64;

function dictionaries(raw: RawColumns): Record<TextField, Dictionary> {
  const text = {} as Record<TextField, Dictionary>;
  for (const field of TEXT_FIELDS) {
    const values = raw.text[field] as CellValue[];
    const builder = new DictionaryBuilder(raw.ids.length);
    for (let r = 0; r < values.length; r++) {
      const v = values[r];
      builder.add(r, typeof v === 'string' ? v : toText(v));
    }
    text[field] = builder.build(compareBytes);
  }
  return text;
}

/** True when evenly spaced records hold, field by field, the value their stored codes name. */
function samplesAgree(db: Database, ids: Float64Array, stored: StoredColumns): boolean {
  if (stored.rows !== ids.length) return false;
  const rows = new Set<number>();
  for (let i = 0; i < SAMPLES && ids.length > 0; i++) rows.add(Math.floor((i * (ids.length - 1)) / Math.max(1, SAMPLES - 1)));
  const sampleIds = [...rows].map((r) => ids[r]);
  if (sampleIds.length === 0) return true;
  const slots = sampleIds.map(() => '?').join(', ');
  const result = db.exec(`SELECT id, ${TEXT_FIELDS.join(', ')} FROM ${CEILINGRATES_TABLE} WHERE id IN (${slots})`, sampleIds)[0];
  if (!result || result.values.length !== sampleIds.length) return false;
  const rowOf = new Map([...rows].map((r) => [ids[r], r]));
  return result.values.every((cells) => {
    const row = rowOf.get(Number(cells[0]));
    if (row === undefined) return false;
    return TEXT_FIELDS.every((field, f) => {
      const dict = stored.text[field];
      return dict.values[dict.codes[row]] === toText(cells[1 + f]);
    });
  });
}

function scanned(db: Database, text: readonly TextField[]): RawColumns | null {
  try {
    return scanColumns(db, NUMERIC_FIELDS, text);
  } catch {
    // A BLOB in a column: JSON cannot carry it, stepping can.
    return null;
  }
}

/** The columns read the slow, certain way: what the column table is written from, and what tests compare against. */
export function readColumnsByRow(db: Database): ColumnStore {
  const raw = readRows(db);
  return assembleStore(raw.ids, raw.numbers as Record<NumericField, Float64Array>, dictionaries(raw));
}

export function loadColumns(db: Database): ColumnStore {
  const stored = readColumnTable(db);
  if (stored) {
    const raw = scanned(db, []);
    if (raw && samplesAgree(db, raw.ids, stored)) return assembleStore(raw.ids, raw.numbers as Record<NumericField, Float64Array>, stored.text);
  }
  const raw = scanned(db, TEXT_FIELDS);
  if (raw) return assembleStore(raw.ids, raw.numbers as Record<NumericField, Float64Array>, dictionaries(raw));
  return readColumnsByRow(db);
}
