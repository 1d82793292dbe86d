/**
 * A websites database written before each record was stored as one text (one column per field: a user's
 * import kept in the browser by an earlier version, or an older SQLite file) is rebuilt in today's layout
 * when it is opened, so what was stored keeps answering. The rebuild is in memory; the stored file is not
 * rewritten, so the next opening rebuilds again.
 */
import type { Database } from 'sql.js';
import { WEBSITE_FIELDS, type WebsiteRecord } from './record.ts';
import { createWebsitesSchema, insertWebsites, RECORD_COLUMN, SORT_KEY, WEBSITES_TABLE } from './schema.ts';
import { fromSql } from './shape.ts';

const OLD_TABLE = 'websites_before_upgrade';

function columnsOf(db: Database, table: string): Set<string> {
  return new Set((db.exec('SELECT name FROM pragma_table_info(?)', [table])[0]?.values ?? []).map((r) => String(r[0])));
}

/** True when the table was in the older layout and has been rebuilt. */
export function upgradeWebsitesLayout(db: Database): boolean {
  const columns = columnsOf(db, WEBSITES_TABLE);
  if (columns.size === 0 || columns.has(RECORD_COLUMN) || !columns.has('target_url')) return false;
  const fields = WEBSITE_FIELDS.filter(([name]) => columns.has(name));
  const order = columns.has(SORT_KEY) ? `${SORT_KEY}, rowid` : 'rowid';
  const rows = db.exec(`SELECT ${fields.map(([name]) => `"${name}"`).join(', ')} FROM ${WEBSITES_TABLE} ORDER BY ${order}`)[0]?.values ?? [];
  const records = rows.map((row) => {
    const record: Record<string, unknown> = Object.fromEntries(WEBSITE_FIELDS.map(([name]) => [name, null]));
    fields.forEach(([name, kind], i) => (record[name] = fromSql(kind, row[i])));
    return record as unknown as WebsiteRecord;
  });
  const indexes = (db.exec("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", [WEBSITES_TABLE])[0]?.values ?? []).map(
    (r) => String(r[0]),
  );
  for (const index of indexes) db.run(`DROP INDEX "${index.replaceAll('"', '""')}"`);
  db.run(`ALTER TABLE ${WEBSITES_TABLE} RENAME TO ${OLD_TABLE}`);
  createWebsitesSchema(db);
  insertWebsites(db, records);
  db.run(`DROP TABLE ${OLD_TABLE}`);
  return true;
}
