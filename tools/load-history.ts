/**
 * `npm run load:history -- --database <postgres-url> --git <bare git dir>`: the 17 real weekly Site Scanning
 * snapshots of benbalter/site-scanning-snapshots-experiment into Postgres in one command, each under its date
 * (`serve --database` then answers the newest at the API paths and each week under /snapshots/<date>/). Prints
 * per week how many files were kept and how many dropped as stale (the rule: site-scanning-source/history.ts).
 * `--week <date>` (repeatable) loads only those weeks.
 */
import { parseArgs } from 'node:util';
import { loadSqlJs } from '../adapters/node/sqljs-node.ts';
import { createPool, oneLine, shownUrl } from '../adapters/node/postgres/pool.ts';
import { loadHistory } from './site-scanning-source/postgres-history.ts';
import { STALE_RULE } from './site-scanning-source/history.ts';

const { values } = parseArgs({ options: { database: { type: 'string' }, git: { type: 'string' }, week: { type: 'string', multiple: true } } });
if (!values.database || !values.git) {
  console.error(
    'usage: npm run load:history -- --database <postgres-url> --git <bare git dir of benbalter/site-scanning-snapshots-experiment> [--week YYYY-MM-DD]…',
  );
  process.exit(1);
}
const pool = createPool(values.database, { max: 1 });
try {
  console.log(`stale files: ${STALE_RULE}`);
  const { weeks } = await loadHistory(await loadSqlJs(), pool, values.git, values.week ? { only: values.week } : {});
  const kept = weeks.reduce((n, w) => n + w.kept, 0);
  console.log(`${weeks.length} weekly snapshots, ${kept} records, in ${shownUrl(values.database)}`);
} catch (error) {
  console.error(`load:history into ${shownUrl(values.database)} stopped (weeks loaded before stay loaded): ${oneLine(error)}`);
  process.exitCode = 1;
} finally {
  await pool.end();
}
