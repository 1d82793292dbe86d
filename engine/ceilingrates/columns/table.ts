/**
 * The text columns' dictionaries, written into the database by the build so that binding reads them as a few
 * blobs instead of 250,000 strings per field (decision 0205). Per text field: its distinct values in key order
 * (byte order, null last) as a JSON array, and each record's position in that order, in id order, as a
 * little-endian blob of 1, 2 or 4 bytes per record. Stored in key order, the values need no string sort at
 * bind; binding renumbers the codes by first appearance in one pass, which gives exactly the dictionary a
 * reading of every record builds (`DictionaryBuilder`).
 *
 * The table is an optional cache: a database without it (an import) binds by reading the text itself. The
 * loader trusts it only while it still looks like the records (load.ts: same row count, and sampled
 * records carry the values their codes say).
 */
import type { Database } from 'sql.js';
import { TEXT_FIELDS, type TextField } from './store.ts';
import { codesByFirstAppearance, narrow, type Codes, type Dictionary } from './dictionary.ts';

export const COLUMNS_TABLE = 'ceilingrates_columns';

/** What `readColumnTable` found: each field's dictionary over `rows` records. */
export interface StoredColumns {
  rows: number;
  text: Record<TextField, Dictionary>;
}

export function hasColumnTable(db: Database): boolean {
  return db.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`, [COLUMNS_TABLE]).length > 0;
}

const widthOf = (distinct: number): 1 | 2 | 4 => (distinct <= 0x100 ? 1 : distinct <= 0x10000 ? 2 : 4);

function codesView(blob: Uint8Array, width: 1 | 2 | 4, rows: number): Codes | null {
  if (blob.byteLength !== rows * width) return null;
  // A copy when the blob is not aligned for the wider view (sql.js hands out fresh arrays, so rarely).
  const bytes = blob.byteOffset % width === 0 ? blob : blob.slice();
  if (width === 1) return bytes;
  return width === 2 ? new Uint16Array(bytes.buffer, bytes.byteOffset, rows) : new Uint32Array(bytes.buffer, bytes.byteOffset, rows);
}

/** The first-appearance dictionary of a column given as sorted distinct values and each record's rank; null if inconsistent. */
function renumber(sorted: readonly (string | null)[], ranks: Codes): Dictionary | null {
  const n = sorted.length;
  const seen = codesByFirstAppearance(ranks, n);
  // Every stored value must occur: a dictionary lists only values some record has.
  if (!seen || seen.positionOf.length !== n) return null;
  const { codes, codeOf, positionOf } = seen;
  return { values: Array.from(positionOf, (k) => sorted[k]), codes: narrow(codes, n), rank: positionOf, byRank: Uint32Array.from(codeOf) };
}

/** The stored dictionaries, or null when the table is missing, of another shape, or inconsistent in itself. */
export function readColumnTable(db: Database): StoredColumns | null {
  if (!hasColumnTable(db)) return null;
  const result = db.exec(`SELECT field, rows, sorted_values, width, ranks FROM ${COLUMNS_TABLE}`)[0];
  if (!result) return null;
  const text = {} as Record<TextField, Dictionary>;
  let rows = -1;
  for (const [field, count, sortedJson, width, blob] of result.values) {
    if (!(TEXT_FIELDS as readonly unknown[]).includes(field)) continue;
    if (typeof count !== 'number' || (rows >= 0 && count !== rows)) return null;
    rows = count;
    if (typeof sortedJson !== 'string' || !(blob instanceof Uint8Array) || (width !== 1 && width !== 2 && width !== 4)) return null;
    const sorted = JSON.parse(sortedJson) as (string | null)[];
    if (!Array.isArray(sorted) || widthOf(sorted.length) !== width) return null;
    const ranks = codesView(blob, width, count);
    const dict = ranks && renumber(sorted, ranks);
    if (!dict) return null;
    text[field as TextField] = dict;
  }
  if (TEXT_FIELDS.some((f) => !text[f])) return null;
  return { rows, text };
}

/**
 * (Re)writes the table from the records' dictionaries, read the slow, certain way. The build calls it once,
 * after the last insert; a database changed afterwards must call it again or drop the table.
 */
export function writeColumnTable(db: Database, text: Record<TextField, Dictionary>, rows: number): void {
  db.run(`DROP TABLE IF EXISTS ${COLUMNS_TABLE}`);
  db.run(`CREATE TABLE ${COLUMNS_TABLE} (
    field TEXT PRIMARY KEY,
    rows INTEGER NOT NULL,
    sorted_values TEXT NOT NULL,
    width INTEGER NOT NULL,
    ranks BLOB NOT NULL
  )`);
  for (const field of TEXT_FIELDS) {
    const dict = text[field];
    const n = dict.values.length;
    const width = widthOf(n);
    const ranks = width === 1 ? new Uint8Array(rows) : width === 2 ? new Uint16Array(rows) : new Uint32Array(rows);
    for (let r = 0; r < rows; r++) ranks[r] = dict.rank[dict.codes[r]];
    const sorted = Array.from(dict.byRank, (code) => dict.values[code]);
    db.run(`INSERT INTO ${COLUMNS_TABLE} (field, rows, sorted_values, width, ranks) VALUES (?, ?, ?, ?, ?)`, [
      field,
      rows,
      JSON.stringify(sorted),
      width,
      new Uint8Array(ranks.buffer),
    ]);
  }
}
