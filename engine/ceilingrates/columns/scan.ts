/**
 * Reading the records' columns out of SQLite. sql.js costs about a microsecond per cell crossed one at a
 * time (250,000 rows × 16 columns stepped took 1.3–2.2 s), so `scanColumns` asks for each column as ONE JSON
 * array in a single table scan and parses it natively. `readRows` steps the rows: the definition of what a
 * column holds, and the way taken when a scan cannot be trusted to give the same values (see below).
 */
import type { Database } from 'sql.js';
import { CEILINGRATES_TABLE } from '../record.ts';
import { NUMERIC_FIELDS, TEXT_FIELDS, type NumericField, type TextField } from './store.ts';

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
 * True when a scan of the table must return its rows in id order: a rowid table whose id is the INTEGER
 * PRIMARY KEY (the rowid itself) and that has no index a planner could scan instead.
 */
function scansInIdOrder(db: Database): boolean {
  const rows = db.exec(`SELECT type, sql FROM sqlite_master WHERE tbl_name = ?`, [CEILINGRATES_TABLE])[0]?.values ?? [];
  if (rows.length !== 1 || rows[0][0] !== 'table' || typeof rows[0][1] !== 'string') return false;
  const sql = rows[0][1];
  return /\bid\s+INTEGER\s+PRIMARY\s+KEY\b/i.test(sql) && !/WITHOUT\s+ROWID/i.test(sql);
}

const jsonArrays = (db: Database, fields: readonly string[]): CellValue[][] =>
  (db.exec(`SELECT ${fields.map((f) => `json_group_array(${f})`).join(', ')} FROM ${CEILINGRATES_TABLE}`)[0].values[0] as string[]).map(
    (text) => JSON.parse(text) as CellValue[],
  );

/** The ids of `count` rows in id order: min..max when that range has exactly `count` ids, else read. */
function idsInOrder(db: Database, count: number): Float64Array {
  // Two statements: min or max alone is one seek down the rowid tree.
  const min = db.exec(`SELECT min(id) FROM ${CEILINGRATES_TABLE}`)[0].values[0][0];
  const max = db.exec(`SELECT max(id) FROM ${CEILINGRATES_TABLE}`)[0].values[0][0];
  if (typeof min === 'number' && typeof max === 'number' && max - min + 1 === count) {
    const ids = new Float64Array(count);
    for (let r = 0; r < count; r++) ids[r] = min + r;
    return ids;
  }
  return Float64Array.from(jsonArrays(db, ['id'])[0] as number[]);
}

/**
 * ids and the named numeric and text columns, each column as one JSON array from a table scan. When the scan
 * order is guaranteed to be id order (scansInIdOrder), the ids are not read at all if they are contiguous.
 * Otherwise they come in the same scan and must ascend; returns null if they do not (a covering index chosen
 * for the scan). Throws on a BLOB (JSON cannot hold one): the caller then steps the rows.
 */
export function scanColumns(db: Database, numericFields: readonly NumericField[], textFields: readonly TextField[]): RawColumns | null {
  const fields = [...numericFields, ...textFields];
  let ids: Float64Array;
  let lists: CellValue[][];
  if (fields.length > 0 && scansInIdOrder(db)) {
    lists = jsonArrays(db, fields);
    ids = idsInOrder(db, lists[0].length);
  } else {
    lists = jsonArrays(db, ['id', ...fields]);
    ids = Float64Array.from(lists.shift() as number[]);
  }
  if (lists.some((list) => list.length !== ids.length)) return null;
  for (let r = 1; r < ids.length; r++) if (!(ids[r] > ids[r - 1])) return null;
  return columnsOf(ids, lists, numericFields, textFields);
}

function columnsOf(ids: Float64Array, lists: CellValue[][], numericFields: readonly NumericField[], textFields: readonly TextField[]): RawColumns {
  const numbers: Partial<Record<NumericField, Float64Array>> = {};
  numericFields.forEach((field, i) => {
    const list = lists[i];
    const column = new Float64Array(ids.length);
    for (let r = 0; r < column.length; r++) {
      const v = list[r];
      column[r] = typeof v === 'number' ? v : toNumber(v);
    }
    numbers[field] = column;
  });
  const text: Partial<Record<TextField, CellValue[]>> = {};
  textFields.forEach((field, i) => (text[field] = lists[numericFields.length + i]));
  return { ids, numbers, text };
}
