/**
 * The HTTP server on one thread and on every core: `npm run bench:server` (after `npm run build`, or with
 * `--data DIR` of built datasets). For `--workers 1` and `--workers auto` in turn, starts
 * `offline-gov-api serve --no-app` in its own process and drives it with autocannon, in this process on the
 * same machine (so the load generator takes its share of the cores), at 10, 100 and 500 connections for
 * four requests: the heavy ceiling-rates search (250,000 records, every aggregation) made new each time, the
 * same search repeated (answered from the searches the server keeps), a /websites page and /analysis. Prints requests/s, p50/p99, errors and non-2xx per run, the server's CPU time in the run,
 * its resident memory (the highest seen after each run) and the machine's load average. Between runs it
 * waits for the server to answer what the last run left queued. With `--repeat n` every run is made n times
 * and a last table gives the medians. A measurement, not a test.
 *
 *   npm run bench:server -- --duration 10 --connections 10,100,500 --data public/data
 *   npm run bench:server -- --requests rates,rates-repeated --connections 100 --repeat 3
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { ROOT, rssMiB, startServeProcess } from './serve-process.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10,100,500' },
    workers: { type: 'string', default: '1,auto' },
    data: { type: 'string', default: resolve(ROOT, 'dist/data') },
    /** Which of REQUESTS to run, by key: rates, rates-repeated, websites, analysis. */
    requests: { type: 'string', default: 'rates,rates-repeated,websites,analysis' },
    repeat: { type: 'string', default: '1' },
  },
});
const duration = Number(values.duration);
const levels = values.connections.split(',').map(Number);
const repeat = Number(values.repeat);

const HEAVY = '/api/v3/search/ceilingrates/?keyword=engineer&page=1';
/**
 * `fresh`: each request excludes another id that no record has, so it is a new search to the server's cached
 * searches (engine/ceilingrates/query/search-cache.ts) and is computed whole, with the same matches and answer.
 */
const REQUESTS: { key: string; name: string; path: string; fresh?: boolean }[] = [
  { key: 'rates', name: 'rates ?keyword=engineer&page=1, a new search each time', path: HEAVY, fresh: true },
  { key: 'rates-repeated', name: 'rates ?keyword=engineer&page=1, repeated (cached)', path: HEAVY },
  { key: 'websites', name: '/websites page', path: '/websites?page=3&limit=10' },
  { key: 'analysis', name: '/analysis', path: '/analysis' },
].filter(({ key }) => values.requests.split(',').includes(key));
let freshId = 900_000_000;

function startServer(workers: string): Promise<{ child: ChildProcess; url: string }> {
  return startServeProcess(['--data', values.data, '--workers', workers]);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** A process's CPU time so far (user + system, every thread), in seconds, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Result {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}

function run(url: string, path: string, connections: number, fresh = false): Promise<Result> {
  const requests: autocannon.Request[] | undefined = fresh
    ? [{ setupRequest: (request) => ({ ...request, path: `${path}&exclude=${freshId++}` }) }]
    : undefined;
  return new Promise((done, fail) => {
    autocannon({ url: url + path, connections, duration, requests }, (error: Error | null, result: Result) => (error ? fail(error) : done(result)));
  });
}

/**
 * Waits until the server has answered what the last run left queued: autocannon stops at the deadline, but
 * requests already sent are still answered (each thread in turn), and the next run must not wait behind them.
 * A cheap request per core, sent together, comes back once every thread has reached it.
 */
async function drained(url: string): Promise<void> {
  await Promise.all(
    Array.from({ length: availableParallelism() }, () =>
      fetch(`${url}/analysis?limit=1`, { signal: AbortSignal.timeout(300_000) }).then((r) => r.arrayBuffer()),
    ),
  );
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = (): string => loadavg()[0].toFixed(1);

interface Row {
  workers: string;
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  rss: number;
}
const rows: Row[] = [];
const highest = new Map<string, number[]>();
const afterStart = new Map<string, number[]>();

console.log(`${availableParallelism()} cores; autocannon runs in this process on the same machine; ${duration} s per run`);
console.log('| workers | request | connections | requests/s | p50 ms | p99 ms | requests | errors | non-2xx | server CPU s | server RSS MiB | load avg |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (let round = 0; round < repeat; round++) {
  for (const workers of values.workers.split(',')) {
    const { child, url } = await startServer(workers);
    try {
      const started = rssMiB(child.pid!);
      afterStart.set(workers, [...(afterStart.get(workers) ?? []), started]);
      console.log(`| ${workers} | (after start) | | | | | | | | | ${started} | ${load()} |`);
      let top = started;
      for (const { name, path, fresh } of REQUESTS) {
        for (const connections of levels) {
          const cpu = cpuSeconds(child.pid!);
          const r = await run(url, path, connections, fresh);
          const used = cpuSeconds(child.pid!) - cpu;
          top = Math.max(top, rssMiB(child.pid!));
          await drained(url);
          const rss = rssMiB(child.pid!);
          rows.push({ workers, name, connections, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, rss });
          console.log(
            `| ${workers} | ${name} | ${connections} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.requests.total} | ${r.errors} | ${r.non2xx} | ${used.toFixed(1)} | ${rss} | ${load()} |`,
          );
        }
      }
      highest.set(workers, [...(highest.get(workers) ?? []), top]);
      console.log(`| ${workers} | (highest RSS seen) | | | | | | | | | ${top} | |`);
    } finally {
      await stop(child);
    }
  }
}

if (repeat > 1) {
  console.log(`\nMedians of ${repeat} runs`);
  console.log('| workers | request | connections | requests/s | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|---|');
  for (const workers of values.workers.split(',')) {
    for (const { name } of REQUESTS) {
      for (const connections of levels) {
        const same = rows.filter((r) => r.workers === workers && r.name === name && r.connections === connections);
        console.log(
          `| ${workers} | ${name} | ${connections} | ${median(same.map((r) => r.rps)).toFixed(0)} | ${median(same.map((r) => r.p50))} | ${median(same.map((r) => r.p99))} |`,
        );
      }
    }
    console.log(`| ${workers} | RSS after start / highest, MiB | | ${median(afterStart.get(workers)!)} / ${median(highest.get(workers)!)} | | |`);
  }
}
