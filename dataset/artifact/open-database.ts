import type { Database, SqlJsStatic } from 'sql.js';

/**
 * Bytes that sql.js keeps as they are. sql.js copies the bytes a Database is opened from into its in-memory
 * file system, with `slice` of the whole array on the file's first write; for these bytes that one `slice`
 * gives a plain view of the same memory, so the file system keeps it instead of a copy. A plain Uint8Array, not
 * this subclass: every page SQLite reads is a `subarray` of the file's array, and a subclass's `subarray` leaves
 * the engine's fast path. Any other `slice` copies as usual, so a sql.js that wrote its files another way would
 * only copy again.
 */
class HandedOverBytes extends Uint8Array<ArrayBuffer> {
  override slice(start?: number, end?: number): Uint8Array<ArrayBuffer> {
    return start === 0 && end === this.length ? new Uint8Array(this.buffer, this.byteOffset, this.length) : super.slice(start, end);
  }
}

/**
 * Open a database file whose bytes the caller hands over: they become the open database's file, without the
 * copy sql.js would make (a whole database: tens of megabytes and tens of milliseconds on the way to the
 * first answer). The caller may still read the bytes (to keep them on disk) but must not change them.
 */
export function openHandedOver(SQL: SqlJsStatic, bytes: Uint8Array): Database {
  return new SQL.Database(new HandedOverBytes(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength));
}
