/**
 * Timing of the Site Scanning engine over the default 30,000-record dataset, in Node:
 *   npx tsx bench/websites.ts
 * Prints the dataset's size (raw and gzip'd) and p50/p95 of GET /websites with two filters and of
 * GET /analysis. A measurement, not a test: nothing here asserts a time.
 */
import { loadSqlJs } from '../adapters/node/sqljs-node.ts';
import { buildDatabase } from '../tools/datasets.ts';
import { gzipDatabase } from '../tools/gzip-database.ts';
import { websitesDataset } from '../tools/generate/websites.ts';
import { createEngine } from '../engine/index.ts';

const WARMUP = 20;
const RUNS = 300;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function time(label: string, urls: string[], handle: (url: string) => number): void {
  for (let i = 0; i < WARMUP; i++) handle(urls[i % urls.length]);
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const status = handle(urls[i % urls.length]);
    ms.push(performance.now() - started);
    if (status !== 200) throw new Error(`${urls[i % urls.length]} answered ${status}`);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label}: p50 ${percentile(ms, 50).toFixed(2)} ms, p95 ${percentile(ms, 95).toFixed(2)} ms (${RUNS} runs, ${urls.length} distinct URLs)`);
}

const SQL = await loadSqlJs();
let started = performance.now();
const db = buildDatabase(SQL, websitesDataset, 'default');
const built = performance.now() - started;
const raw = db.export();
const gz = gzipDatabase(raw);
console.log(`websites: ${websitesDataset.profiles.default} records, built in ${(built / 1000).toFixed(1)} s`);
console.log(`size: ${raw.length} bytes raw, ${gz.length} bytes gzip'd`);

const engine = createEngine();
engine.use('websites', db);
const handle = (url: string): number => engine.handle({ method: 'GET', url }).status;

const agencies = db.exec('SELECT target_url_agency_owner FROM websites GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 10')[0].values.map((r) => String(r[0]));
started = performance.now();
time(
  'GET /websites?target_url_agency_owner=…&final_url_live=true (page 1, limit 10)',
  agencies.map((a) => `/websites?target_url_agency_owner=${encodeURIComponent(a)}&final_url_live=true`),
  handle,
);
time(
  'GET /websites?final_url_live=true&dap_detected_final_url=true&limit=100&page=…',
  [1, 5, 20, 40].map((p) => `/websites?final_url_live=true&dap_detected_final_url=true&limit=100&page=${p}`),
  handle,
);
time('GET /analysis (all 30,000 records)', ['/analysis'], handle);
time('GET /analysis?final_url_live=true', ['/analysis?final_url_live=true'], handle);
