/**
 * The Postgres door as a new user meets it, after `npm run build`: `offline-gov-api load --database URL` of the
 * built default datasets, then `serve --database URL` and the in-memory `serve` side by side, each its own
 * process, asked the same seeded requests over HTTP (both APIs; filters, searches, keywords, pages and records
 * drawn from the real default datasets' own values: harness/requests-from-data.ts). Counts the
 * answers that differ (status, content type or body; the ceiling rates' `took` aside) and prints the first few.
 *
 *   npx tsx scripts/postgres-door-check.ts --database postgres://… [--requests 3000] [--seed 42] [--data <built data dir>]
 *
 * Exit 1 when any answer differs.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { gsaRatesDatabase } from '../tools/real-data.ts';
import { NEWEST_WEEK, weekDatabase } from '../tools/site-scanning-source/shipped-weeks.ts';
import { ratesFromDataArb, websitesFromDataArb } from '../harness/requests-from-data.ts';
import { ROOT, startServeProcess } from './serve-process.ts';

const { values } = parseArgs({
  options: { database: { type: 'string' }, requests: { type: 'string', default: '3000' }, seed: { type: 'string', default: '42' }, data: { type: 'string' } },
});
if (!values.database) {
  console.error('usage: npx tsx scripts/postgres-door-check.ts --database <postgres-url> [--requests 3000] [--seed 42] [--data <dir>]');
  process.exit(1);
}
const requests = Number(values.requests);
const seed = Number(values.seed);
/** Both the load and the in-memory serve read the same built files (default: the CLI's, dist/data). */
const data = values.data ? ['--data', resolve(values.data)] : [];

const loaded = spawnSync(process.execPath, [resolve(ROOT, 'adapters/node/dist/bin.js'), 'load', '--database', values.database, ...data], {
  cwd: ROOT,
  encoding: 'utf8',
});
process.stdout.write(loaded.stdout + loaded.stderr);
if (loaded.status !== 0) process.exit(1);

const SQL = await loadSqlJs();
const websites = (await weekDatabase(SQL, NEWEST_WEEK)).db;
const rates = gsaRatesDatabase(SQL).db;
const sample = fc.sample(fc.oneof(websitesFromDataArb(websites), ratesFromDataArb(rates)), { seed, numRuns: requests });

const memory = await startServeProcess(data);
const postgres = await startServeProcess(['--database', values.database]);
/** status, content type and body, with the one field two backends may differ in (`took`) set to 0. */
async function answer(base: string, url: string): Promise<string> {
  const response = await fetch(base + url);
  const body = (await response.text()).replace(/^\{"took":\d+,/, '{"took":0,');
  return `${response.status} ${response.headers.get('content-type')}\n${body}`;
}
try {
  const differing: string[] = [];
  const kinds = new Map<string, number>();
  for (const { url } of sample) {
    const kind = url.startsWith('/api/') ? 'ceilingrates' : 'site-scanning';
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    const [a, b] = await Promise.all([answer(memory.url, url), answer(postgres.url, url)]);
    if (a !== b) differing.push(`${url.slice(0, 200)}\n  serve:            ${a.slice(0, 160)}\n  serve --database: ${b.slice(0, 160)}`);
  }
  console.log(
    `${sample.length} requests (seed ${seed}; ${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}): ${differing.length} answered differently by serve --database`,
  );
  for (const line of differing.slice(0, 10)) console.log(line);
  if (differing.length > 0) process.exitCode = 1;
} finally {
  memory.child.kill();
  postgres.child.kill();
}
