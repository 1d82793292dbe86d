/**
 * Issue 23: a load killed halfway (SIGKILL while it is inserting) leaves the data that was there before, still
 * served, and the next load goes through (the dead session's transaction and lock go with it).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, runCli } from '../node/cli-process.ts';
import type { ThrowawayPostgres } from '../../../harness/postgres.ts';
import { suitePostgres } from '../helpers/suite-postgres.ts';
import { generatedDatabase } from '../../../harness/engine.ts';
import { createPool } from '../../../adapters/node/backends/postgres/pool.ts';
import { PostgresAnswers } from '../../../adapters/node/backends/postgres/answers.ts';
import { comparable } from './backends.ts';

let postgres: ThrowawayPostgres;
let dir: string;

beforeAll(async () => {
  postgres = suitePostgres();
  dir = mkdtempSync(join(tmpdir(), 'offline-gov-interrupted-'));
});

afterAll(() => {
  postgres?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('keeps the previous data when a load is killed while copying rows in', async () => {
  const database = postgres.createDatabase('interrupted');
  const small = join(dir, 'small.sqlite');
  const big = join(dir, 'big.sqlite');
  writeFileSync(small, (await generatedDatabase('websites', 300)).export());
  // Big enough that the load is still inserting when it is seen doing so.
  writeFileSync(big, (await generatedDatabase('websites', 20_000)).export());
  const first = await runCli(['load', '--database', database, '--websites', small, '--snapshot', '2025-06-02']);
  expect(first.code, first.stderr).toBe(0);

  const pool = createPool(database);
  const answers = new PostgresAnswers(pool);
  try {
    const before = comparable(await answers.handle({ method: 'GET', url: '/analysis' }));
    const loading = spawn(process.execPath, [BIN, 'load', '--database', database, '--websites', big, '--snapshot', '2025-06-02'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    const exited = new Promise((done) => loading.once('exit', done));
    // Wait until the load has inserted rows in its open transaction, then kill it outright.
    for (;;) {
      const { rows } = await pool.query(
        `SELECT 1 FROM pg_stat_activity WHERE application_name = 'offline-gov-api' AND query LIKE 'COPY websites %' AND state <> 'idle' AND datname = current_database()`,
      );
      if (rows.length > 0 || loading.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(loading.exitCode, 'the load was still running when killed').toBeNull();
    loading.kill('SIGKILL');
    await exited;

    expect(comparable(await answers.handle({ method: 'GET', url: '/analysis' }))).toEqual(before);
    expect(JSON.parse(before.body).total).toBe(300);
    // The killed session's transaction and advisory lock are gone: the next load runs.
    const again = await runCli(['load', '--database', database, '--websites', big, '--snapshot', '2025-06-02']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse((await answers.handle({ method: 'GET', url: '/analysis' })).body).total).toBe(20_000);
  } finally {
    answers.close();
    await pool.end();
  }
});
