/**
 * Issue 23: the same requests to the in-memory engine and to the Postgres backend (a real PostgreSQL 15,
 * loaded with the same records) get the same status, headers and body, `took` aside. Plus what only the
 * Postgres backend has: dated snapshots, and a database that is empty, down, or comes back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackends, bothAnswers, comparable, inWeek, type Backends } from './backends.ts';
import { CONFORMANCE_CASES } from './cases.ts';
import { createPool } from '../../../adapters/node/backends/postgres/pool.ts';
import { PostgresAnswers } from '../../../adapters/node/backends/postgres/answers.ts';
import { loadIntoPostgres } from '../../../adapters/node/backends/postgres/load.ts';
import { SCHEMA_VERSION } from '../../../adapters/node/backends/postgres/schema.ts';
import { createEngine } from '../../../engine/index.ts';
import { WEBSITE_FIELDS } from '../../../engine/site-scanning/record.ts';
import { FIELD_SEPARATOR } from '../../../engine/site-scanning/stored-record.ts';
import { emptyDatabase, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import { startPostgres } from '../../../harness/postgres.ts';
import type { Database } from 'sql.js';
import fc from 'fast-check';
import { ratesFromDataArb } from '../../../harness/requests-from-data.ts';
import { runs } from '../fuzz/runs.ts';
import { loadedRates } from '../../../adapters/node/backends/postgres/ceilingrates-loaded.ts';
import { Params, planBranches, planCondition, restCondition } from '../../../adapters/node/backends/postgres/ceilingrates-query.ts';
import { ceilingRatesIndex } from '../../../engine/ceilingrates/ceiling-rates-index.ts';
import { parseQuery } from '../../../engine/ceilingrates/parse-query.ts';
import { matchPlan } from '../../../engine/ceilingrates/query/match-plan.ts';
import { matchedRows } from '../../../engine/ceilingrates/query/match-set.ts';

/** The first word of the first labor category: a keyword matching several rates. */
const keywordOf = (rates: Database): string => String(rates.exec('SELECT labor_category FROM ceilingrates ORDER BY id LIMIT 1')[0].values[0][0]).split(' ')[0];

let backends: Backends;

beforeAll(async () => {
  backends = await startBackends('2025-06-02');
});

afterAll(async () => {
  await backends?.stop();
});

describe('the conformance cases', () => {
  it.each(CONFORMANCE_CASES.map((request) => [`${request.method} ${request.url}`, request] as const))('%s', async (_, request) => {
    const { engine, postgres } = await bothAnswers(backends, request);
    expect(postgres).toEqual(engine);
  });
});

describe('snapshots and loads', () => {
  it('keeps each snapshot by date: the newest answers the API paths, /snapshots/<date>/ an older one', async () => {
    const url = backends.server.createDatabase('history');
    const pool = createPool(url);
    const answers = new PostgresAnswers(pool);
    const fewer = await generatedDatabase('websites', 50);
    try {
      await loadIntoPostgres(pool, { websites: { db: backends.websites, origin: 'week 1' }, snapshot: '2025-06-02' });
      await loadIntoPostgres(pool, { websites: { db: fewer, origin: 'week 2' }, snapshot: '2025-06-09' });
      const newest = engineOver('websites', fewer);
      for (const path of ['/websites?limit=5&page=2', '/analysis', '/websites/18f.gov']) {
        expect(comparable(await answers.handle({ method: 'GET', url: path })), path).toEqual(comparable(newest.handle({ method: 'GET', url: path })));
        const dated = { method: 'GET', url: `/snapshots/2025-06-02${path}` };
        expect(comparable(await answers.handle(dated)), dated.url).toEqual(
          inWeek(comparable(backends.engine.handle({ method: 'GET', url: path })), '2025-06-02'),
        );
      }
      const unknown = await answers.handle({ method: 'GET', url: '/snapshots/2024-01-01/websites' });
      expect([unknown.status, JSON.parse(unknown.body).message]).toEqual([404, 'Cannot GET /snapshots/2024-01-01/websites']);
      // Only Site Scanning keeps snapshots.
      expect((await answers.handle({ method: 'GET', url: '/snapshots/2025-06-02/api/v3/search/ceilingrates/' })).status).toBe(404);

      // The same date again replaces that snapshot.
      await loadIntoPostgres(pool, { websites: { db: fewer, origin: 'week 1 again' }, snapshot: '2025-06-02' });
      expect(JSON.parse((await answers.handle({ method: 'GET', url: '/snapshots/2025-06-02/analysis' })).body).total).toBe(50);
    } finally {
      fewer.close();
      answers.close();
      await pool.end();
    }
  });

  it('serves a database of schema 4 its clear error for what it lacks until the next load migrates it', async () => {
    const url = backends.server.createDatabase('schema4');
    const pool = createPool(url);
    const lines: string[] = [];
    const answers = new PostgresAnswers(pool, (line) => lines.push(line));
    const fewer = await generatedDatabase('websites', 50);
    const path = '/analysis?final_url_live=true&scan_status=completed';
    try {
      await loadIntoPostgres(pool, { websites: { db: backends.websites, origin: 'week 1' }, snapshot: '2025-06-02' });
      // As schema 4 left it: no week's filter columns apart.
      await pool.query('DROP TABLE websites_filters; UPDATE offline_gov_schema SET version = 4');
      expect((await answers.handle({ method: 'GET', url: path })).status).toBe(503);
      expect(lines).toEqual(['postgres: the database holds no offline-gov-api data, or an older layout of it; run `offline-gov-api load --database <url>`']);
      // The next load (of another week) migrates it, the weeks already there included.
      await loadIntoPostgres(pool, { websites: { db: fewer, origin: 'week 2' }, snapshot: '2025-06-09' });
      expect(comparable(await answers.handle({ method: 'GET', url: `/snapshots/2025-06-02${path}` }))).toEqual(
        inWeek(comparable(backends.engine.handle({ method: 'GET', url: path })), '2025-06-02'),
      );
      expect(comparable(await answers.handle({ method: 'GET', url: path }))).toEqual(
        comparable(engineOver('websites', fewer).handle({ method: 'GET', url: path })),
      );
      expect((await pool.query('SELECT version FROM offline_gov_schema')).rows).toEqual([{ version: SCHEMA_VERSION }]);
    } finally {
      fewer.close();
      answers.close();
      await pool.end();
    }
  });

  it('serves rates of schema 6 the same error until a load of the websites alone migrates them, and loads rates again after', async () => {
    const url = backends.server.createDatabase('schema6');
    const pool = createPool(url);
    const lines: string[] = [];
    const answers = new PostgresAnswers(pool, (line) => lines.push(line));
    const keyword = `/api/v3/search/ceilingrates/?keyword=${encodeURIComponent(keywordOf(backends.ceilingrates))}&page=2&page_size=5`;
    const paths = [keyword, '/api/v3/search/ceilingrates/?filter=price_range:15,500&page_size=3', '/api/v3/search/ceilingrates/?suggest=vendor_name:a'];
    const same = async (): Promise<void> => {
      for (const path of paths) {
        expect(comparable(await answers.handle({ method: 'GET', url: path })), path).toEqual(comparable(backends.engine.handle({ method: 'GET', url: path })));
      }
    };
    try {
      await loadIntoPostgres(pool, { ceilingrates: { db: backends.ceilingrates, origin: 'generated' } });
      // As schema 6 left the rates: no places, counted rows or rows per value; forms and codes the engine
      // computes now, as NOT NULL columns a later load would not fill.
      await pool.query(`ALTER TABLE ceilingrate_rows DROP COLUMN place, ADD COLUMN c_price_key integer NOT NULL DEFAULT 0;
        ALTER TABLE ceilingrate_terms DROP COLUMN rows, ADD COLUMN folded text NOT NULL DEFAULT '';
        DROP TABLE ceilingrate_counted; CREATE TABLE ceilingrate_tokens (field text NOT NULL, token text NOT NULL, code integer NOT NULL);
        UPDATE offline_gov_schema SET version = 6`);
      expect((await answers.handle({ method: 'GET', url: keyword })).status).toBe(503);
      expect(lines).toEqual(['postgres: the database holds no offline-gov-api data, or an older layout of it; run `offline-gov-api load --database <url>`']);
      await loadIntoPostgres(pool, { websites: { db: backends.websites, origin: 'week 1' }, snapshot: '2025-06-02' });
      await same();
      expect((await pool.query('SELECT version FROM offline_gov_schema')).rows).toEqual([{ version: SCHEMA_VERSION }]);
      expect((await pool.query("SELECT to_regclass('ceilingrate_tokens') AS tokens")).rows).toEqual([{ tokens: null }]);
      // The migrated layout takes the next load of the rates.
      await loadIntoPostgres(pool, { ceilingrates: { db: backends.ceilingrates, origin: 'generated again' } });
      await same();
    } finally {
      answers.close();
      await pool.end();
    }
  });

  it('leaves the data as it was when a load fails', async () => {
    const url = backends.server.createDatabase('failing');
    const pool = createPool(url);
    const answers = new PostgresAnswers(pool);
    const broken = await emptyDatabase('websites');
    // A number field holding text: Postgres refuses the row halfway through the load.
    const stored = (url: string, statusCode: string): string =>
      WEBSITE_FIELDS.map(([name]) => (name === 'target_url' ? JSON.stringify(url) : name === 'final_url_status_code' ? statusCode : '')).join(FIELD_SEPARATOR);
    broken.run(`INSERT INTO websites (target_url, sort_key, record) VALUES ('a.gov', 1, ?), ('b.gov', 2, ?)`, [
      stored('a.gov', '1'),
      stored('b.gov', '"not a number"'),
    ]);
    try {
      await loadIntoPostgres(pool, {
        websites: { db: backends.websites, origin: 'good' },
        ceilingrates: { db: backends.ceilingrates, origin: 'good' },
        snapshot: '2025-06-02',
      });
      const before = await Promise.all(
        ['/analysis', '/api/v3/search/ceilingrates/?page_size=2'].map(async (u) => comparable(await answers.handle({ method: 'GET', url: u }))),
      );
      for (const snapshot of ['2025-06-02', '2025-06-16']) {
        await expect(
          loadIntoPostgres(pool, { websites: { db: broken, origin: 'broken' }, ceilingrates: { db: backends.ceilingrates, origin: 'x' }, snapshot }),
        ).rejects.toThrow();
      }
      const after = await Promise.all(
        ['/analysis', '/api/v3/search/ceilingrates/?page_size=2'].map(async (u) => comparable(await answers.handle({ method: 'GET', url: u }))),
      );
      expect(after).toEqual(before);
      expect((await answers.handle({ method: 'GET', url: '/snapshots/2025-06-16/analysis' })).status).toBe(404);
      const { rows } = await pool.query('SELECT generation FROM ceilingrates_loads');
      expect(rows).toEqual([{ generation: '1' }]);
    } finally {
      broken.close();
      answers.close();
      await pool.end();
    }
  });
});

describe('ceiling rates in SQL', () => {
  it('selects by a match plan the rows the engine selects, by its complement the others, and by its parts the same rows', async () => {
    const rates = await generatedDatabase('ceilingrates', 1500);
    // Rates with no price or no experience: a range's complement holds them.
    rates.run('UPDATE ceilingrates SET current_price = NULL WHERE id % 13 = 0');
    rates.run('UPDATE ceilingrates SET min_years_experience = NULL WHERE id % 17 = 0');
    const pool = createPool(backends.server.createDatabase('plans'));
    try {
      await loadIntoPostgres(pool, { ceilingrates: { db: rates, origin: 'prices and experience left out' } });
      const loaded = (await loadedRates(pool))!;
      const index = ceilingRatesIndex(rates);
      const idsWhere = async (from: string, where: string, params: Params): Promise<number[]> =>
        (await pool.query({ text: `SELECT DISTINCT r.id FROM ${from} WHERE ${where} ORDER BY r.id`, values: params.values, rowMode: 'array' })).rows.map(
          ([id]) => Number(id),
        );
      const every = await idsWhere('ceilingrate_rows r', 'true', new Params());
      const { seed, numRuns } = runs(52_001, 300);
      const queries = fc
        .sample(ratesFromDataArb(rates), { seed, numRuns })
        .map((request) => new URL(request.url, 'http://localhost').searchParams)
        .flatMap((params) => {
          try {
            return [parseQuery(params)];
          } catch {
            return [];
          }
        });
      let split = 0;
      for (const query of queries) {
        const plan = matchPlan(loaded.tables, query, query.suggestContains);
        const engine = Array.from(matchedRows(index.match(query, query.suggestContains)), (row) => index.store.ids[row]);
        const what = JSON.stringify([query.searches, query.keyword, query.filters, query.exclude, query.suggestContains]);
        let params = new Params();
        expect(await idsWhere('ceilingrate_rows r', planCondition(plan, params), params), what).toEqual(engine);
        params = new Params();
        const rest = await idsWhere('ceilingrate_rows r', restCondition(plan, params), params);
        expect(
          [...engine, ...rest].sort((a, b) => a - b),
          what,
        ).toEqual(every);
        params = new Params();
        const parts = planBranches(plan, params, true);
        if (parts.length > 1) split++;
        const union = `(${parts.map(({ from, where }) => `SELECT r.id FROM ${from} WHERE ${where}`).join(' UNION ALL ')}) r`;
        expect(await idsWhere(union, 'true', params), what).toEqual(engine);
      }
      expect(queries.length).toBeGreaterThan(250);
      // The keyword's parts were compared too.
      expect(split).toBeGreaterThan(10);
    } finally {
      rates.close();
      await pool.end();
    }
  });

  it('answers as the engine when the sums of huge prices overflow the doubles (the engine sums them scaled)', async () => {
    const rates = await generatedDatabase('ceilingrates', 300);
    // Sums and squares overflow, their means and deviations do not; a few exact ties and nulls too.
    rates.run('UPDATE ceilingrates SET current_price = 1.5e308 WHERE id % 3 = 0');
    rates.run('UPDATE ceilingrates SET current_price = 1e200 WHERE id % 3 = 1 AND id % 2 = 0');
    rates.run('UPDATE ceilingrates SET current_price = NULL WHERE id % 11 = 0');
    const url = backends.server.createDatabase('huge');
    const pool = createPool(url);
    const answers = new PostgresAnswers(pool);
    try {
      await loadIntoPostgres(pool, { ceilingrates: { db: rates, origin: 'huge prices' } });
      const engine = engineOver('ceilingrates', rates);
      for (const path of ['', '?filter=price_range:1e300,2e308', '?keyword=an&ordering=current_price&sort=desc', '?filter=price_range:0,1e201&page_size=3']) {
        const request = { method: 'GET', url: `/api/v3/search/ceilingrates/${path}` };
        expect(comparable(await answers.handle(request)), path).toEqual(comparable(engine.handle(request)));
      }
    } finally {
      rates.close();
      answers.close();
      await pool.end();
    }
  });
});

describe('a database that is empty or down', () => {
  it('answers each API its own 503 from an empty database, logging one line once', async () => {
    const url = backends.server.createDatabase('empty');
    const pool = createPool(url);
    const lines: string[] = [];
    const answers = new PostgresAnswers(pool, (line) => lines.push(line));
    try {
      const site = await answers.handle({ method: 'GET', url: '/websites' });
      const rates = await answers.handle({ method: 'GET', url: '/api/v3/search/ceilingrates/' });
      expect([site.status, rates.status]).toEqual([503, 503]);
      // What the engine answers without a dataset.
      const none = createEngine();
      expect(comparable(site)).toEqual(comparable(none.handle({ method: 'GET', url: '/websites' })));
      expect(comparable(rates)).toEqual(comparable(none.handle({ method: 'GET', url: '/api/v3/search/ceilingrates/' })));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^postgres: the database holds no offline-gov-api data/);
      expect(lines[0]).not.toContain('\n');
    } finally {
      answers.close();
      await pool.end();
    }
  });

  it('answers 503 while the server is down, keeps answering, and recovers when it is back', async () => {
    // A server of its own: the suite's is shared by every Postgres test file.
    const server = await startPostgres();
    const pool = createPool(server.createDatabase('paused'));
    await loadIntoPostgres(pool, {
      websites: { db: backends.websites, origin: 'generated' },
      ceilingrates: { db: backends.ceilingrates, origin: 'generated' },
      snapshot: backends.snapshot,
    });
    const lines: string[] = [];
    const answers = new PostgresAnswers(pool, (line) => lines.push(line));
    const request = { method: 'GET', url: '/websites?limit=1' };
    const healthy = await answers.handle(request);
    server.pause();
    try {
      const down = await answers.handle(request);
      expect(down.status).toBe(503);
      const stillDown = await answers.handle({ method: 'GET', url: '/analysis' });
      expect(stillDown.status).toBe(503);
      // Answers that need no data keep coming.
      expect((await answers.handle({ method: 'OPTIONS', url: '/api/v3/search/ceilingrates/' })).status).toBe(200);
    } finally {
      server.resume();
    }
    try {
      expect(lines.length).toBeGreaterThanOrEqual(1);
      for (const line of lines) expect(line).toMatch(/^postgres: [^\n]+$/);
      expect(comparable(await answers.handle(request))).toEqual(comparable(healthy));
    } finally {
      answers.close();
      await pool.end();
      server.stop();
    }
  });
});
