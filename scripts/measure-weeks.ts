/**
 * Figures of the weeks dataset for docs/decisions/1100 (run under the bench lock; a measurement, never a test):
 *   npx tsx scripts/measure-weeks.ts [--data public/data] [--repeat 15]
 * Over the default build (npm run data): the bytes of the weeks extra and of data/site-scanning-weeks/; the time
 * to open it (gunzip, open) and the process's memory then; each dated request's time for the oldest, a middle and
 * the newest week, first (the week rebuilt and bound) and warm (median of --repeat); memory with weeks bound; the
 * comparison of two older weeks (the app's "Changes between two weeks": both rebuilt, then compared).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { loadSqlJs } from '../adapters/node/sqljs-node.ts';
import { createEngine } from '../engine/index.ts';
import { weekSource } from '../dataset/websites/week-source.ts';
import { nodeBrotli } from '../adapters/node/brotli-sync.ts';
import type { Manifest } from '../dataset/artifact/format.ts';
import { WEEKS_EXTRA_ID } from '../dataset/websites/weeks-contract.ts';
import { weeksFeatures } from '../dataset/websites/weeks.ts';
import type { FeatureHost } from '../dataset/feature-host.ts';

const { values } = parseArgs({ options: { data: { type: 'string', default: 'public/data' }, repeat: { type: 'string', default: '15' } } });
const dir = values.data!;
const repeat = Number(values.repeat);
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const rss = (): number => process.memoryUsage().rss;
const ms = (from: number): number => Math.round((performance.now() - from) * 10) / 10;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
const weeks = manifest.extras?.find((e) => e.id === WEEKS_EXTRA_ID);
if (!weeks) throw new Error(`${dir} holds no ${WEEKS_EXTRA_ID} extra: npm run data`);
const shipped = resolve('data/site-scanning-weeks');
const shippedBytes = readdirSync(shipped).reduce((n, f) => n + statSync(join(shipped, f)).size, 0);
console.log(`weeks extra ${weeks.file}: ${weeks.bytes} B gzip'd (${mb(weeks.bytes)}), ${weeks.rawBytes} B raw (${mb(weeks.rawBytes)})`);
console.log(`first visit (datasets): ${Object.values(manifest.datasets).reduce((n, a) => n + (a!.transfer ?? a!).bytes, 0)} B; the extra is not among them`);
console.log(
  `data/site-scanning-weeks/: ${shippedBytes} B (${mb(shippedBytes)}), largest file ${Math.max(...readdirSync(shipped).map((f) => statSync(join(shipped, f)).size))} B`,
);

const SQL = await loadSqlJs();
const base = rss();
const active = manifest.datasets.websites!;
const newestDb = new SQL.Database(gunzipSync(readFileSync(join(dir, active.file))));
const engine = createEngine();
engine.use('websites', newestDb, null, active.source.kind === 'real' ? active.source.date : null);
engine.handle({ method: 'GET', url: '/analysis' });
const withNewest = rss();
let started = performance.now();
const raw = gunzipSync(readFileSync(join(dir, weeks.file)));
const gunzipMs = ms(started);
started = performance.now();
const db = new SQL.Database(raw);
const source = weekSource(SQL, db, nodeBrotli);
engine.useWeeks('websites', source);
const openMs = ms(started);
const list = source.weeks();
console.log(`open: gunzip ${gunzipMs} ms, open + week list ${openMs} ms; ${list.length} weeks ${list[0].date} … ${list.at(-1)!.date}`);
console.log(`memory: ${mb(withNewest - base)} for the newest week bound, +${mb(rss() - withNewest)} with the weeks dataset open`);

const oldest = list[0].date;
const middle = '2025-03-17';
const newest = list.at(-1)!.date;
const PATHS = ['/analysis', '/websites?limit=100&page=5', '/websites?target_url_agency_owner=Department%20of%20Energy&final_url_live=true'];
const rows: string[] = [];
// First requests of the three weeks, then their warm requests: a rebuild's garbage (its source records, 500 MB for
// the oldest) is collected before any warm timing, not during the one right after it.
const firsts = [oldest, middle, newest].map((date) => {
  // The newest is the active dataset's own date: its dated paths are the active database's answers.
  const before = rss();
  const first = performance.now();
  engine.handle({ method: 'GET', url: `/snapshots/${date}/analysis` });
  return { date, firstMs: ms(first), memory: rss() - before };
});
for (const { date, firstMs, memory } of firsts) {
  // A first pass of each path, untimed: the JIT has then seen every path for this week too.
  for (const path of PATHS) for (let i = 0; i < 3; i++) engine.handle({ method: 'GET', url: `/snapshots/${date}${path}` });
  const warm = PATHS.map((path) => {
    const times: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const t = performance.now();
      const answer = engine.handle({ method: 'GET', url: `/snapshots/${date}${path}` });
      times.push(performance.now() - t);
      if (answer.status !== 200) throw new Error(`${date}${path}: ${answer.status}`);
    }
    return Math.round(median(times) * 100) / 100;
  });
  rows.push(`| ${date} | ${firstMs} | ${warm.join(' | ')} | +${mb(memory)} |`);
}
console.log(`| week | first request (rebuild + bind + answer), ms | ${PATHS.map((p) => `warm ${p}, ms`).join(' | ')} | memory |`);
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
// A week not bound lately, asked again: rebuilt (two weeks stay bound).
let t = performance.now();
engine.handle({ method: 'GET', url: `/snapshots/${list[1].date}/analysis` });
console.log(`a fourth week first asked: ${ms(t)} ms; memory now ${mb(rss() - base)} over the start (two older weeks bound)`);
t = performance.now();
engine.handle({ method: 'GET', url: `/snapshots/${oldest}/analysis` });
console.log(`the oldest asked again after being let go: ${ms(t)} ms`);

// Without a dated active dataset (an import active, or the service worker before it opened one): every week, the
// newest included, is rebuilt from the weeks dataset on its first request.
const only = createEngine();
only.useWeeks('websites', source);
for (const date of [newest, oldest]) {
  t = performance.now();
  only.handle({ method: 'GET', url: `/snapshots/${date}/analysis` });
  const firstMs = ms(t);
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const w = performance.now();
    only.handle({ method: 'GET', url: `/snapshots/${date}/analysis` });
    times.push(performance.now() - w);
  }
  console.log(`weeks alone, ${date}: first ${firstMs} ms, warm /analysis ${Math.round(median(times) * 100) / 100} ms`);
}

// Two older weeks compared, as the app's weeks view asks, by an engine that holds neither yet (both rebuilt).
const comparing = createEngine();
comparing.useWeeks('websites', source);
const features = weeksFeatures({ weeks: async () => ({ db, week: (date: string) => comparing.heldWeek('websites', date) }) } as unknown as FeatureHost);
t = performance.now();
const compared = await features.compareWeeks(oldest, middle);
if (!compared.ok) throw new Error(compared.message);
console.log(`two weeks compared (${oldest} with ${middle}): ${ms(t)} ms; ${compared.diff.totals.lost} live sites lost`);
