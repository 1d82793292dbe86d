/**
 * One loaded week's Postgres answers against the in-memory engine's over the same records: the week's database
 * as the app's import makes it from the week's file (the load mapped the same records without one) behind
 * `createEngine`, and `serve --database`'s answer source under `/snapshots/<date>/`. A seeded sample of requests built from the week's own values (every
 * filter, pages across the listing, /analysis, records by URL; harness/requests-from-data.ts) and
 * the unfiltered listing and analysis, each at the week's dated path; status and body must be the same bytes.
 */
import fc from 'fast-check';
import type pg from 'pg';
import type { Database } from 'sql.js';
import { createEngine } from '../../engine/index.ts';
import { PostgresAnswers } from '../../adapters/node/backends/postgres/answers.ts';
import { websitesFromDataArb } from '../../harness/requests-from-data.ts';

export interface WeekCheck {
  date: string;
  compared: number;
  /** The requests answered differently (path, then both statuses). */
  differences: string[];
}

export async function checkWeek(pool: pg.Pool, date: string, db: Database, requests: number, seed: number): Promise<WeekCheck> {
  const engine = createEngine();
  // The engine holds the week under its own date, so it answers the same dated paths (its links in that week too).
  engine.use('websites', db, null, date);
  const answers = new PostgresAnswers(pool);
  const urls = ['/websites', '/analysis', '/websites?limit=100&page=2', ...fc.sample(websitesFromDataArb(db), { seed, numRuns: requests }).map((r) => r.url)];
  const differences: string[] = [];
  for (const url of urls) {
    const expected = engine.handle({ method: 'GET', url: `/snapshots/${date}${url}` });
    const actual = await answers.handle({ method: 'GET', url: `/snapshots/${date}${url}` });
    if (expected.status !== actual.status || expected.body !== actual.body) differences.push(`${url} (${expected.status} / ${actual.status})`);
  }
  return { date, compared: urls.length, differences };
}
