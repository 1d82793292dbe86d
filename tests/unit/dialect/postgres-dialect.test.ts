/**
 * Issue 41, point 1, the PostgreSQL door: `serve --database --dialect production` answers in production's shape by
 * the engine's same last step over PostgreSQL's answers, and `serve --dialect production` over the same files gives
 * the same answers, request for request; without the flag PostgreSQL answers the interface's shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, runCli, serveCli, type Served } from '../node/cli-process.ts';
import type { ThrowawayPostgres } from '../../../harness/postgres.ts';
import { suitePostgres } from '../helpers/suite-postgres.ts';

let postgres: ThrowawayPostgres;
let fromDatabase: Served;
let fromDatabasePlain: Served;
let inMemory: Served;

const PATHS = [
  '/websites?limit=2',
  '/technology/site-scanning/v1/analysis',
  '/technology/site-scanning/v1/websites/a.gsa.gov',
  '/api/v3/search/ceilingrates/?page_size=3&ordering=current_price&sort=desc',
  '/acquisition/calc/v3/api/ceilingrates/?keyword=engineer&filter=education_level:Bachelors',
  '/api/v3/search/ceilingrates/?suggest-contains=labor_category:an',
];

/** The body without what differs between two servers by design: `took`, and `_timestamp` (when rows were loaded). */
async function body(served: Served, path: string): Promise<string> {
  const text = await (await fetch(served.url + path)).text();
  return text
    .replace(/^\{"took":\d+,/, '{"took":0,')
    .replace(/"_timestamp":"[^"]*"/g, '"_timestamp":""')
    .replace(/"_index":"ceilingrates-[^"]*"/g, '"_index":"ceilingrates-dated"');
}

beforeAll(async () => {
  postgres = suitePostgres();
  const database = postgres.createDatabase('dialect');
  const files = ['--websites', fixture('websites-week1.csv'), '--ceilingrates', fixture('ceilingrates-export.csv')];
  const loaded = await runCli(['load', '--database', database, ...files, '--snapshot', '2025-01-06']);
  expect(loaded.code, loaded.stderr).toBe(0);
  [fromDatabase, fromDatabasePlain, inMemory] = await Promise.all([
    serveCli(['--no-app', '--database', database, '--dialect', 'production']),
    serveCli(['--no-app', '--database', database]),
    serveCli(['--no-app', '--workers', '1', ...files, '--dialect', 'production']),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([fromDatabase?.stop(), fromDatabasePlain?.stop(), inMemory?.stop()]);
  await postgres?.stop();
});

describe('serve --database --dialect production', () => {
  it("answers in production's shape", async () => {
    const target = JSON.parse(await body(fromDatabasePlain, '/websites?limit=1')).items[0].target_url;
    const site = JSON.parse(await body(fromDatabase, `/technology/site-scanning/v1/websites/${target}`));
    expect(site).toHaveProperty('initial_domain', target);
    expect(site).not.toHaveProperty('target_url');
    const rates = JSON.parse(await body(fromDatabase, '/api/v3/search/ceilingrates/?page_size=3'));
    expect(rates._shards.total).toBe(5);
    expect(Object.keys(rates.aggregations)[2]).toBe('histogram_percentiles');
    expect(JSON.parse(await body(fromDatabasePlain, `/websites/${target}`))).toHaveProperty('target_url', target);
  });

  it.each(PATHS)('%s: the same answer as serve --dialect production over the same files', async (path) => {
    expect(await body(fromDatabase, path)).toBe(await body(inMemory, path));
  });
});
