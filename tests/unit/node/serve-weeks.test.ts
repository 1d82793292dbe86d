/**
 * `serve` answers every week the build holds, with no flag: a build directory with the newest week and the weeks
 * attachment (the shared fixture of the 17 real weeks, harness/real-fixtures.ts) served over HTTP, by the
 * engine in the server's thread and by a pool of worker threads, answers /snapshots and each week's dated paths
 * exactly as an engine over that week's own import.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'sql.js';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { openBackend, type OpenedBackend } from '../../../adapters/node/backends/open-backend.ts';
import { startServer, type RunningServer } from '../../../adapters/node/doors/server.ts';
import { shippedWeeks } from '../../../tools/site-scanning-source/shipped-weeks.ts';
import { COMPARED_WEEKS, writeBuildDir } from '../../../harness/weeks-fixture.ts';
import { realWeek } from '../../../harness/real-fixtures.ts';
import { datasetDefinition } from '../../../engine/dataset-registry.ts';

const WEEKS_ID = datasetDefinition('websites').attachment!.id;

let dataDir: string;
const reference = new Map<string, Engine>();
const opened: Database[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'serve-weeks-'));
  const SQL = await loadSqlJs();
  await writeBuildDir(SQL, dataDir);
  for (const date of COMPARED_WEEKS) {
    const db = (await realWeek(SQL, date)).db;
    opened.push(db);
    const one = createEngine();
    one.use('websites', db, null, date);
    reference.set(date, one);
  }
});

afterAll(() => {
  for (const db of opened) db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const PATHS = ['/analysis', '/websites?limit=10&page=7', '/websites?final_url_live=true&target_url_agency_owner=Department%20of%20Energy', '/websites/usa.gov'];

describe.each([1, 2])('serve with %i worker(s)', (workers) => {
  let backend: OpenedBackend;
  let server: RunningServer;

  beforeAll(async () => {
    backend = await openBackend({ dataDir, extras: [WEEKS_ID] }, workers);
    server = await startServer({ engine: backend.backend, port: 0 });
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    await backend?.close();
  });

  it('lists every week the build holds at /snapshots', async () => {
    const response = await fetch(`${server.url}/snapshots`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ snapshots: shippedWeeks().weeks.map(({ date, count }) => ({ date, count })) });
  });

  it('answers each week at its dated paths as an engine over that week alone', async () => {
    for (const date of [...COMPARED_WEEKS, ...COMPARED_WEEKS]) {
      for (const path of PATHS) {
        const url = `/snapshots/${date}${path}`;
        const expected = reference.get(date)!.handle({ method: 'GET', url });
        const response = await fetch(`${server.url}${url}`);
        expect({ status: response.status, body: (await response.text()).replace(/^\{"took":\d+,/, '{"took":0,') }, url).toEqual({
          status: expected.status,
          body: expected.body.replace(/^\{"took":\d+,/, '{"took":0,'),
        });
      }
    }
    expect((await fetch(`${server.url}/snapshots/2025-03-10/analysis`)).status).toBe(404);
  }, 300_000);
});
