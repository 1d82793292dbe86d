/**
 * Reading the records' columns out of SQLite. sql.js costs about a microsecond per cell crossed one at a
 * time (250,000 rows × 16 columns stepped took 1.3–2.2 s), so `scanColumns` asks for each column as ONE JSON
 * array in a single table scan and parses it natively. `readRows` steps the rows: the definition of what a
 * column holds, and the way taken when a scan cannot be trusted to give the same values (see below).
 */
import type { Database } from 'sql.js';
import { CEILINGRATES_TABLE } from './record.ts';
import { NUMERIC_FIELDS, TEXT_FIELDS, type NumericField, type TextField } from './columns.ts';

export type CellValue = string | number | null;

/** What a numeric cell holds: NaN for null and the empty string. */
export const toNumber = (v: unknown): number => (v === null || v === undefined || v === '' ? NaN : Number(v));

/** What a text cell holds. */
export const toText = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export interface RawColumns {
  ids: Float64Array;
  numbers: Partial<Record<NumericField, Float64Array>>;
  /** Each requested text field's values in id order (the same length as ids). */
  text: Partial<Record<TextField, CellValue[]>>;
}

/** Every column's values in id order, one statement step per row. */
export function readRows(db: Database): RawColumns {
  const size = Number(db.exec(`SELECT COUNT(*) FROM ${CEILINGRATES_TABLE}`)[0].values[0][0]);
  const ids = new Float64Array(size);
  const numbers = Object.fromEntries(NUMERIC_FIELDS.map((f) => [f, new Float64Array(size)])) as Record<NumericField, Float64Array>;
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, new Array<CellValue>(size)])) as Record<TextField, CellValue[]>;
  const statement = db.prepare(`SELECT id, ${[...TEXT_FIELDS, ...NUMERIC_FIELDS].join(', ')} FROM ${CEILINGRATES_TABLE} ORDER BY id`);
  try {
    let r = 0;
    const textCount = TEXT_FIELDS.length;
    while (r < size && statement.step()) {
      const row = statement.get();
      ids[r] = Number(row[0]);
      for (let f = 0; f < textCount; f++) text[TEXT_FIELDS[f]][r] = toText(row[1 + f]);
      for (let f = 0; f < NUMERIC_FIELDS.length; f++) numbers[NUMERIC_FIELDS[f]][r] = toNumber(row[1 + textCount + f]);
      r++;
    }
  } finally {
    statement.free();
  }
  return { ids, numbers, text };
}

/**
 * ids and the named numeric and text columns in one table scan, each column as one JSON array. Returns null
 * when the rows did not come in id order (a covering index chosen for the scan), and throws on a BLOB (JSON
 * cannot hold one): the caller then steps the rows.
 */
export function scanColumns(db: Database, numericFields: readonly NumericField[], textFields: readonly TextField[]): RawColumns | null {
  const arrays = ['id', ...numericFields, ...textFields].map((f) => `json_group_array(${f})`);
  const json = db.exec(`SELECT ${arrays.join(', ')} FROM ${CEILINGRATES_TABLE}`)[0].values[0] as string[];
  const ids = Float64Array.from(JSON.parse(json[0]) as number[]);
  for (let r = 1; r < ids.length; r++) if (!(ids[r] > ids[r - 1])) return null;
  const numbers: Partial<Record<NumericField, Float64Array>> = {};
  numericFields.forEach((field, i) => {
    const list = JSON.parse(json[1 + i]) as CellValue[];
    const column = new Float64Array(ids.length);
    for (let r = 0; r < column.length; r++) {
      const v = list[r];
      column[r] = typeof v === 'number' ? v : toNumber(v);
    }
    numbers[field] = column;
  });
  const text: Partial<Record<TextField, CellValue[]>> = {};
  textFields.forEach((field, i) => (text[field] = JSON.parse(json[1 + numericFields.length + i]) as CellValue[]));
  return { ids, numbers, text };
}
