/**
 * Every week answered from the weeks attachment against the same week's import (a check for a build, run alone:
 * it imports all 17 weeks):
 *   npx tsx scripts/check-weeks.ts [--data public/data] [--requests 200] [--week YYYY-MM-DD]…
 * For every week data/ ships: the build's weeks (its extra, opened as every door opens it) answer at the week's
 * dated paths exactly as an engine over the import of that week's records (data/'s chain read by its one reader,
 * through the import core): every page of the whole listing at 100 a page, /analysis, and `--requests` seeded
 * requests from the week's own values (every filter, pages, records by URL); status and body must be the same bytes.
 * Prints one line per week; any difference fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { nodeBrotli } from '../adapters/node/datasets/brotli-sync.ts';
import { createEngine } from '../engine/index.ts';
import { datasetDefinition } from '../engine/dataset-registry.ts';
import type { Manifest } from '../dataset/artifact/format.ts';
import { everyWeek, weekDatabase } from '../tools/site-scanning-source/shipped-weeks.ts';
import { websitesFromDataArb } from '../harness/requests-from-data.ts';

const { values } = parseArgs({
  options: { data: { type: 'string', default: 'public/data' }, requests: { type: 'string', default: '200' }, week: { type: 'string', multiple: true } },
});
const requests = Number(values.requests);
const manifest = JSON.parse(readFileSync(join(values.data!, 'manifest.json'), 'utf8')) as Manifest;
const attachment = datasetDefinition('websites').attachment!;
const extra = manifest.extras?.find((e) => e.id === attachment.id);
if (!extra) throw new Error(`${values.data} holds no ${attachment.id} extra: npm run data`);
const SQL = await loadSqlJs();
const engine = createEngine();
engine.attach('websites', attachment.open(new SQL.Database(gunzipSync(readFileSync(join(values.data!, extra.file)))), nodeBrotli));

let differences = 0;
for (const { week, records } of everyWeek()) {
  if (values.week && !values.week.includes(week.date)) continue;
  const { db } = await weekDatabase(SQL, week.date, { records: [...records.values()] });
  const reference = createEngine();
  reference.use('websites', db, null, week.date);
  const pages = Math.ceil(records.size / 100);
  const urls = [
    '/analysis',
    ...Array.from({ length: pages + 1 }, (_, i) => `/websites?limit=100&page=${i + 1}`),
    ...fc.sample(websitesFromDataArb(db), { seed: Number(week.date.replace(/-/g, '')), numRuns: requests }).map((r) => r.url),
  ];
  const differ: string[] = [];
  for (const url of urls) {
    const path = `/snapshots/${week.date}${url}`;
    const want = reference.handle({ method: 'GET', url: path });
    const got = engine.handle({ method: 'GET', url: path });
    if (want.status !== got.status || want.body !== got.body) differ.push(`${url} (${want.status} / ${got.status})`);
  }
  db.close();
  differences += differ.length;
  console.log(
    `${week.date}: ${urls.length - differ.length} of ${urls.length} answers identical to the import's (${pages + 1} pages of the listing, /analysis, ${requests} sampled)`,
  );
  for (const line of differ.slice(0, 5)) console.log(`  differs: ${line}`);
}
if (differences > 0) {
  console.error(`${differences} answers differ`);
  process.exitCode = 1;
}
