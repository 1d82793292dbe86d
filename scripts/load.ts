/**
 * Load on the HTTP server: `npm run load` (after `npm run build`). Starts `offline-gov-api serve` over the
 * built datasets in its own process, drives it with autocannon at 10 and then 50 connections (30 s each)
 * with the benchmark's ceiling-rates request mix plus Site Scanning requests, and prints requests/s,
 * p50/p99 latency, errors, timeouts and non-2xx answers, the server's resident memory before and after, and
 * the machine's load average (other work on the same cores lowers every figure).
 * A measurement, not a test: nothing here asserts a figure.
 *
 *   npm run load -- --duration 10 --connections 10,50
 */
import type { ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { rssMiB, startServeProcess } from './serve-process.ts';
import { workload } from '../bench/ceilingrates/workload.ts';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '30' }, connections: { type: 'string', default: '10,50' } } });
const duration = Number(values.duration);
const levels = values.connections.split(',').map(Number);

/** Resident memory of a process in MiB, from /proc (Linux). */
const startServer = (): Promise<{ child: ChildProcess; url: string }> => startServeProcess();

async function json<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** The bench's ceiling-rates mix, with a vendor and contract taken from the data, and Site Scanning requests. */
async function requestMix(url: string): Promise<string[]> {
  const first = await json<{ hits: { hits: { _source: { vendor_name: string; idv_piid: string } }[] } }>(
    `${url}/api/v3/search/ceilingrates/?page_size=1&page=5`,
  );
  const { vendor_name: vendor, idv_piid: piid } = first.hits.hits[0]._source;
  const sites = await json<{ items: { target_url: string; target_url_agency_owner: string | null }[] }>(`${url}/websites?limit=3&page=7`);
  const agency = encodeURIComponent(sites.items.find((s) => s.target_url_agency_owner)?.target_url_agency_owner ?? '');
  const websites = [
    '/websites?limit=10',
    '/websites?page=20&limit=100',
    '/websites?final_url_live=true&dap_detected_final_url=false&limit=25',
    `/websites?target_url_agency_owner=${agency}&limit=50`,
    '/technology/site-scanning/v1/websites?scan_status=completed&target_url_redirects=true',
    ...sites.items.map((s) => `/websites/${encodeURIComponent(s.target_url)}`),
    '/analysis',
    `/analysis?target_url_agency_owner=${agency}`,
    '/technology/site-scanning/v1/analysis?final_url_live=true',
  ];
  return [...workload({ vendor, piid }).map((r) => r.url), ...websites];
}

interface Result {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

function run(url: string, paths: string[], connections: number): Promise<Result> {
  return new Promise((done, fail) => {
    autocannon({ url, connections, duration, requests: paths.map((path) => ({ method: 'GET', path })) }, (error: Error | null, result: Result) =>
      error ? fail(error) : done(result),
    );
  });
}

const { child, url } = await startServer();
try {
  const paths = await requestMix(url);
  const before = rssMiB(child.pid!);
  console.log(
    `server ${url}, ${paths.length} distinct requests (${workload({ vendor: '', piid: '' }).length} ceiling rates, ${paths.length - workload({ vendor: '', piid: '' }).length} Site Scanning), ${duration} s per level`,
  );
  console.log(`RSS after start: ${before} MiB`);
  // The machine's other work shares the cores: say how busy it was, so the figures can be read.
  console.log(`load average before: ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`);
  console.log('| connections | requests/s | p50 ms | p99 ms | max ms | requests | errors | timeouts (10 s) | non-2xx | RSS after, MiB |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const connections of levels) {
    const r = await run(url, paths, connections);
    console.log(
      `| ${connections} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.latency.max} | ${r.requests.total} | ${r.errors - r.timeouts} | ${r.timeouts} | ${r.non2xx} | ${rssMiB(child.pid!)} |`,
    );
  }
  console.log(`load average after: ${loadavg()[0].toFixed(1)}`);
} finally {
  child.kill('SIGTERM');
}
