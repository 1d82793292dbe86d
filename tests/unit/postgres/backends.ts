/**
 * Both backends over the same records: the in-memory engine, and the Postgres backend after a `load` of
 * those records into a throwaway PostgreSQL server. Tests send each the same request and compare.
 */
import type pg from 'pg';
import type { Database } from 'sql.js';
import { createEngine, type Engine } from '../../../engine/index.ts';
import type { ApiRequest, ApiResponse } from '../../../engine/http/types.ts';
import { createPool } from '../../../adapters/node/backends/postgres/pool.ts';
import { loadIntoPostgres } from '../../../adapters/node/backends/postgres/load.ts';
import { PostgresAnswers } from '../../../adapters/node/backends/postgres/answers.ts';
import { generatedDatabase } from '../../../harness/engine.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { NEWEST_WEEK } from '../../../tools/site-scanning-source/shipped-weeks.ts';
import { realRates, realWeek } from '../../../harness/real-fixtures.ts';
import type { ThrowawayPostgres } from '../../../harness/postgres.ts';
import { suitePostgres } from '../helpers/suite-postgres.ts';

export interface Backends {
  server: ThrowawayPostgres;
  url: string;
  pool: pg.Pool;
  engine: Engine;
  postgres: PostgresAnswers;
  websites: Database;
  ceilingrates: Database;
  /** The date the websites were loaded as. */
  snapshot: string;
  stop(): Promise<void>;
}

/** The real default datasets, as `npm start` builds them: the snapshot of 2025-06-09 and GSA's 2025 price-list rates. */
async function realDatabases(): Promise<{ websites: Database; ceilingrates: Database }> {
  const SQL = await loadSqlJs();
  return { websites: (await realWeek(SQL, NEWEST_WEEK)).db, ceilingrates: (await realRates(SQL)).db };
}

/**
 * Both backends over the generated small profile (2,000 websites, 3,000 rates) or the real default datasets,
 * the websites loaded as the snapshot of `snapshot`.
 */
export async function startBackends(snapshot = '2025-06-02', data: 'small' | 'real' = 'small'): Promise<Backends> {
  const server = suitePostgres();
  const url = server.createDatabase('conformance');
  const { websites, ceilingrates } =
    data === 'real' ? await realDatabases() : { websites: await generatedDatabase('websites'), ceilingrates: await generatedDatabase('ceilingrates') };
  const pool = createPool(url);
  await loadIntoPostgres(pool, { websites: { db: websites, origin: 'generated' }, ceilingrates: { db: ceilingrates, origin: 'generated' }, snapshot });
  const engine = createEngine();
  engine.use('websites', websites, null, snapshot);
  engine.use('ceilingrates', ceilingrates);
  const postgres = new PostgresAnswers(pool);
  await postgres.warm();
  return {
    server,
    url,
    pool,
    engine,
    postgres,
    websites,
    ceilingrates,
    snapshot,
    async stop() {
      postgres.close();
      await pool.end();
      server.stop();
    },
  };
}

/** An answer with `took` set to 0: the one field that may differ between two backends. */
export function comparable(response: ApiResponse): ApiResponse {
  return { ...response, body: response.body.replace(/^\{"took":\d+,/, '{"took":0,') };
}

/** An undated listing's answer as the same week answers it at `/snapshots/<date>/`: its links stay in that week. */
export function inWeek<T extends { body: string }>(response: T, date: string): T {
  return { ...response, body: response.body.replaceAll('"/websites?', `"/snapshots/${date}/websites?`) };
}

/** The engine holding the one snapshot loaded: its dated paths are answered, other dates are no route. */
export function engineAnswer(backends: Backends, request: ApiRequest): ApiResponse {
  return backends.engine.handle(request);
}

export async function bothAnswers(backends: Backends, request: ApiRequest): Promise<{ engine: ApiResponse; postgres: ApiResponse }> {
  return { engine: comparable(engineAnswer(backends, request)), postgres: comparable(await backends.postgres.handle(request)) };
}
