/**
 * Every door answers a week as the Postgres door does: the engine holding the newest week and the weeks dataset
 * (older weeks rebuilt on their first dated request) against Postgres holding the same real weeks loaded one by
 * one (load's own load, as load:history does), request for request, the list of weeks included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { Database } from 'sql.js';
import { createEngine, type Engine } from '../../../engine/index.ts';
import type { ApiResponse } from '../../../engine/http/types.ts';
import { createPool } from '../../../adapters/node/postgres/pool.ts';
import { loadIntoPostgres } from '../../../adapters/node/postgres/load.ts';
import { PostgresAnswers } from '../../../adapters/node/postgres/answers.ts';
import { loadSqlJs } from '../../../adapters/node/sqljs-node.ts';
import { weekSource } from '../../../dataset/websites/week-source.ts';
import { nodeBrotli } from '../../../adapters/node/brotli-sync.ts';
import { NEWEST_SNAPSHOT, snapshotDatabase } from '../../../tools/real-data.ts';
import { weeksDatabase } from '../../../tools/site-scanning-source/weeks-dataset.ts';
import { startPostgres, type ThrowawayPostgres } from '../helpers/postgres.ts';
import { comparable } from './backends.ts';

const WEEKS = ['2025-02-10', '2025-03-17', NEWEST_SNAPSHOT];

let server: ThrowawayPostgres;
let pool: pg.Pool;
let postgres: PostgresAnswers;
let engine: Engine;
let newest: Database;
let weeks: Database;

beforeAll(async () => {
  server = await startPostgres();
  pool = createPool(server.createDatabase('weeks'));
  const SQL = await loadSqlJs();
  for (const date of WEEKS) {
    const { db, source } = await snapshotDatabase(SQL, date);
    await loadIntoPostgres(pool, { websites: { db, origin: source.label }, snapshot: date });
    if (date === NEWEST_SNAPSHOT) newest = db;
    else db.close();
  }
  weeks = (await weeksDatabase(SQL, { only: WEEKS })).db;
  engine = createEngine();
  engine.use('websites', newest, null, NEWEST_SNAPSHOT);
  engine.useWeeks('websites', weekSource(SQL, weeks, nodeBrotli));
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
  it('lists the same weeks with the same counts', async () => {
    const list = await same('/snapshots');
    expect(JSON.parse(list.body)).toEqual({
      snapshots: [
        { date: '2025-02-10', count: 29488 },
        { date: '2025-03-17', count: 34770 },
        { date: NEWEST_SNAPSHOT, count: 36331 },
      ],
    });
  });

  it('answers each week’s dated paths request for request, each week at its own date', async () => {
    for (const date of [...WEEKS, ...WEEKS]) {
      for (const path of PATHS) await same(`/snapshots/${date}${path}`);
    }
    expect(JSON.parse((await same('/snapshots/2025-02-10/analysis')).body).total).toBe(29488);
  }, 600_000);

  it('answers a week neither holds with the same 404', async () => {
    expect((await same('/snapshots/2025-03-10/websites')).status).toBe(404);
  });

  it('files a weeks database loaded with no date at its own newest week, not at its records’ last scan day', async () => {
    const loaded = await loadIntoPostgres(pool, { websites: { db: weeks, origin: 'the weeks dataset' } });
    expect(loaded.websites).toMatchObject({ snapshot: NEWEST_SNAPSHOT, records: 36331, replaced: true });
    expect(JSON.parse((await same('/snapshots')).body).snapshots.map((w: { date: string }) => w.date)).toEqual(WEEKS);
  }, 300_000);
});
