/**
 * Issue 23 through the command line, as users run it: `load --database` of the user's CSV files (through
 * the app's import) as two dated snapshots, then two `serve --database` processes against the one Postgres
 * answering exactly as `serve` does over the same files, request for request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, runCli, serveCli, type Served } from '../node/cli-process.ts';
import type { ThrowawayPostgres } from '../../../harness/postgres.ts';
import { suitePostgres } from '../helpers/suite-postgres.ts';
import { openEngine } from '../../../adapters/node/datasets/open-engine.ts';
import { startServer, type RunningServer } from '../../../adapters/node/doors/server.ts';
import { inWeek } from './backends.ts';

let postgres: ThrowawayPostgres;
let database: string;
let replicas: Served[] = [];
let week1: RunningServer;
let week2: RunningServer;

const PATHS = [
  '/websites',
  '/websites?limit=2&page=2',
  '/websites?final_url_live=true',
  '/technology/site-scanning/v1/analysis',
  '/websites/18f.gov',
  '/websites?limit=abc',
  '/api/v3/search/ceilingrates/?page_size=3&ordering=current_price&sort=desc',
  '/api/v3/search/ceilingrates/?keyword=engineer',
  '/api/v3/search/ceilingrates/?suggest-contains=labor_category:an',
  '/api/v3/search/ceilingrates/?export=y',
  '/acquisition/calc/v3/api/ceilingrates/?filter=price_range:abc',
];

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function get(base: string, path: string, method = 'GET'): Promise<Seen> {
  const response = await fetch(base + path, { method });
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'access-control-allow-origin', 'allow', 'content-disposition']) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  // `took` varies; `_timestamp` is when a CSV export's rows were imported (the load, or the in-memory serve's start).
  const body = (await response.text()).replace(/^\{"took":\d+,/, '{"took":0,').replace(/"_timestamp":"[^"]*"/g, '"_timestamp":""');
  return { status: response.status, headers, body };
}

beforeAll(async () => {
  postgres = suitePostgres();
  database = postgres.createDatabase('cli');
  const rates = fixture('ceilingrates-export.csv');
  for (const [file, snapshot] of [
    ['websites-week1.csv', '2025-01-06'],
    ['websites-week2.csv', '2025-01-13'],
  ]) {
    const args = ['load', '--database', database, '--websites', fixture(file), '--snapshot', snapshot, '--ceilingrates', rates];
    const loaded = await runCli(args);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stderr).toContain(`as the snapshot of ${snapshot} (added)`);
  }
  replicas = await Promise.all([serveCli(['--database', database, '--no-app']), serveCli(['--database', database, '--no-app'])]);
  const memory = async (file: string): Promise<RunningServer> =>
    startServer({ engine: (await openEngine({ dataDir: false, files: { websites: fixture(file), ceilingrates: rates } })).engine, port: 0, appDir: null });
  [week1, week2] = await Promise.all([memory('websites-week1.csv'), memory('websites-week2.csv')]);
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await week1?.close();
  await week2?.close();
  postgres?.stop();
});

describe('load, then serve --database', () => {
  it.each(PATHS)('two replicas answer %s as serve does over the same files', async (path) => {
    const expected = await get(week2.url, path);
    for (const replica of replicas) expect(await get(replica.url, path)).toEqual(expected);
    expect(await get(replicas[0].url, path, 'HEAD')).toEqual(await get(week2.url, path, 'HEAD'));
  });

  it('answers the older week under /snapshots/<date>/', async () => {
    for (const path of ['/websites?limit=3', '/analysis', '/websites/18f.gov']) {
      expect(await get(replicas[1].url, `/snapshots/2025-01-06${path}`)).toEqual(inWeek(await get(week1.url, path), '2025-01-06'));
      expect(await get(replicas[1].url, `/snapshots/2025-01-13${path}`)).toEqual(inWeek(await get(week2.url, path), '2025-01-13'));
    }
  });

  it('says what went wrong in one line when the database cannot be reached', async () => {
    const result = await runCli(['load', '--database', 'postgres://postgres@127.0.0.1:1/none', '--websites', fixture('websites-week1.csv')]);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    // After the import's report line, one line says what failed.
    expect(lines.filter((line) => line.startsWith('offline-gov-api:'))).toEqual([
      expect.stringMatching(/^offline-gov-api: load into postgres:\/\/postgres@127\.0\.0\.1:1\/none failed, nothing changed: .*ECONNREFUSED/),
    ]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('serves 503 from a database that is down, and starts anyway', async () => {
    const down = await serveCli(['--database', 'postgres://postgres@127.0.0.1:1/none', '--no-app']);
    try {
      const answer = await get(down.url, '/websites');
      expect(answer.status).toBe(503);
      expect(down.stderr()).toMatch(/postgres: .*ECONNREFUSED/);
      expect(down.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      await down.stop();
    }
  });
});

describe('the options', () => {
  it('load needs --database; --snapshot is for load; serve --database takes no files', async () => {
    const { parseCli } = await import('../../../adapters/node/commands/cli.ts');
    expect(parseCli(['load', '--database', 'postgres://x/y', '--snapshot', '2025-06-02'])).toMatchObject({
      command: 'load',
      database: 'postgres://x/y',
      snapshot: '2025-06-02',
    });
    expect(parseCli(['serve', '--database', 'postgres://x/y'])).toMatchObject({ command: 'serve', database: 'postgres://x/y' });
    expect(() => parseCli(['load'])).toThrow('load needs --database');
    expect(() => parseCli(['serve', '--snapshot', '2025-06-02'])).toThrow('--snapshot is for load');
    expect(() => parseCli(['serve', '--database', 'postgres://x/y', '--websites', 'a.csv'])).toThrow('serve --database answers what the database holds');
    expect(() => parseCli(['mcp', '--database', 'postgres://x/y'])).toThrow('--database is for serve and load');
  });

  it('refuses a snapshot that is not a date', async () => {
    const result = await runCli(['load', '--database', database, '--websites', fixture('websites-week1.csv'), '--snapshot', '2025-02-30']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--snapshot must be a date YYYY-MM-DD, not "2025-02-30"');
  });
});
