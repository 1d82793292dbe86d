/** The rows of a SQLite statement, one at a time, so a load streams them instead of holding them all. */
import type { Database, SqlValue } from 'sql.js';

export function* sqliteRows(db: Database, sql: string): Generator<SqlValue[]> {
  const statement = db.prepare(sql);
  try {
    while (statement.step()) yield statement.get();
  } finally {
    statement.free();
  }
}
