import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../../../engine/http/engine.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { openSharedDatabase, sharedCopy } from '../../../adapters/node/backends/shared-bytes.ts';
import { shareDatasets } from '../../../adapters/node/backends/share-datasets.ts';
import { IN_FLIGHT, spawnPoolWorker, startWorkerPool, type SpawnWorker } from '../../../adapters/node/backends/worker-pool.ts';
import { Worker } from 'node:worker_threads';
import { APIS } from '../../../engine/index.ts';
import { engineOver, generatedDatabase } from '../../../harness/engine.ts';
import { serveCli, type Served } from './cli-process.ts';
import { comparable, SAMPLE_REQUESTS } from './samples.ts';

describe('a database over shared bytes', () => {
  it('reads the shared bytes themselves, not a copy: every thread given them reads one copy', async () => {
    const SQL = await loadSqlJs();
    const file = sharedCopy((await generatedDatabase('websites', 20)).export());
    expect(file.buffer).toBeInstanceOf(SharedArrayBuffer);
    const db = openSharedDatabase(SQL, file);
    expect(db.exec('SELECT count(*) FROM websites')[0].values[0][0]).toBe(20);
    // Were it a copy, clearing the shared bytes would change nothing for it.
    file.fill(0);
    expect(() => db.exec('SELECT count(*) FROM websites')).toThrow(/not a database/);
  });

  it('refuses to write, so no thread changes what the others read', async () => {
    const SQL = await loadSqlJs();
    const db = openSharedDatabase(SQL, sharedCopy((await generatedDatabase('websites', 5)).export()));
    expect(() => db.exec('DELETE FROM websites')).toThrow(/readonly|query_only/i);
  });
});

describe('offline-gov-api serve --workers 2', () => {
  let dir: string;
  let engine: Engine;
  let served: Served;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doors-pool-'));
    const websites = await generatedDatabase('websites');
    const rates = await generatedDatabase('ceilingrates');
    writeFileSync(join(dir, 'websites.sqlite'), websites.export());
    writeFileSync(join(dir, 'rates.sqlite'), rates.export());
    engine = engineOver('websites', websites);
    engine.use('ceilingrates', rates);
    served = await serveCli([
      '--no-app',
      '--data',
      dir,
      '--workers',
      '2',
      '--websites',
      join(dir, 'websites.sqlite'),
      '--ceilingrates',
      join(dir, 'rates.sqlite'),
    ]);
  });
  afterAll(async () => {
    await served?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says it answers on two threads', () => {
    expect(served.stderr()).toMatch(/listening on .*2 worker threads/);
  });

  it('answers every sampled request as the engine does, many at once: status, headers and body', async () => {
    // Sent together, so both workers answer some of them.
    const requests = [...SAMPLE_REQUESTS, ...SAMPLE_REQUESTS];
    const responses = await Promise.all(requests.map(({ method, url }) => fetch(served.url + url, { method })));
    for (const [i, response] of responses.entries()) {
      const { method, url } = requests[i];
      const expected = engine.handle({ method, url });
      const label = `${method} ${url}`;
      expect(response.status, label).toBe(expected.status);
      for (const [name, value] of Object.entries(expected.headers)) expect(response.headers.get(name), `${label} ${name}`).toBe(value);
      expect(comparable(await response.text()), label).toBe(comparable(expected.body));
    }
  });
});

describe('the worker pool', () => {
  it('drops a request whose client has gone before a worker takes it, and answers the others in order', async () => {
    const db = await generatedDatabase('websites', 20);
    const pool = await startWorkerPool(shareDatasets(APIS, [{ name: 'websites', db, origin: 'generated', label: 'test data', rows: {} }]), 1);
    try {
      const gone = await pool.handle({ method: 'GET', url: '/websites?limit=1' }, AbortSignal.abort());
      // Nobody reads it, but it is still the API's own 503 (with Retry-After), as every 503 is.
      expect([gone.status, JSON.parse(gone.body).statusCode, gone.headers['retry-after']]).toEqual([503, 503, '5']);
      // The one worker takes IN_FLIGHT requests; the next waits in the pool, and its client leaves meanwhile.
      const taken = Array.from({ length: IN_FLIGHT }, () => pool.handle({ method: 'GET', url: '/websites?limit=1' }));
      const leaving = new AbortController();
      const waiting = pool.handle({ method: 'GET', url: '/websites?limit=2' }, leaving.signal);
      const after = pool.handle({ method: 'GET', url: '/analysis' });
      leaving.abort();
      expect((await waiting).status).toBe(503);
      for (const answer of await Promise.all(taken)) expect(answer.status).toBe(200);
      expect(JSON.parse((await after).body).total).toBe(20);
    } finally {
      await pool.close();
    }
  });

  it('replaces a worker thread that is lost, and answers on the new one', async () => {
    const db = await generatedDatabase('websites', 20);
    const threads: Worker[] = [];
    const spawn: SpawnWorker = (data) => {
      const worker = spawnPoolWorker(data);
      threads.push(worker);
      return worker;
    };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const pool = await startWorkerPool(shareDatasets(APIS, [{ name: 'websites', db, origin: 'generated', label: 'test data', rows: {} }]), 1, spawn);
    try {
      expect(JSON.parse((await pool.handle({ method: 'GET', url: '/analysis' })).body).total).toBe(20);
      await threads[0].terminate();
      // Asked while the replacement starts: it waits for it rather than failing.
      const asked = pool.handle({ method: 'GET', url: '/analysis' });
      expect(JSON.parse((await asked).body).total).toBe(20);
      expect(threads).toHaveLength(2);
      expect(errors.mock.calls.map((call) => String(call[0]))).toContain('offline-gov-api: a worker thread was lost; starting another');
    } finally {
      await pool.close();
      errors.mockRestore();
    }
  });

  it('stops replacing workers that cannot start, and then fails the requests instead of keeping them waiting', async () => {
    const db = await generatedDatabase('websites', 20);
    const threads: Worker[] = [];
    // The first starts; every replacement exits at once, as a thread that cannot load its engine would.
    const spawn: SpawnWorker = (data) => {
      threads.push(threads.length === 0 ? spawnPoolWorker(data) : new Worker('process.exit(3)', { eval: true }));
      return threads.at(-1)!;
    };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const pool = await startWorkerPool(shareDatasets(APIS, [{ name: 'websites', db, origin: 'generated', label: 'test data', rows: {} }]), 1, spawn);
    try {
      expect((await pool.handle({ method: 'GET', url: '/analysis' })).status).toBe(200);
      await threads[0].terminate();
      // Asked while the replacements are tried: failed once none can start, not kept waiting.
      await expect(pool.handle({ method: 'GET', url: '/analysis' })).rejects.toThrow(/no worker thread is running|worker thread exited/);
      await vi.waitFor(() => expect(threads).toHaveLength(1 + 3));
      await expect(pool.handle({ method: 'GET', url: '/analysis' })).rejects.toThrow('no worker thread is running');
      expect(errors.mock.calls.map((call) => String(call[0]))).toContain('offline-gov-api: 3 worker threads lost in a minute; not starting another');
    } finally {
      await pool.close();
      errors.mockRestore();
    }
  });
});
