import type { Database, SqlValue } from 'sql.js';

/** Every row of one statement with bound parameters, as arrays; the statement is freed whatever happens. */
export function allRows(db: Database, sql: string, params: SqlValue[]): SqlValue[][] {
  const statement = db.prepare(sql);
  try {
    statement.bind(params);
    const rows: SqlValue[][] = [];
    while (statement.step()) rows.push(statement.get());
    return rows;
  } finally {
    statement.free();
  }
}
