/**
 * The real fixtures built in a process of their own (harness/real-fixtures.ts), as a global setup asks for them. It
 * resolves as soon as that process holds the builders' lock, not when it is done: the tests that need no fixture start
 * at once, and one that opens a fixture waits until the builder has written that fixture (openRealFixture).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/** The builder's process, for the setup's teardown: one still building when the tests are done is stopped. */
export interface FixturesBuilder {
  stop(): void;
}

export function buildRealFixturesAside(fixtures: readonly string[]): Promise<FixturesBuilder> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'harness/real-fixtures.ts', ...fixtures], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // A run of a few files may end before the build does: its fixtures already written stay, the rest are built next time.
  const builder: FixturesBuilder = { stop: () => void (child.exitCode === null && child.kill()) };
  return new Promise((started, fail) => {
    let holding = false;
    child.on('message', (message) => {
      if (message !== 'holding') return;
      holding = true;
      started(builder);
    });
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      if (code === 0) return started(builder);
      if (signal) return;
      const failed = new Error(`real fixtures: the build exited ${code}`);
      // After the lock was taken the setup has returned: a test that opens a fixture then builds it itself.
      if (holding) console.error(`${failed.message}; a test that needs one builds it in its own process`);
      else fail(failed);
    });
  });
}
