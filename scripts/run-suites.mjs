// `npm test`'s last step: the unit suite and the browser suite as two vitest processes side by side.
//
// Why two processes: in one, vitest 4 puts a project whose files run one at a time (the browser suite,
// `fileParallelism: false`) in a group of its own that starts only when every other project's files are done. The
// browser suite spends much of its time waiting on pages, the unit suite on its real fixtures; run one after the
// other, a core sat idle through both. Each line is prefixed with its suite; the exit code is non-zero when either
// suite fails, and both always run to their end. Extra arguments go to both (e.g. a file filter, which may name files
// of one suite only: the other then passes with none).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const SUITES = ['unit', 'e2e'];
const extra = process.argv.length > 2 ? ['--passWithNoTests', ...process.argv.slice(2)] : [];

const children = SUITES.map((suite) => {
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--project', suite, ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') },
  });
  const label = `[${suite}]`.padEnd(7);
  for (const [input, output] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input }).on('line', (line) => output.write(`${label}${line}\n`));
  }
  return new Promise((done) => {
    child.once('error', (error) => {
      console.error(`${label}could not start vitest: ${error.message}`);
      done(1);
    });
    child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
});

// Ctrl-C reaches both children through the terminal's process group; wait for them to stop and report.
process.on('SIGINT', () => {});
const codes = await Promise.all(children);
SUITES.forEach((suite, i) => console.log(`${suite}: ${codes[i] === 0 ? 'passed' : `failed (exit ${codes[i]})`}`));
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
