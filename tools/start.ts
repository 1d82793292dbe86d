/**
 * `npm start`, a newcomer's first command: serves as soon as the app and the first visit's datasets are built, then
 * builds the extras (every week, the 2017 list, the synthetic rates) behind the running server at a low priority,
 * and says when they are ready. Arguments after `--` go to `serve` (`npm start -- --port 8080`).
 *
 * Each step is skipped when its output is current: a second `npm start` serves in seconds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setPriority } from 'node:os';
import { createInterface } from 'node:readline';
import { appUpToDate, buildAppOnce } from './app-build.ts';

const ROOT = resolve(import.meta.dirname, '..');
const DATA = resolve(ROOT, 'public/data');
const APP = resolve(ROOT, 'dist');
const started = performance.now();
const at = (): string => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const say = (line: string): void => console.log(`start: [${at()}] ${line}`);

/** A step's process, its output passed through; resolves when it exits 0. */
function run(command: string, args: readonly string[], label: string): Promise<void> {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code, signal) => (code === 0 ? done() : fail(new Error(`${label} failed (${signal ?? `exit ${code}`})`))));
  });
}

const tsx = (script: string, ...args: string[]): Promise<void> => run(process.execPath, ['--import', 'tsx', script, ...args], script);

/** The extras' files and the manifest that lists them, from the data build into the served app. */
function publishExtras(): string[] {
  const manifest = JSON.parse(readFileSync(resolve(DATA, 'manifest.json'), 'utf8')) as { extras?: { file: string; title: string }[] };
  for (const extra of manifest.extras ?? []) copyFileSync(resolve(DATA, extra.file), resolve(APP, 'data', extra.file));
  copyFileSync(resolve(DATA, 'manifest.json'), resolve(APP, 'data/manifest.json'));
  return (manifest.extras ?? []).map((extra) => extra.title);
}

/** The extras' build behind the server: a low priority, so the first visit's requests and pages come first. */
function buildExtras(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/build-data.ts', '--profile', 'default', '--out', 'public/data', '--phase', 'extras'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    if (child.pid) setPriority(child.pid, 10);
  } catch {
    // Not allowed here: it runs at the normal priority.
  }
  for (const stream of [child.stdout!, child.stderr!]) createInterface({ input: stream }).on('line', (line) => console.log(`extras: ${line}`));
  child.once('exit', (code, signal) => {
    if (code === 0) {
      const titles = publishExtras();
      say(`the extras are built and served (${titles.length}): the app's Datasets page loads them on demand`);
      say('serve answers the older weeks\u2019 dated paths (/snapshots/<date>/…) after a restart of npm start');
    } else if (signal !== 'SIGTERM') say(`the extras' build failed (${signal ?? `exit ${code}`}): the app and its first-visit datasets are served as they are`);
  });
  return child;
}

async function main(): Promise<void> {
  say('building what the app and its first visit need (each step is skipped when current)');
  await tsx('tools/build-node.ts');
  await tsx('tools/build-data.ts', '--profile', 'default', '--out', 'public/data', '--phase', 'first-visit');
  if (appUpToDate(APP)) say('the app in dist/ is current');
  else {
    say('building the app (vite build)');
    await buildAppOnce(APP);
  }
  const extrasNeeded = !publishedExtrasCurrent();
  say(`serving${extrasNeeded ? '; the extras are built behind it' : ''}`);
  const server = spawn(process.execPath, [resolve(ROOT, 'adapters/node/dist/bin.js'), 'serve', ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' });
  const extras = extrasNeeded ? buildExtras() : null;
  const stop = (signal: NodeJS.Signals): void => {
    extras?.kill('SIGTERM');
    server.kill(signal);
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  server.once('exit', (code) => {
    extras?.kill('SIGTERM');
    process.exit(code ?? 0);
  });
}

/** The served app already holds this build's extras (a second `npm start`). */
function publishedExtrasCurrent(): boolean {
  const stamp = resolve(DATA, '.build-stamp.json');
  if (!existsSync(stamp) || !(JSON.parse(readFileSync(stamp, 'utf8')) as { extras?: boolean }).extras) return false;
  const manifest = JSON.parse(readFileSync(resolve(DATA, 'manifest.json'), 'utf8')) as { extras?: { file: string }[] };
  return (manifest.extras ?? []).every((extra) => existsSync(resolve(APP, 'data', extra.file)));
}

await main();
