/**
 * `serve` answers every week the build holds, with no flag: a build directory with the newest week and the weeks
 * extra (a copy holding two real weeks and the newest, for speed) served over HTTP, by the engine in the server's
 * thread and by a pool of worker threads, answers /snapshots and each week's dated paths exactly as an engine over
 * that week's own import.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'sql.js';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { loadSqlJs } from '../../../adapters/node/sqljs-node.ts';
import { openBackend, type OpenedBackend } from '../../../adapters/node/open-backend.ts';
import { startServer, type RunningServer } from '../../../adapters/node/server.ts';
import { MANIFEST_FILE, sha256Hex, type DatasetArtifact, type DatasetSource, type Manifest } from '../../../dataset/artifact/format.ts';
import { manifestVersion } from '../../../dataset/artifact/manifest.ts';
import { WEEKS_EXTRA_ID } from '../../../dataset/websites/weeks-contract.ts';
import { gzipDatabase } from '../../../adapters/node/dataset-writer.ts';
import { NEWEST_SNAPSHOT, snapshotDatabase } from '../../../tools/real-data.ts';
import { weeksDatabase } from '../../../tools/site-scanning-source/weeks-dataset.ts';

const WEEKS = ['2025-02-10', '2025-03-17', NEWEST_SNAPSHOT];
let dataDir: string;
const reference = new Map<string, Engine>();
const opened: Database[] = [];

async function artifact(db: Database, file: string, source: DatasetSource): Promise<DatasetArtifact> {
  const raw = db.export();
  const gz = gzipDatabase(raw, 1);
  writeFileSync(join(dataDir, file), gz);
  const rows = { websites: Number(db.exec('SELECT COUNT(*) FROM websites')[0].values[0][0]) };
  return { name: 'websites', file, bytes: gz.length, rawBytes: raw.length, sha256: await sha256Hex(gz), rows, source };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'serve-weeks-'));
  const SQL = await loadSqlJs();
  const newest = await snapshotDatabase(SQL, NEWEST_SNAPSHOT);
  const weeks = await weeksDatabase(SQL, { only: WEEKS });
  const manifest: Manifest = {
    version: '',
    datasets: { websites: await artifact(newest.db, 'websites.sqlite.gz', newest.source) },
    extras: [{ ...(await artifact(weeks.db, `${WEEKS_EXTRA_ID}.sqlite.gz`, weeks.source)), id: WEEKS_EXTRA_ID, title: 'Every week' }],
  };
  manifest.version = await manifestVersion(manifest);
  writeFileSync(join(dataDir, MANIFEST_FILE), JSON.stringify(manifest));
  weeks.db.close();
  newest.db.close();
  for (const date of WEEKS) {
    const { db } = await snapshotDatabase(SQL, date);
    opened.push(db);
    const one = createEngine();
    one.use('websites', db, null, date);
    reference.set(date, one);
  }
}, 600_000);

afterAll(() => {
  for (const db of opened) db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const PATHS = ['/analysis', '/websites?limit=10&page=7', '/websites?final_url_live=true&target_url_agency_owner=Department%20of%20Energy', '/websites/usa.gov'];

describe.each([1, 2])('serve with %i worker(s)', (workers) => {
  let backend: OpenedBackend;
  let server: RunningServer;

  beforeAll(async () => {
    backend = await openBackend({ dataDir, extras: [WEEKS_EXTRA_ID] }, workers);
    server = await startServer({ engine: backend.backend, port: 0 });
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    await backend?.close();
  });

  it('lists every week the build holds at /snapshots', async () => {
    const response = await fetch(`${server.url}/snapshots`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      snapshots: [
        { date: '2025-02-10', count: 29488 },
        { date: '2025-03-17', count: 34770 },
        { date: NEWEST_SNAPSHOT, count: 36331 },
      ],
    });
  });

  it('answers each week at its dated paths as an engine over that week alone', async () => {
    for (const date of [...WEEKS, ...WEEKS]) {
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
