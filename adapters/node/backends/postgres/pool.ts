/**
 * The connection pool of a `--database` URL: bounded, with a statement timeout so one slow query cannot hold
 * a connection forever, and a connect timeout so a database that is down fails a request quickly instead of
 * queueing it. Errors are reported as one line (no stack): the server keeps answering, and the pool opens new
 * connections once the database is back.
 */
import pg from 'pg';

export interface PoolOptions {
  /** Most connections at once (default 10). */
  max?: number;
  /** Milliseconds a statement may run (default 15 s). */
  statementTimeoutMs?: number;
  /** Milliseconds to wait for a connection (default 5 s). */
  connectTimeoutMs?: number;
}

export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    statement_timeout: options.statementTimeoutMs ?? 15_000,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'offline-gov-api',
    // A search materialises its matches and groups them: with the default 4 MB they spill to disk from about
    // 50,000 matches. JIT compiling costs more than these short statements gain from it.
    options: '-c work_mem=64MB -c jit=off',
  });
  // An idle connection the server closed (a restart, a failover): pg emits this on the pool, and an
  // unhandled 'error' event would end the process. The next query opens a fresh connection.
  pool.on('error', (error) => console.error(`postgres: idle connection lost: ${oneLine(error)}`));
  return pool;
}

/** An error as one line for a log or a user: the message and Postgres' code, never a stack. */
export function oneLine(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return oneLine(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    const message = error.message || error.name;
    return (code && !message.includes(code) ? `${message} (${code})` : message).replace(/\s*\n\s*/g, ' ');
  }
  return String(error).replace(/\s*\n\s*/g, ' ');
}

/** The URL without its password, for messages. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the database';
  }
}
