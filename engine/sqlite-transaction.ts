import type { Database } from 'sql.js';

/** `work` inside one transaction: committed when it returns, rolled back (and the error thrown on) when it throws. */
export function inTransaction(db: Database, work: () => void): void {
  db.run('BEGIN');
  try {
    work();
    db.run('COMMIT');
  } catch (error) {
    db.run('ROLLBACK');
    throw error;
  }
}
