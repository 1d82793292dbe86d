/**
 * `npm run load:history -- --database <postgres-url> [--git <bare git dir>]` (`--help` lists the options): the 17
 * real weeks of Site Scanning data/ ships (site-scanning-source/shipped-weeks.ts) into Postgres in one command,
 * each under its day (`serve --database` then answers the newest at the API paths and each week under
 * /snapshots/<date>/). Prints per week how many files its commit had, how many records it selected and how many it
 * dropped as stale (the rule: site-scanning-source/git-weeks.ts). `--git` first checks each week against a clone of
 * benbalter/site-scanning-snapshots-experiment: its commit less its stale files must hold the same records.
 * `--week <date>` (repeatable) loads only those weeks. `--check <n>` compares each loaded week's answers with the
 * in-memory engine's over the import of the same records: n seeded requests from the week's values, plus the
 * unfiltered listing and analysis and a second page (site-scanning-source/postgres-week-check.ts); any difference fails.
 */
import { parseArgs } from 'node:util';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { createPool, oneLine, shownUrl } from '../adapters/node/backends/postgres/pool.ts';
import { loadWeeks } from './site-scanning-source/postgres-weeks.ts';
import { STALE_RULE } from './site-scanning-source/git-weeks.ts';
import { checkWeek } from './site-scanning-source/postgres-week-check.ts';
import { SOURCE_REPOSITORY } from './site-scanning-source/git-snapshot.ts';
import { shippedWeeks, weekDatabase } from './site-scanning-source/shipped-weeks.ts';

const USAGE = `usage: npm run load:history -- --database <postgres-url> [--git <bare git dir>] [--week YYYY-MM-DD]… [--check N]
  --database  the PostgreSQL database to load into (serve --database answers from it)
  --git       a bare clone of ${SOURCE_REPOSITORY}: each week is first checked to be what its commit holds, less its stale files
  --week      only this week (repeatable); default every week
  --check N   compare each loaded week with the in-memory engine over the import of the same records: N seeded
              requests from the week's values, plus the unfiltered listing and analysis; any difference fails`;

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    git: { type: 'string' },
    week: { type: 'string', multiple: true },
    check: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const checked = values.check === undefined ? 0 : Number(values.check);
if (!values.database) {
  console.error(USAGE);
  process.exit(1);
}
if (!Number.isSafeInteger(checked) || checked < 0) {
  console.error(`--check wants a whole number of requests, not ${values.check}`);
  process.exit(1);
}
const shipped = shippedWeeks().weeks.map((w) => w.date);
const unknown = (values.week ?? []).filter((date) => !shipped.includes(date));
if (unknown.length > 0) {
  console.error(`no week of ${unknown.join(', ')} is shipped: the weeks are ${shipped.join(', ')}`);
  process.exit(1);
}
const pool = createPool(values.database, { max: 1 });
let differences = 0;
try {
  console.log(`stale files: ${STALE_RULE}`);
  if (values.git) console.log(`each week checked against ${values.git}`);
  const started = performance.now();
  const SQL = checked > 0 ? await loadSqlJs() : null;
  const weeks = await loadWeeks(pool, {
    ...(values.week ? { only: values.week } : {}),
    ...(values.git ? { git: values.git } : {}),
    ...(SQL
      ? {
          loaded: async (week, records) => {
            const { db } = await weekDatabase(SQL, week.date, { records });
            try {
              // The week's date as the seed: the same sample every run.
              const result = await checkWeek(pool, week.date, db, checked, Number(week.date.replace(/-/g, '')));
              differences += result.differences.length;
              console.log(`  ${week.date}: ${result.compared - result.differences.length} of ${result.compared} answers identical to the engine's`);
              for (const line of result.differences.slice(0, 5)) console.log(`    differs: ${line}`);
            } finally {
              db.close();
            }
          },
        }
      : {}),
  });
  const selected = weeks.reduce((n, w) => n + w.selected, 0);
  const loadMs = weeks.reduce((ms, w) => ms + w.ms, 0);
  console.log(
    `${weeks.length} weeks, ${selected} records, in ${shownUrl(values.database)}: ${(loadMs / 1000).toFixed(0)} s loading, ${((performance.now() - started) / 1000).toFixed(0)} s in all`,
  );
  if (differences > 0) {
    console.error(`${differences} answers differ from the engine's`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(`load:history into ${shownUrl(values.database)} stopped (weeks loaded before stay loaded): ${oneLine(error)}`);
  process.exitCode = 1;
} finally {
  await pool.end();
}
