/**
 * One copy of a dataset for every worker thread: its bytes in shared memory, opened by each thread's sql.js
 * without a copy of its own (docs/decisions/0901).
 */
import type { Database, SqlJsStatic } from 'sql.js';

/** The bytes copied once into a SharedArrayBuffer: a worker that receives the view reads the same memory. */
export function sharedCopy(bytes: Uint8Array): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return shared;
}

/**
 * sql.js puts the bytes it opens into its in-memory file system with `slice` (a copy); this view's `slice`
 * is a `subarray`, so the file *is* the shared bytes. The file must then never change: every thread reads it.
 */
class Lent extends Uint8Array<ArrayBufferLike> {
  override slice(start?: number, end?: number): Uint8Array<ArrayBuffer> {
    // Typed as the copy the base class makes; it is a view on the shared buffer, which is the point.
    return this.subarray(start, end) as Uint8Array<ArrayBuffer>;
  }
}

/**
 * A database over shared bytes (sharedCopy), read-only: `query_only` refuses any statement that would
 * write, so no thread can change what the others read.
 */
export function openSharedDatabase(SQL: SqlJsStatic, bytes: Uint8Array): Database {
  const db = new SQL.Database(new Lent(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  db.exec('PRAGMA query_only = 1');
  return db;
}
