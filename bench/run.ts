/**
 * `npm run bench`: benchmarks outside the test suite. Prints a table and writes bench/results.json.
 *   npm run bench -- --records 250000 --rounds 20 --baseline-rounds 1 --duckdb-threads 1 [--strict]
 * --strict exits non-zero when DuckDB's answers differ from the engine's (the differences are printed either way).
 * The Postgres column (bench/postgres.ts; --websites, --weeks) runs when PostgreSQL 15 is installed, after the
 * rest; --skip-postgres leaves it out, --only postgres runs it alone (`npx tsx bench/run.ts --only postgres`);
 * --history <git dir> loads the 17 real weekly Site Scanning snapshots instead of --weeks generated ones.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { runBench, table } from './ceilingrates/bench.ts';
import { postgresTable, runPostgresBench } from './postgres.ts';
import { postgresAvailable } from '../tests/unit/helpers/postgres.ts';

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
    /** The bare git directory of benbalter/site-scanning-snapshots-experiment: its 17 real weeks instead of --weeks generated ones. */
    history: { type: 'string' },
  },
});

const log = (line: string): void => console.log(`bench: ${line}`);
const postgresOptions = () => ({
  records: Number(values.records),
  websites: Number(values.websites),
  weeks: Number(values.weeks),
  rounds: Number(values.rounds),
  ...(values.history ? { history: values.history } : {}),
});
if (values.only === 'postgres') {
  const postgres = await runPostgresBench(postgresOptions(), log);
  console.log(postgresTable(postgres));
  const out = values.out === 'bench/results.json' ? 'bench/results-postgres.json' : values.out!;
  await writeFile(out, JSON.stringify({ postgres }, null, 2) + '\n');
  console.log(`bench: wrote ${out}`);
  process.exit(postgres.differences.length ? 1 : 0);
}

const result = await runBench(
  {
    records: Number(values.records),
    rounds: Number(values.rounds),
    baselineRounds: Number(values['baseline-rounds']),
    duckdbThreads: Number(values['duckdb-threads']),
  },
  (line) => console.log(`bench: ${line}`),
);
console.log(table(result));
const withPostgres = !values['skip-postgres'] && postgresAvailable();
const postgres = withPostgres ? await runPostgresBench(postgresOptions(), log) : undefined;
if (postgres) console.log(postgresTable(postgres));
await writeFile(values.out!, JSON.stringify({ ceilingrates: result, ...result, ...(postgres ? { postgres } : {}) }, null, 2) + '\n');
console.log(`bench: wrote ${values.out}`);
if (values.strict && result.duckdb_differences.length) {
  console.error(`bench: --strict: ${result.duckdb_differences.length} differences between duckdb and the engine`);
  process.exitCode = 1;
}
