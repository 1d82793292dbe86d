/**
 * The HTTP server on one thread and on every core: `npm run bench:server` (after `npm run build`, or with
 * `--data DIR` of built datasets). For `--workers 1` and `--workers auto` in turn, starts
 * `offline-gov-api serve --no-app` in its own process and drives it with autocannon, in this process on the
 * same machine (so the load generator takes its share of the cores), at 10, 100 and 500 connections for
 * three requests: the heavy ceiling-rates search (250,000 records, every aggregation), a /websites page
 * and /analysis. Prints requests/s, p50/p99, errors and non-2xx per run, the server's resident memory
 * (the highest seen after each run) and the machine's load average. Between runs it waits for the server to
 * answer what the last run left queued. A measurement, not a test.
 *
 *   npm run bench:server -- --duration 10 --connections 10,100,500 --data public/data
 */
import type { ChildProcess } from 'node:child_process';
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
  },
});
const duration = Number(values.duration);
const levels = values.connections.split(',').map(Number);

const REQUESTS = [
  { name: 'rates ?keyword=engineer&page=1', path: '/api/v3/search/ceilingrates/?keyword=engineer&page=1' },
  { name: '/websites page', path: '/websites?page=3&limit=10' },
  { name: '/analysis', path: '/analysis' },
];

/** Resident memory of a process in MiB, from /proc (Linux). */
function startServer(workers: string): Promise<{ child: ChildProcess; url: string }> {
  return startServeProcess(['--data', values.data, '--workers', workers]);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

interface Result {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}

function run(url: string, path: string, connections: number): Promise<Result> {
  return new Promise((done, fail) => {
    autocannon({ url: url + path, connections, duration }, (error: Error | null, result: Result) => (error ? fail(error) : done(result)));
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

const load = (): string => loadavg()[0].toFixed(1);
console.log(`${availableParallelism()} cores; autocannon runs in this process on the same machine; ${duration} s per run`);
console.log('| workers | request | connections | requests/s | p50 ms | p99 ms | requests | errors | non-2xx | server RSS MiB | load avg |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const workers of values.workers.split(',')) {
  const { child, url } = await startServer(workers);
  try {
    console.log(`| ${workers} | (after start) | | | | | | | | ${rssMiB(child.pid!)} | ${load()} |`);
    let highest = 0;
    for (const { name, path } of REQUESTS) {
      for (const connections of levels) {
        const r = await run(url, path, connections);
        highest = Math.max(highest, rssMiB(child.pid!));
        await drained(url);
        console.log(
          `| ${workers} | ${name} | ${connections} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.requests.total} | ${r.errors} | ${r.non2xx} | ${rssMiB(child.pid!)} | ${load()} |`,
        );
      }
    }
    console.log(`| ${workers} | (highest RSS seen) | | | | | | | | ${highest} | |`);
  } finally {
    await stop(child);
  }
}
