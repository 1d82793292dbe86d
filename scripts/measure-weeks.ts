/**
 * Figures of the weeks attachment for docs/decisions/1100 (a measurement, never a test; run it alone):
 *   npx tsx --expose-gc scripts/measure-weeks.ts [--data public/data] [--repeat 15] [--before DIR --before-data DIR]
 * Over a default build (npm run data): the bytes of the weeks extra; the time to open it and the process's
 * memory then; every week's first dated request (`/analysis`, then a page of 100 records), the first of all
 * paying for the index of every week's rows; warm requests (median of --repeat) of the oldest, a middle and
 * the newest week against the newest week answered by its own dataset; two weeks compared by a store that has
 * read nothing yet. With --before (an older checkout of this repository, its packages installed) and
 * --before-data (a build it made), that checkout's own scripts/measure-weeks.ts runs first over its build, and
 * the two are printed side by side with the targets (issue 52).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { createEngine } from '../engine/index.ts';
import { datasetDefinition } from '../engine/dataset-registry.ts';
import type { WeeksStore } from '../engine/site-scanning/weeks.ts';
import { nodeBrotli } from '../adapters/node/datasets/brotli-sync.ts';
import type { Manifest } from '../dataset/artifact/format.ts';
import { weeksFeatures } from '../dataset/websites/weeks.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: 'public/data' },
    repeat: { type: 'string', default: '15' },
    before: { type: 'string' },
    'before-data': { type: 'string' },
  },
});
const dir = values.data!;
const repeat = Number(values.repeat);
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const ms = (from: number): number => Math.round((performance.now() - from) * 10) / 10;
const median = (xs: number[]): number => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] * 100) / 100;
/** RSS once the garbage is collected (run with --expose-gc; otherwise as it is). */
const settledRss = (): number => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
};

/** The older checkout's own figures, from its own script over its own build (printed as they come). */
function before(): string | null {
  if (!values.before) return null;
  if (!values['before-data']) throw new Error('--before wants --before-data, the build that checkout made');
  console.log(`== before: ${values.before} over ${values['before-data']}`);
  const run = spawnSync('npx', ['tsx', 'scripts/measure-weeks.ts', '--data', resolve(values['before-data']), '--repeat', String(repeat)], {
    cwd: values.before,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (run.status !== 0) throw new Error(`the older checkout's measure failed (${run.status}): ${run.stderr}`);
  console.log(run.stdout.trimEnd());
  return run.stdout;
}

const older = before();
console.log(`== after: this checkout over ${dir}`);

const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
const attachment = datasetDefinition('websites').attachment!;
const extra = manifest.extras?.find((e) => e.id === attachment.id);
if (!extra) throw new Error(`${dir} holds no ${attachment.id} extra: npm run data`);
console.log(`weeks extra ${extra.file}: ${extra.bytes} B gzip'd (${mb(extra.bytes)}), ${extra.rawBytes} B raw (${mb(extra.rawBytes)})`);

const SQL = await loadSqlJs();
const base = settledRss();
const active = manifest.datasets.websites!;
const newestDb = new SQL.Database(gunzipSync(readFileSync(join(dir, active.file))));
const engine = createEngine();
engine.use('websites', newestDb, null, active.source.kind === 'real' ? active.source.date : null);
engine.handle({ method: 'GET', url: '/analysis' });
const withNewest = settledRss();

let started = performance.now();
let raw: Uint8Array | null = gunzipSync(readFileSync(join(dir, extra.file)));
const gunzipMs = ms(started);
started = performance.now();
const weeksDb = new SQL.Database(raw);
const store = attachment.open(weeksDb, nodeBrotli);
engine.attach('websites', store);
const openMs = ms(started);
const heldRaw = settledRss() - withNewest;
raw = null;
const opened = settledRss() - withNewest;
const list = store.weeks();
console.log(`open: gunzip ${gunzipMs} ms, open + week list ${openMs} ms; ${list.length} weeks ${list[0].date} … ${list.at(-1)!.date}`);
console.log(
  `memory: ${mb(withNewest - base)} for the newest week bound, +${mb(opened)} with the weeks open (+${mb(heldRaw)} while the gunzipped bytes are still held)`,
);

const get = (url: string): void => {
  const answer = engine.handle({ method: 'GET', url });
  if (answer.status !== 200) throw new Error(`${url}: ${answer.status}`);
};
const newest = list.at(-1)!.date;
const older17 = list.filter((w) => w.date !== newest);
// Every week's first request, oldest first: the first of all reads every week's rows' index.
const firsts = older17.map(({ date }) => {
  let t = performance.now();
  get(`/snapshots/${date}/analysis`);
  const analysis = ms(t);
  t = performance.now();
  get(`/snapshots/${date}/websites?limit=100&page=5`);
  return { date, analysis, page: ms(t) };
});
console.log('| week | first dated request (/analysis), ms | then its first /websites?limit=100&page=5, ms |');
console.log('|---|---|---|');
for (const f of firsts) console.log(`| ${f.date} | ${f.analysis} | ${f.page} |`);
const worstFirst = Math.max(...firsts.map((f) => Math.max(f.analysis, f.page)));
console.log(`first dated requests: the slowest ${worstFirst} ms (the first of all: ${firsts[0].analysis} ms)`);

const PATHS = ['/analysis', '/websites?limit=100&page=5', '/websites?target_url_agency_owner=Department%20of%20Energy&final_url_live=true'];
const warm = (prefix: string): number[] =>
  PATHS.map((path) => {
    // A first pass of each path, untimed: the JIT has then seen every path for this week too.
    for (let i = 0; i < 3; i++) get(`${prefix}${path}`);
    const times: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const t = performance.now();
      get(`${prefix}${path}`);
      times.push(performance.now() - t);
    }
    return median(times);
  });
const reference = warm(`/snapshots/${newest}`);
console.log(`| week | ${PATHS.map((p) => `warm ${p}, ms`).join(' | ')} | × the newest's own dataset |`);
console.log('|---|---|---|---|---|');
console.log(`| ${newest} (its own dataset) | ${reference.join(' | ')} | 1 |`);
let worstRatio = 0;
for (const date of [list[0].date, '2025-03-17', list.at(-2)!.date]) {
  const times = warm(`/snapshots/${date}`);
  const ratio = Math.max(...times.map((t, i) => t / reference[i]));
  worstRatio = Math.max(worstRatio, ratio);
  console.log(`| ${date} | ${times.join(' | ')} | ${ratio.toFixed(2)} |`);
}
console.log(`memory now ${mb(settledRss() - base)} over the start (every week asked)`);

// Two weeks compared, as the app's weeks view asks, by a store that has read nothing yet.
const fresh: WeeksStore = attachment.open(weeksDb, nodeBrotli);
const features = weeksFeatures({ attached: async () => fresh } as never);
started = performance.now();
const compared = await features.compareWeeks(list[0].date, '2025-03-17');
const compareMs = ms(started);
if (!compared.ok) throw new Error(compared.message);
console.log(
  `two weeks compared (${list[0].date} with 2025-03-17): ${compareMs} ms; ${compared.diff.totals.lost} live sites lost, ${compared.diff.totals.came_up} came up`,
);
started = performance.now();
const energy = await features.compareWeeks(list[0].date, newest, { agency: 'Department of Energy' });
if (!energy.ok) throw new Error(energy.message);
console.log(
  `Energy's sites compared (${list[0].date} with ${newest}): ${ms(started)} ms; ${energy.diff.totals.lost} lost, ${energy.diff.totals.came_up} came up`,
);

if (older) {
  const pick = (pattern: RegExp): string => pattern.exec(older)?.[1] ?? '—';
  const oldRows = [...older.matchAll(/^\| (\d{4}-\d{2}-\d{2}) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|/gm)].map(([, date, time, ...warm]) => ({
    date,
    time,
    warm: warm.map(Number),
  }));
  const oldFirsts = oldRows.filter((r) => r.date !== newest);
  const oldNewest = oldRows.find((r) => r.date === newest);
  const oldRatio = oldNewest ? Math.max(...oldFirsts.flatMap((r) => r.warm.map((t, i) => t / oldNewest.warm[i]))) : NaN;
  const oldFourth = pick(/a fourth week first asked: ([\d.]+) ms/);
  const oldWorst = Math.max(...oldFirsts.map((f) => Number(f.time)), Number(oldFourth) || 0);
  console.log('\n== side by side');
  console.log('| Figure | Before | After | Target |');
  console.log('|---|---|---|---|');
  console.log(`| weeks extra to download | ${pick(/B gzip'd \(([\d.]+ MB)\)/)} | ${mb(extra.bytes)} | ≤ 40 MB |`);
  console.log(
    `| memory, the weeks open | +${pick(/\+([\d.]+ MB) with the weeks dataset open/)} (its bytes held) | +${mb(opened)} (+${mb(heldRaw)} with its bytes held) | ≤ +150 MB |`,
  );
  for (const { date, time } of oldFirsts) {
    const now = firsts.find((f) => f.date === date);
    console.log(`| first dated request, ${date} | ${time} ms | ${now ? `${now.analysis} ms` : '(its own dataset)'} | ≤ 1 s |`);
  }
  console.log(`| first dated request, the slowest | ${oldWorst} ms | ${worstFirst} ms | ≤ 1 s |`);
  console.log(`| warm, an older week against the newest's own dataset | ≤ ${oldRatio.toFixed(2)}× | ≤ ${worstRatio.toFixed(2)}× | ≤ 2× |`);
  console.log(`| two weeks compared | ${pick(/two weeks compared \([^)]*\): ([\d.]+ ms)/)} | ${compareMs} ms | ≤ 2 s |`);
}
