import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../../../adapters/node/datasets/open-engine.ts';
import type { Engine } from '../../../engine/http/engine.ts';
import { parseCli } from '../../../adapters/node/commands/cli.ts';
import { fixture, runCli, serveCli, type Served } from './cli-process.ts';
import { comparable } from './samples.ts';

let noBuild: string;

beforeAll(() => {
  // An empty data directory: the served datasets are the fixtures alone, whatever the worktree has built.
  noBuild = mkdtempSync(join(tmpdir(), 'doors-nodata-'));
});
afterAll(() => rmSync(noBuild, { recursive: true, force: true }));

describe("offline-gov-api serve with the user's files", () => {
  let served: Served;
  let engine: Engine;

  beforeAll(async () => {
    served = await serveCli([
      '--no-app',
      '--data',
      noBuild,
      '--websites',
      fixture('websites-current.csv'),
      '--ceilingrates',
      fixture('ceilingrates-export.csv'),
    ]);
    ({ engine } = await openEngine({ dataDir: false, files: { websites: fixture('websites-current.csv'), ceilingrates: fixture('ceilingrates-export.csv') } }));
  });
  afterAll(() => served?.stop());

  it('prints what it read, with the import report of each file', () => {
    const log = served.stderr();
    expect(log).toMatch(/websites: \d+ records from .*websites-current\.csv/);
    expect(log).toMatch(/ceilingrates: \d+ records from .*ceilingrates-export\.csv/);
    expect(log).toMatch(/\d+ rows imported, \d+ rejected \(of \d+ read\)/);
  });

  it('answers curl-like requests as the engine over the same files does', async () => {
    for (const path of [
      '/websites?limit=2',
      '/websites/search.usa.gov',
      '/technology/site-scanning/v1/analysis',
      '/api/v3/search/ceilingrates/?keyword=engineer',
      '/api/v3/search/ceilingrates/?export=y',
    ]) {
      const expected = engine.handle({ method: 'GET', url: path });
      const response = await fetch(served.url + path, { headers: { 'user-agent': 'curl/8.5.0', accept: '*/*' } });
      expect(response.status, path).toBe(expected.status);
      expect(response.headers.get('content-type'), path).toBe(expected.headers['content-type']);
      expect(comparable(await response.text()), path).toBe(comparable(expected.body));
    }
    const body = (await (await fetch(`${served.url}/websites?limit=1`)).json()) as { meta: { totalItems: number } };
    expect(body.meta.totalItems).toBeGreaterThan(0);
  });

  it('serves no app with --no-app', async () => {
    expect((await fetch(`${served.url}/index.html`)).status).toBe(404);
  });
});

describe('offline-gov-api serve --fail-rate 1', () => {
  it("answers every API request with the API's own 500 or 503, readable cross-origin", async () => {
    const served = await serveCli(['--no-app', '--data', noBuild, '--websites', fixture('websites-current.csv'), '--fail-rate', '1']);
    try {
      const statuses = new Set<number>();
      for (let i = 0; i < 20; i++) {
        const response = await fetch(`${served.url}/websites?limit=1`);
        statuses.add(response.status);
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
        const body = (await response.json()) as { statusCode: number };
        expect(body.statusCode).toBe(response.status);
      }
      expect([...statuses].every((s) => s === 500 || s === 503)).toBe(true);
      const rates = await fetch(`${served.url}/api/v3/search/ceilingrates/`);
      expect(Object.keys(await rates.json())).toEqual(['detail']);
    } finally {
      await served.stop();
    }
  });
});

describe('offline-gov-api: usage and refusals', () => {
  it('--help documents the commands and options', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const word of ['serve', 'mcp', '--websites', '--ceilingrates', '--port', '--host', '--delay', '--fail-rate']) expect(stdout).toContain(word);
  });

  it('a bad option value exits 1 with a message', async () => {
    const { code, stderr } = await runCli(['serve', '--fail-rate', '2']);
    expect(code).toBe(1);
    expect(stderr).toContain('--fail-rate must be a number from 0 to 1');
  });

  // One thread opens the files itself; more have them opened in a process of their own (share-process.ts).
  it.each(['1', '2'])("a file of the other dataset, or of no dataset, is refused with the import core's words (--workers %s)", async (workers) => {
    const other = await runCli(['serve', '--workers', workers, '--data', noBuild, '--websites', fixture('ceilingrates-export.csv')]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('offline-gov-api: ');
    expect(other.stderr).toContain('holds Ceiling rates records, not Site Scanning');
    const wrong = await runCli(['serve', '--workers', workers, '--data', noBuild, '--websites', fixture('wrong-format.txt')]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Nothing was changed');
  });

  it('options: PORT from the environment, --port over it, defaults', () => {
    expect(parseCli([], {})).toMatchObject({ command: 'serve', port: 4173, host: 'localhost', app: true, delayMs: 0, failRate: 0 });
    expect(parseCli(['serve'], { PORT: '8080' }).port).toBe(8080);
    expect(parseCli(['serve', '--port', '9000', '--host', '0.0.0.0'], { PORT: '8080' })).toMatchObject({ port: 9000, host: '0.0.0.0' });
    expect(parseCli(['mcp', '--websites', 'a.csv']).open).toEqual({ files: { websites: 'a.csv' } });
    expect(() => parseCli(['frobnicate'])).toThrow('unknown command');
  });

  it('--statement-timeout: seconds one PostgreSQL query may run, only with serve --database', () => {
    expect(parseCli(['serve', '--database', 'postgres://x@localhost/db', '--statement-timeout', '60']).statementTimeoutMs).toBe(60_000);
    expect(parseCli(['serve', '--database', 'postgres://x@localhost/db']).statementTimeoutMs).toBeUndefined();
    expect(() => parseCli(['serve', '--database', 'postgres://x@localhost/db', '--statement-timeout', '0'])).toThrow(
      '--statement-timeout must be a number from 1 to 86400',
    );
    expect(() => parseCli(['serve', '--statement-timeout', '60'])).toThrow('--statement-timeout is for serve --database');
  });
});
