/** The real fixtures built in a process of their own (harness/real-fixtures.ts), as a global setup asks for them. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

export function buildRealFixturesAside(fixtures: readonly string[]): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'harness/real-fixtures.ts', ...fixtures], { cwd: ROOT, stdio: 'inherit' });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`real fixtures: the build exited ${code}`))));
  });
}
