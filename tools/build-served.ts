/**
 * What `serve` needs from a clone, built in order and each step skipped when current: the Node doors' bundles, the
 * first visit's datasets, and the app. `npm start` serves after it (the extras come behind: tools/start.ts); `npm pack`
 * runs it first (prepack), so the package carries all three.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { appUpToDate, buildAppOnce } from './app-build.ts';

const ROOT = resolve(import.meta.dirname, '..');
export const SERVED_APP = resolve(ROOT, 'dist');

function tsx(script: string, ...args: string[]): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, stdio: 'inherit' });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code, signal) => (code === 0 ? done() : fail(new Error(`${script} failed (${signal ?? `exit ${code}`})`))));
  });
}

export async function buildServed(say: (line: string) => void): Promise<void> {
  say('building what the app and its first visit need (each step is skipped when current)');
  await tsx('tools/build-node.ts');
  await tsx('tools/build-data.ts', '--profile', 'default', '--out', 'public/data', '--phase', 'first-visit');
  if (appUpToDate(SERVED_APP)) say('the app in dist/ is current');
  else {
    say('building the app (vite build)');
    await buildAppOnce(SERVED_APP);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServed((line) => console.log(`build: ${line}`));
