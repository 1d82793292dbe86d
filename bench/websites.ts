/**
 * Timing of the Site Scanning engine over the default dataset (the real 2025-06-09 snapshot, 36,331 records) or
 * the synthetic profile (30,000 generated records), in Node, beside the baseline (the previous approach: the same
 * requests answered in SQL with one index per filter column, on a copy of the database with those indexes added):
 *   npx tsx bench/websites.ts [--runs 300] [--data real|synthetic]
 * Budgets on the real data: a 100-row /websites page ≤ 2 ms and a filtered /analysis ≤ 5 ms at p50.
 * Prints the dataset's size (raw and gzip'd), the first request's wait (it reads the filter index), and
 * p50/p95 per request for both. Both answers are checked equal first. A measurement, not a test.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { buildDatabase } from '../tools/generated-datasets.ts';
import { toShippedForm } from '../tools/shipped-form.ts';
import { gzipDatabase } from '../adapters/node/datasets/dataset-writer.ts';
import { websitesDataset } from '../tools/generate/websites.ts';
import { NEWEST_WEEK, weekDatabase } from '../tools/site-scanning-source/shipped-weeks.ts';
import { createEngine } from '../engine/index.ts';
import { summarize, type Summary } from './ceilingrates/latency.ts';
import { addFilterIndexes, baselineAnswer } from './websites-baseline.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '300' }, data: { type: 'string', default: 'real' } } });
if (values.data !== 'real' && values.data !== 'synthetic') throw new Error('--data is real or synthetic');
const RUNS = Number(values.runs);
const WARMUP = 20;

function time(urls: string[], answer: (url: string) => string): Summary {
  for (let i = 0; i < WARMUP; i++) answer(urls[i % urls.length]);
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    answer(urls[i % urls.length]);
    ms.push(performance.now() - started);
  }
  return summarize(ms);
}

const SQL = await loadSqlJs();
let started = performance.now();
const db = values.data === 'real' ? (await weekDatabase(SQL, NEWEST_WEEK)).db : buildDatabase(SQL, websitesDataset, 'default');
// Timed as the app reads it: the shipped file's row order and page size.
toShippedForm(db, 'websites');
const built = performance.now() - started;
const raw = db.export();
const count = Number(db.exec('SELECT COUNT(*) FROM websites')[0].values[0][0]);
console.log(
  `websites (${values.data}): ${count} records, built in ${(built / 1000).toFixed(1)} s; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`size: ${raw.length} bytes raw, ${gzipDatabase(raw).length} bytes gzip'd`);

// The engine reads the file as the app opens it: the shipped bytes, opened afresh (not the database built here).
const engine = createEngine();
engine.use('websites', new SQL.Database(raw));
const handle = (url: string): string => {
  const response = engine.handle({ method: 'GET', url });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return response.body;
};
started = performance.now();
handle('/analysis');
console.log(`first request (reads the filter index): ${(performance.now() - started).toFixed(1)} ms`);

const baselineDb = new SQL.Database(raw);
addFilterIndexes(baselineDb);
const baseline = (url: string): string => baselineAnswer(baselineDb, url);

const agencies = db.exec('SELECT target_url_agency_owner FROM websites GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 10')[0].values.map((r) => String(r[0]));
const REQUESTS: [string, string[]][] = [
  [
    '/websites?target_url_agency_owner=…&final_url_live=true (limit 10)',
    agencies.map((a) => `/websites?target_url_agency_owner=${encodeURIComponent(a)}&final_url_live=true`),
  ],
  [
    '/websites?final_url_live=true&dap_detected_final_url=true&limit=100&page=1|5|20|40',
    [1, 5, 20, 40].map((p) => `/websites?final_url_live=true&dap_detected_final_url=true&limit=100&page=${p}`),
  ],
  ['/websites?limit=100&page=1|100|299 (unfiltered)', [1, 100, 299].map((p) => `/websites?limit=100&page=${p}`)],
  ['/analysis (all records)', ['/analysis']],
  ['/analysis?final_url_live=true', ['/analysis?final_url_live=true']],
  [
    '/analysis?target_url_agency_owner=…&scan_status=completed',
    agencies.map((a) => `/analysis?target_url_agency_owner=${encodeURIComponent(a)}&scan_status=completed`),
  ],
];

for (const [, urls] of REQUESTS) {
  for (const url of urls) if (handle(url) !== baseline(url)) throw new Error(`engine and baseline answer ${url} differently`);
}
console.log('engine and baseline answer every request identically');

const fmt = (v: number): string => v.toFixed(2).padStart(8);
const head = `${'request'.padEnd(84)} | ${'engine p50'.padStart(10)} ${'p95'.padStart(8)} | ${'baseline p50'.padStart(12)} ${'p95'.padStart(8)} | ${'base/eng'.padStart(8)}`;
console.log(`${RUNS} runs each after ${WARMUP} warm-up, times in ms`);
console.log(head);
console.log('-'.repeat(head.length));
for (const [label, urls] of REQUESTS) {
  const e = time(urls, handle);
  const b = time(urls, baseline);
  console.log(
    `${label.padEnd(84)} | ${fmt(e.p50_ms).padStart(10)} ${fmt(e.p95_ms)} | ${fmt(b.p50_ms).padStart(12)} ${fmt(b.p95_ms)} | ${(b.p50_ms / e.p50_ms).toFixed(1).padStart(7)}x`,
  );
}
console.log(
  `load average after: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (2 cores, shared)`,
);
