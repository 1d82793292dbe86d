/**
 * `npm run bench`: benchmarks outside the test suite. Prints a table and writes bench/results.json.
 *   npm run bench -- --records 250000 --rounds 20 --baseline-rounds 1
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { runBench, table } from './ceilingrates/bench.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '250000' },
    rounds: { type: 'string', default: '20' },
    'baseline-rounds': { type: 'string', default: '1' },
    out: { type: 'string', default: 'bench/results.json' },
  },
});

const result = await runBench(
  { records: Number(values.records), rounds: Number(values.rounds), baselineRounds: Number(values['baseline-rounds']) },
  (line) => console.log(`bench: ${line}`),
);
console.log(table(result));
await writeFile(values.out!, JSON.stringify({ ceilingrates: result, ...result }, null, 2) + '\n');
console.log(`bench: wrote ${values.out}`);
