/**
 * How long the installed package takes to answer, as a prototyper starts it: `npm pack` (or `--tarball FILE`),
 * installed into an empty project, then from a cold process each time: `serve` until both APIs have answered,
 * `mcp` until a tool call has answered, `review` of a one-row list until it exits. Prints the tarball's size and
 * the median of `--runs` (default 5) starts of each.
 *   npx tsx scripts/measure-package.ts [--tarball FILE] [--runs N]
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { priceListXlsx } from '../harness/price-list-xlsx.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { tarball: { type: 'string' }, runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const work = mkdtempSync(join(tmpdir(), 'measure-package-'));
const project = join(work, 'project');

function tarball(): string {
  if (values.tarball) return resolve(values.tarball);
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return join(work, (JSON.parse(out.slice(out.indexOf('[\n'))) as { filename: string }[])[0].filename);
}

/** Milliseconds from spawning the command until `done` says so from what it wrote (or it exits, for `review`). */
function timed(args: string[], done: (output: string) => boolean, feed?: string): Promise<number> {
  const started = performance.now();
  const child = spawn(join(project, 'node_modules/.bin/offline-gov-api'), args, { cwd: project, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  const read = (chunk: Buffer): void => {
    output += chunk.toString();
    if (done(output)) {
      child.kill();
      finish(performance.now() - started);
    }
  };
  let finish: (ms: number) => void = () => {};
  const result = new Promise<number>((resolveTime, fail) => {
    finish = resolveTime;
    child.once('exit', (code) => (code === 0 ? resolveTime(performance.now() - started) : fail(new Error(`${args[0]} exited ${code}: ${output}`))));
  });
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  if (feed) child.stdin.write(feed);
  return result;
}

async function serveUntilAnswered(): Promise<number> {
  const port = 45000 + Math.floor(Math.random() * 1000);
  const started = performance.now();
  const child = spawn(join(project, 'node_modules/.bin/offline-gov-api'), ['serve', '--port', String(port)], { cwd: project, stdio: 'ignore' });
  try {
    for (;;) {
      try {
        const [a, b] = await Promise.all([
          fetch(`http://localhost:${port}/websites?limit=1`),
          fetch(`http://localhost:${port}/api/v3/search/ceilingrates/?page_size=1`),
        ]);
        if (a.ok && b.ok) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    child.kill();
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const file = tarball();
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'measure', private: true }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', file], { cwd: project, stdio: 'ignore' });
  const list = join(project, 'list.xlsx');
  writeFileSync(
    list,
    priceListXlsx({ contract: '47QTCA20D0001', vendor: 'EXAMPLE', rows: [{ title: 'Program Manager', price: 150, education: 'Bachelors', minYears: 8 }] }),
  );
  const mcpInput =
    [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'm', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_websites', arguments: { limit: 1 } } },
    ]
      .map((m) => JSON.stringify(m))
      .join('\n') + '\n';
  const figures: Record<string, number[]> = { serve: [], mcp: [], review: [] };
  for (let i = 0; i < runs; i++) {
    figures.serve.push(await serveUntilAnswered());
    figures.mcp.push(await timed(['mcp'], (out) => out.includes('"id":2'), mcpInput));
    figures.review.push(await timed(['review', list], () => false));
  }
  console.log(`tarball: ${(statSync(file).size / 1048576).toFixed(1)} MB (${file})`);
  for (const [door, times] of Object.entries(figures)) {
    console.log(`${door}: median ${(median(times) / 1000).toFixed(2)} s of ${runs} cold starts (${times.map((t) => (t / 1000).toFixed(2)).join(', ')})`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
