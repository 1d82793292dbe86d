/**
 * The `_source` of records, read from SQLite by id. SQLite writes the JSON (json_object, keys in production's
 * order, `SOURCE_FIELDS`), so a page's records go into the response as text without building and re-serialising
 * objects. Numbers keep their value exactly (SQLite prints reals round-trip; whole reals keep a `.0`, as
 * Python-rendered production responses do).
 */
import type { Database, Statement } from 'sql.js';
import { CEILINGRATES_TABLE, SOURCE_FIELDS } from '../record.ts';

/** SQLite's expression for a record's `_source` JSON (a load into another store keeps this text). */
export const SOURCE_JSON_SQL = `json_object(${SOURCE_FIELDS.map((f) => `'${f}', ${f}`).join(', ')})`;

/**
 * One statement, prepared on first use and cached for the database's lifetime, looks up one id (the table's
 * integer primary key) at a time: preparing a statement per page cost more than the page's lookups.
 */
export class SourceReader {
  private byId: Statement | null = null;

  constructor(private readonly db: Database) {}

  /** `_source` JSON text by id (ids that are no record are left out). */
  read(ids: readonly number[]): Map<number, string> {
    const statement = (this.byId ??= this.db.prepare(`SELECT ${SOURCE_JSON_SQL} FROM ${CEILINGRATES_TABLE} WHERE id = ?`));
    const found = new Map<number, string>();
    try {
      for (const id of ids) {
        statement.bind([id]);
        if (statement.step()) found.set(id, String(statement.get()[0]));
      }
    } finally {
      statement.reset();
    }
    return found;
  }

  free(): void {
    this.byId?.free();
    this.byId = null;
  }
}

/** `_source` JSON text by id, for a one-off read. */
export function readSourceJson(db: Database, ids: readonly number[]): Map<number, string> {
  const reader = new SourceReader(db);
  try {
    return reader.read(ids);
  } finally {
    reader.free();
  }
}
