/**
 * The import fuzzer, as long as asked: `npm run fuzz:import -- --files 5000 --seed 123`. Seeds run from
 * --seed upward (default: one from the clock, printed), so any failure replays with `--seed S --files 1`.
 * Prints each failure with its seed, the slowest files, peak RSS and a tally of outcomes; exits 1 on a failure.
 */
import { parseArgs } from 'node:util';
import { makeCase, runCase } from '../harness/fuzz/import-files.ts';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '1000' },
    seed: { type: 'string' },
    'stop-on-failure': { type: 'boolean', default: false },
  },
});
const files = Number(values.files);
const first = values.seed !== undefined ? Number(values.seed) : Date.now() % 1_000_000_000;
if (!Number.isSafeInteger(files) || files < 1 || !Number.isSafeInteger(first)) throw new Error('usage: fuzz-import.ts --files N --seed S');

console.log(`import fuzz: ${files} files from seed ${first}`);
const tally = new Map<string, number>();
const slowest: { seed: number; ms: number; bytes: number }[] = [];
let failures = 0;
let peakRss = process.memoryUsage().rss;
let bytes = 0;
const started = performance.now();
for (let seed = first; seed < first + files; seed++) {
  const fuzz = makeCase(seed);
  bytes += fuzz.bytes.length;
  const t0 = performance.now();
  try {
    const { result } = await runCase(fuzz);
    tally.set(result, (tally.get(result) ?? 0) + 1);
  } catch (error) {
    failures++;
    console.error(error instanceof Error ? error.message : String(error));
    if (values['stop-on-failure']) break;
  }
  const ms = performance.now() - t0;
  slowest.push({ seed, ms, bytes: fuzz.bytes.length });
  slowest.sort((a, b) => b.ms - a.ms);
  slowest.length = Math.min(slowest.length, 3);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}
const seconds = (performance.now() - started) / 1000;
console.log(`outcomes: ${[...tally].map(([k, n]) => `${k} ${n}`).join(', ')}`);
console.log(`${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s; peak RSS ${(peakRss / 1e6).toFixed(0)} MB`);
console.log(`slowest: ${slowest.map((s) => `seed ${s.seed} ${s.ms.toFixed(0)} ms (${s.bytes} bytes)`).join(', ')}`);
console.log(failures === 0 ? 'no failures' : `${failures} FAILED (seeds above)`);
process.exitCode = failures === 0 ? 0 : 1;
