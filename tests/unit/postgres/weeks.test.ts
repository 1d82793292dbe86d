/**
 * Every door answers a week as the Postgres door does: the engine holding the newest week and the weeks attachment
 * (the shared fixture of the 17 real weeks) against Postgres holding the same real weeks as `load:history` loads
 * them (postgres-weeks.ts, from the weeks data/ ships), request for request, the list of weeks included; and the
 * `load` command, given a build with the weeks, files its newest week at its own day and leaves the weeks to
 * `load:history`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import type { Database } from 'sql.js';
import { createEngine, type Engine } from '../../../engine/index.ts';
import type { ApiResponse } from '../../../engine/http/types.ts';
import { createPool } from '../../../adapters/node/backends/postgres/pool.ts';
import { PostgresAnswers } from '../../../adapters/node/backends/postgres/answers.ts';
import { runLoad } from '../../../adapters/node/backends/postgres/commands.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { WeeksStore } from '../../../engine/site-scanning/weeks.ts';
import { nodeBrotli } from '../../../adapters/node/datasets/brotli-sync.ts';
import { loadWeeks, type LoadedWeek } from '../../../tools/site-scanning-source/postgres-weeks.ts';
import { COMPARED_WEEKS, writeBuildDir } from '../../../harness/weeks-fixture.ts';
import { realWeek, realWeeks } from '../../../harness/real-fixtures.ts';
import type { ThrowawayPostgres } from '../../../harness/postgres.ts';
import { suitePostgres } from '../helpers/suite-postgres.ts';
import { comparable } from './backends.ts';

const NEWEST = COMPARED_WEEKS[COMPARED_WEEKS.length - 1];

let server: ThrowawayPostgres;
let pool: pg.Pool;
let postgres: PostgresAnswers;
let engine: Engine;
let newest: Database;
let weeks: Database;
let loaded: LoadedWeek[];
const lines: string[] = [];

beforeAll(async () => {
  server = suitePostgres();
  pool = createPool(server.createDatabase('weeks'));
  loaded = await loadWeeks(pool, { only: COMPARED_WEEKS, print: (line) => lines.push(line) });
  const SQL = await loadSqlJs();
  newest = (await realWeek(SQL, NEWEST)).db;
  weeks = (await realWeeks(SQL)).db;
  engine = createEngine();
  engine.use('websites', newest, null, NEWEST);
  engine.attach('websites', new WeeksStore(weeks, nodeBrotli));
  postgres = new PostgresAnswers(pool);
  await postgres.warm();
}, 900_000);

afterAll(async () => {
  postgres?.close();
  await pool?.end();
  server?.stop();
  weeks?.close();
  newest?.close();
});

const PATHS = [
  '/analysis',
  '/technology/site-scanning/v1/analysis?target_url_agency_owner=Department%20of%20Energy',
  '/websites?limit=25&page=3',
  '/websites?final_url_live=false&limit=5',
  '/websites?target_url_agency_owner=General%20Services%20Administration&dap_detected_final_url=true&limit=100',
  '/websites/usa.gov',
  '/websites/no-such-site.example',
];

async function same(url: string): Promise<ApiResponse> {
  const request = { method: 'GET', url };
  const fromEngine = comparable(engine.handle(request));
  const fromPostgres = comparable(await postgres.handle(request));
  expect(fromPostgres, url).toEqual(fromEngine);
  return fromEngine;
}

describe('the weeks at every door, as Postgres answers them', () => {
  it('loads each week with what its commit selected and dropped, newest first', () => {
    expect(loaded.map((w) => [w.date, w.selected])).toEqual([
      [NEWEST, 36331],
      ['2025-03-17', 34770],
      ['2025-02-10', 29488],
    ]);
    expect(lines[0]).toMatch(/^2025-06-09 @ f2cc7380: 36906 files, 36331 selected, 575 stale dropped \(\d+\.\d s\)$/);
  });

  it('answers each week’s dated paths request for request, each week at its own date', async () => {
    for (const date of [...COMPARED_WEEKS, ...COMPARED_WEEKS]) {
      for (const path of PATHS) await same(`/snapshots/${date}${path}`);
    }
    expect(JSON.parse((await same('/snapshots/2025-02-10/analysis')).body).total).toBe(29488);
  }, 600_000);

  it('answers a week neither holds with the same 404', async () => {
    expect((await same('/snapshots/2025-03-10/websites')).status).toBe(404);
  });

  it('lists the weeks each holds: the engine every week, Postgres those loaded', async () => {
    const list = (answer: ApiResponse) => (JSON.parse(answer.body) as { snapshots: { date: string; count: number }[] }).snapshots;
    const all = list(engine.handle({ method: 'GET', url: '/snapshots' }));
    expect(all).toHaveLength(17);
    expect(list(await postgres.handle({ method: 'GET', url: '/snapshots' }))).toEqual(
      all.filter((w) => (COMPARED_WEEKS as readonly string[]).includes(w.date)),
    );
  });

  it('files the build’s newest week at its own day with `load`, leaving the weeks to load:history', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'load-weeks-'));
    const url = server.createDatabase('load');
    const other = createPool(url, { max: 1 });
    try {
      await writeBuildDir(await loadSqlJs(), dir);
      const printed: string[] = [];
      const result = await runLoad({ database: url, files: {}, dataDir: dir }, (line) => printed.push(line));
      expect(result.websites).toMatchObject({ snapshot: NEWEST, records: 36331, replaced: false });
      const { rows } = await other.query('SELECT snapshot::text AS date, records FROM websites_snapshots');
      expect(rows).toEqual([{ date: NEWEST, records: 36331 }]);
    } finally {
      await other.end();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
