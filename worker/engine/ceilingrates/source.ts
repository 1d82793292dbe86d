/** The `_source` of a page's records, read from SQLite by id with bound statements. */
import type { Database } from 'sql.js';
import { CEILINGRATES_TABLE, RECORD_FIELDS, type CeilingRateRecord } from './record.ts';

const CHUNK = 500;

/** Records by id; the object keys follow the seed's field order (the SELECT list's). */
export function readRecords(db: Database, ids: readonly number[]): Map<number, CeilingRateRecord> {
  const found = new Map<number, CeilingRateRecord>();
  for (let start = 0; start < ids.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    const statement = db.prepare(`SELECT ${RECORD_FIELDS.join(', ')} FROM ${CEILINGRATES_TABLE} WHERE id IN (${chunk.map(() => '?').join(',')})`);
    try {
      statement.bind(chunk as number[]);
      while (statement.step()) {
        const record = statement.getAsObject() as unknown as CeilingRateRecord;
        found.set(record.id, record);
      }
    } finally {
      statement.free();
    }
  }
  return found;
}
