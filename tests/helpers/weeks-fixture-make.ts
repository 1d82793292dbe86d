/**
 * Makes the weeks fixture (weeks-fixture.ts) into a directory: the weeks attachment from data/ and the imports of
 * the given weeks, written aside and moved in whole, so an interrupted run leaves nothing half made.
 *   npx tsx tests/helpers/weeks-fixture-make.ts <dir> <date>…
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadSqlJs } from '../../adapters/node/sqljs-node.ts';
import { weeksDatabase } from '../../tools/site-scanning-source/weeks-dataset.ts';
import { weekDatabase } from '../../tools/site-scanning-source/shipped-weeks.ts';
import { importFile, weeksFile } from './weeks-fixture.ts';

const [dir, ...dates] = process.argv.slice(2);
const aside = `${dir}.making-${process.pid}`;
rmSync(aside, { recursive: true, force: true });
mkdirSync(aside, { recursive: true });
const started = performance.now();
const say = (line: string) => console.log(`weeks fixture: ${line} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
const SQL = await loadSqlJs();
const { db } = weeksDatabase(SQL, { say });
db.run('VACUUM');
writeFileSync(weeksFile(aside), db.export());
db.close();
for (const date of dates) {
  const { db: week } = await weekDatabase(SQL, date);
  writeFileSync(importFile(aside, date), week.export());
  week.close();
  say(`the import of ${date}`);
}
writeFileSync(`${aside}/done`, '');
mkdirSync(dirname(dir), { recursive: true });
rmSync(dir, { recursive: true, force: true });
renameSync(aside, dir);
say(`made in ${dir}`);
