/**
 * The `_source` of records, read from SQLite by id with bound statements. SQLite writes the JSON
 * (json_object, keys in production's order, `SOURCE_FIELDS`), so a page's records go into the response as text
 * without building and re-serialising objects. Numbers keep their value exactly (SQLite prints reals
 * round-trip; whole reals keep a `.0`, as Python-rendered production responses do).
 */
import type { Database } from 'sql.js';
import { CEILINGRATES_TABLE, SOURCE_FIELDS } from '../record.ts';

const CHUNK = 500;
/** SQLite's expression for a record's `_source` JSON (a load into another store keeps this text). */
export const SOURCE_JSON_SQL = `json_object(${SOURCE_FIELDS.map((f) => `'${f}', ${f}`).join(', ')})`;

/** `_source` JSON text by id. */
export function readSourceJson(db: Database, ids: readonly number[]): Map<number, string> {
  const found = new Map<number, string>();
  for (let start = 0; start < ids.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    const statement = db.prepare(`SELECT id, ${SOURCE_JSON_SQL} FROM ${CEILINGRATES_TABLE} WHERE id IN (${chunk.map(() => '?').join(',')})`);
    try {
      statement.bind(chunk as number[]);
      while (statement.step()) {
        const [id, json] = statement.get();
        found.set(Number(id), String(json));
      }
    } finally {
      statement.free();
    }
  }
  return found;
}
