/**
 * The fuzz benchmark: many seeded random and hostile requests through the engine over generated data of a
 * chosen size, then over a ceiling-rates file of hostile rows read by the import core, each checked like the
 * unit fuzz (well-formed in its API's shape, HEAD = GET headers, the same answer twice), and timed. Prints the
 * reproducers' times and the ten slowest requests; a failure prints its seed and request.
 *
 *   npm run fuzz -- --records 250000 --requests 100000 [--seed S] [--websites 30000]
 *
 * A benchmark, not a test: times are reported, never asserted.
 */
import os from 'node:os';
import fc from 'fast-check';
import { createEngine, type Engine } from '../engine/index.ts';
import { engineOver } from '../harness/engine.ts';
import { importedHostileRates } from '../harness/fuzz/imported.ts';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { buildDatabase, datasetGenerator } from '../tools/generated-datasets.ts';
import { ceilingPathArb, queryArb, siteListPathArb, websiteByUrlPathArb } from '../harness/fuzz/requests.ts';
import { oversizedRequestArb, REPRODUCERS } from '../harness/fuzz/oversized.ts';
import { expectWellFormed, withoutTook } from '../harness/fuzz/well-formed.ts';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} wants a whole number, not ${process.argv[at + 1]}`);
  return value;
}

const records = option('records', 250_000);
const websites = option('websites', 30_000);
const requests = option('requests', 100_000);
const seed = option('seed', Math.floor(Math.random() * 2 ** 31));

const requestArb = fc.oneof(
  { arbitrary: fc.tuple(ceilingPathArb(), queryArb('ceiling')).map(([p, q]) => ['GET', `${p}?${q}`] as const), weight: 6 },
  { arbitrary: fc.tuple(siteListPathArb(), queryArb('site')).map(([p, q]) => ['GET', `${p}?${q}`] as const), weight: 2 },
  { arbitrary: websiteByUrlPathArb().map((p) => ['GET', p] as const), weight: 1 },
  { arbitrary: oversizedRequestArb().map((url) => ['GET', url] as const), weight: 1 },
  { arbitrary: fc.tuple(ceilingPathArb(), queryArb('ceiling')).map(([p, q]) => ['HEAD', `${p}?${q}`] as const), weight: 1 },
);

console.log(
  `fuzz: ${records} rates, ${websites} websites, ${requests} requests, seed ${seed} (replay with --seed ${seed}); load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const SQL = await loadSqlJs();
const built = performance.now();
const engine = createEngine();
engine.use('websites', buildDatabase(SQL, datasetGenerator('websites'), websites));
engine.use('ceilingrates', buildDatabase(SQL, datasetGenerator('ceilingrates'), records));
engine.handle({ method: 'GET', url: '/api/v3/search/ceilingrates/' });
engine.handle({ method: 'GET', url: '/websites' });
console.log(`data built and bound in ${((performance.now() - built) / 1000).toFixed(1)} s`);

interface Timed {
  ms: number;
  method: string;
  url: string;
  status: number;
}

function timed(over: Engine, method: string, url: string): Timed & { body: string; headers: string } {
  const start = performance.now();
  const response = over.handle({ method, url });
  const ms = performance.now() - start;
  return { ms, method, url, status: response.status, body: response.body, headers: JSON.stringify(response.headers) };
}

const shown = (url: string): string => (url.length > 160 ? `${url.slice(0, 160)}… (${url.length} chars)` : url);

/** Send, check and time each request; exit with the seed and the request at the first failure. */
function fuzz(over: Engine, label: string, requestsToSend: readonly (readonly [string, string])[]): void {
  const all: Timed[] = [];
  const started = performance.now();
  for (const [i, [method, url]] of requestsToSend.entries()) {
    const first = timed(over, method, url);
    try {
      expectWellFormed(method, url, { status: first.status, headers: JSON.parse(first.headers), body: first.body });
      const again = over.handle({ method, url });
      if (again.status !== first.status || withoutTook(again.body) !== withoutTook(first.body)) throw new Error('the same request answered differently twice');
      if (method === 'HEAD') {
        const get = over.handle({ method: 'GET', url });
        if (get.status !== first.status || JSON.stringify(get.headers) !== first.headers) throw new Error('HEAD and GET differ in status or headers');
      }
    } catch (error) {
      console.error(
        `\nFAILED (${label}) at request ${i} of seed ${seed}: replay with npm run fuzz -- --records ${records} --websites ${websites} --requests ${requests} --seed ${seed}`,
      );
      console.error(`${method} ${shown(url)}`);
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    }
    all.push({ ms: first.ms, method, url, status: first.status });
    if ((i + 1) % 10_000 === 0) {
      const worst = all.reduce((a, b) => (b.ms > a.ms ? b : a));
      console.log(
        `  ${i + 1} checked in ${((performance.now() - started) / 1000).toFixed(0)} s; slowest so far ${worst.ms.toFixed(1)} ms: ${worst.method} ${shown(worst.url)}`,
      );
    }
  }
  if (all.length === 0) return;
  const seconds = (performance.now() - started) / 1000;
  const times = all.map((t) => t.ms).sort((a, b) => a - b);
  const at = (q: number): string => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  const statuses = new Map<number, number>();
  for (const t of all) statuses.set(t.status, (statuses.get(t.status) ?? 0) + 1);
  console.log(`\n${label}: ${all.length} requests checked in ${seconds.toFixed(1)} s; p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`);
  console.log(
    `statuses: ${[...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(', ')}`,
  );
  console.log('ten slowest:');
  for (const t of all.sort((a, b) => b.ms - a.ms).slice(0, 10)) {
    console.log(`  ${t.ms.toFixed(1).padStart(8)} ms  ${t.status}  ${t.method} ${shown(t.url)}`);
  }
}

console.log('\nreproducers:');
for (const { name, url } of REPRODUCERS) {
  const t = timed(engine, 'GET', url);
  console.log(`  ${t.ms.toFixed(1).padStart(8)} ms  ${t.status}  ${name}  ${t.status >= 400 ? t.body.slice(0, 140) : ''}`);
}

fuzz(engine, `generated data, ${records} rates`, fc.sample(requestArb, { seed, numRuns: requests }));

const imported = engineOver('ceilingrates', await importedHostileRates(2_000));
imported.handle({ method: 'GET', url: '/api/v3/search/ceilingrates/' });
const ceilingOnly = requestArb.filter(([, url]) => url.startsWith('/api/') || url.startsWith('/acquisition/'));
fuzz(imported, 'a ceiling-rates file of hostile rows, imported', fc.sample(ceilingOnly, { seed, numRuns: Math.ceil(requests / 10) }));
console.log(
  `\nload ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
