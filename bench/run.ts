/**
 * `npm run bench`: benchmarks outside the test suite. Prints a table and writes bench/results.json.
 *   npm run bench -- --records 250000 --rounds 20 --baseline-rounds 1 --duckdb-threads 1 [--strict]
 * --strict exits non-zero when DuckDB's answers differ from the engine's (the differences are printed either way).
 * The Postgres column (bench/postgres.ts; --websites, --weeks) runs when PostgreSQL 15 is installed, after the
 * rest; --skip-postgres leaves it out, --only postgres runs it alone (`npx tsx bench/run.ts --only postgres`);
 * --real-weeks loads the 17 real weeks of Site Scanning data/ ships instead of --weeks generated ones.
 * The engine's run is repeated over the default build's real rates (103,307, from --real-data, default public/data,
 * or built from data/ when that holds no default build), printed beside the generated ones; --skip-real leaves it out.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { runBench, sideBySide, table } from './ceilingrates/bench.ts';
import { realRatesDatabase } from './ceilingrates/real.ts';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { postgresTable, runPostgresBench } from './postgres.ts';
import { postgresAvailable } from '../harness/postgres.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '250000' },
    rounds: { type: 'string', default: '20' },
    'baseline-rounds': { type: 'string', default: '1' },
    'duckdb-threads': { type: 'string', default: '1' },
    /** Fail when DuckDB's answers differ from the engine's anywhere. */
    strict: { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/results.json' },
    'skip-postgres': { type: 'boolean', default: false },
    only: { type: 'string' },
    websites: { type: 'string', default: '30000' },
    weeks: { type: 'string', default: '1' },
    /** The 17 real weeks data/ ships instead of --weeks generated ones. */
    'real-weeks': { type: 'boolean', default: false },
    'real-data': { type: 'string', default: 'public/data' },
    'skip-real': { type: 'boolean', default: false },
  },
});

const log = (line: string): void => console.log(`bench: ${line}`);
const postgresOptions = () => ({
  records: Number(values.records),
  websites: Number(values.websites),
  weeks: Number(values.weeks),
  rounds: Number(values.rounds),
  realWeeks: values['real-weeks'],
});
if (values.only === 'postgres') {
  const postgres = await runPostgresBench(postgresOptions(), log);
  console.log(postgresTable(postgres));
  const out = values.out === 'bench/results.json' ? 'bench/results-postgres.json' : values.out!;
  await writeFile(out, JSON.stringify({ postgres }, null, 2) + '\n');
  console.log(`bench: wrote ${out}`);
  process.exit(postgres.differences.length ? 1 : 0);
}

const benchOptions = {
  records: Number(values.records),
  rounds: Number(values.rounds),
  baselineRounds: Number(values['baseline-rounds']),
  duckdbThreads: Number(values['duckdb-threads']),
};
const result = await runBench(benchOptions, log);
console.log(table(result));
const real = values['skip-real']
  ? undefined
  : await runBench({ ...benchOptions, database: realRatesDatabase(await loadSqlJs(), values['real-data']!, log) }, log);
if (real) {
  console.log(table(real));
  console.log(
    sideBySide([
      { title: `synthetic ${(result.records / 1000).toFixed(0)}k`, result },
      { title: `real ${(real.records / 1000).toFixed(0)}k, GSA MAS`, result: real },
    ]),
  );
}
const withPostgres = !values['skip-postgres'] && postgresAvailable();
const postgres = withPostgres ? await runPostgresBench(postgresOptions(), log) : undefined;
if (postgres) console.log(postgresTable(postgres));
await writeFile(
  values.out!,
  JSON.stringify({ ceilingrates: result, ...result, ...(real ? { ceilingratesReal: real } : {}), ...(postgres ? { postgres } : {}) }, null, 2) + '\n',
);
console.log(`bench: wrote ${values.out}`);
const differing = result.duckdb_differences.length + (real?.duckdb_differences.length ?? 0);
if (values.strict && differing) {
  console.error(`bench: --strict: ${differing} differences between duckdb and the engine`);
  process.exitCode = 1;
}
