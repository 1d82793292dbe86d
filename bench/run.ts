/**
 * `npm run bench`: benchmarks outside the test suite. Prints a table and writes bench/results.json.
 *   npm run bench -- --records 250000 --rounds 20 --baseline-rounds 1 --duckdb-threads 1 [--strict]
 * --strict exits non-zero when DuckDB's answers differ from the engine's (the differences are printed either way).
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { runBench, table } from './ceilingrates/bench.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '250000' },
    rounds: { type: 'string', default: '20' },
    'baseline-rounds': { type: 'string', default: '1' },
    'duckdb-threads': { type: 'string', default: '1' },
    /** Fail when DuckDB's answers differ from the engine's anywhere. */
    strict: { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/results.json' },
  },
});

const result = await runBench(
  { records: Number(values.records), rounds: Number(values.rounds), baselineRounds: Number(values['baseline-rounds']), duckdbThreads: Number(values['duckdb-threads']) },
  (line) => console.log(`bench: ${line}`),
);
console.log(table(result));
await writeFile(values.out!, JSON.stringify({ ceilingrates: result, ...result }, null, 2) + '\n');
console.log(`bench: wrote ${values.out}`);
if (values.strict && result.duckdb_differences.length) {
  console.error(`bench: --strict: ${result.duckdb_differences.length} differences between duckdb and the engine`);
  process.exitCode = 1;
}
