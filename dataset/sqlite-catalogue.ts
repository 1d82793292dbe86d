import type { Database } from 'sql.js';

/** What a SQLite database holds, read from its own catalogue. */

/** SQLite identifiers come from the database's own catalogue here, but are still quoted, never spliced raw. */
export function quoteIdent(name: string): string {
  return '"' + name.replaceAll('"', '""') + '"';
}

/** Row count of each named table that exists in the database (names from the manifest). */
export function countRows(db: Database, tables: readonly string[]): Record<string, number> {
  const existing = new Set((db.exec("SELECT name FROM sqlite_master WHERE type IN ('table','view')")[0]?.values ?? []).map((r) => String(r[0])));
  const rows: Record<string, number> = {};
  for (const table of tables) {
    if (!existing.has(table)) continue;
    rows[table] = Number(db.exec(`SELECT count(*) FROM ${quoteIdent(table)}`)[0]?.values[0]?.[0] ?? 0);
  }
  return rows;
}

/** The first table (or view) that has every one of these columns, or null. */
export function tableWithColumns(db: Database, columns: readonly string[]): string | null {
  const tables = (
    db.exec("SELECT name FROM sqlite_master WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' ORDER BY type, name")[0]?.values ?? []
  ).map((r) => String(r[0]));
  for (const table of tables) {
    const have = new Set((db.exec(`SELECT name FROM pragma_table_info(?)`, [table])[0]?.values ?? []).map((r) => String(r[0])));
    if (columns.every((c) => have.has(c))) return table;
  }
  return null;
}
