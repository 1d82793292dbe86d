/**
 * load:history's weeks made without a database (tools/site-scanning-source/history-week.ts) against the import of
 * the same week's file, which is what the load copied before: the same stored texts in the same listing order
 * (target_url in UTF-8 byte order, then file order) and the same refusals, over a small git history built like the
 * source's whose file order, JavaScript's string order and byte order all disagree. Then the whole of load:history
 * over it (weeks prepared on its second thread) into a throwaway Postgres, each week checked against the engine.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { historyWeeks } from '../../../tools/site-scanning-source/history.ts';
import { prepareWeek } from '../../../tools/site-scanning-source/history-week.ts';
import { importIntoDatabase } from '../../../dataset/import/index.ts';
import { loadSqlJs } from '../../../adapters/node/sqljs-node.ts';
import { RECORD_COLUMN, SORT_KEY, WEBSITES_TABLE } from '../../../engine/site-scanning/schema.ts';
import { createPool } from '../../../adapters/node/postgres/pool.ts';
import { loadHistory } from '../../../tools/site-scanning-source/postgres-history.ts';
import { checkWeek } from '../../../tools/site-scanning-source/postgres-history-check.ts';
import { suitePostgres } from '../helpers/suite-postgres.ts';

let root: string;

const git = (...args: string[]): string => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' });

function week(date: string, written: Record<string, Record<string, unknown>>): void {
  for (const [file, record] of Object.entries(written)) writeFileSync(join(root, 'data', `${file}.json`), JSON.stringify(record));
  git('add', '-A');
  const env = { ...process.env, GIT_AUTHOR_DATE: `${date}T12:00:00Z`, GIT_COMMITTER_DATE: `${date}T12:00:00Z`, TZ: 'UTC' };
  execFileSync('git', ['-C', root, 'commit', '-q', '--allow-empty', '-m', 'Commit from GitHub Actions (Archive snapshot)'], { env });
}

const site = (initial_domain: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  initial_domain,
  initial_base_domain: initial_domain.toLowerCase(),
  url: `https://${initial_domain}/`,
  base_domain: initial_domain.toLowerCase(),
  live: true,
  redirect: false,
  agency: initial_domain < 'b' ? 'General Services Administration' : 'Department of Commerce',
  bureau: 'Office of the Secretary',
  primary_scan_status: 'completed',
  uswds_count: 3,
  dap: true,
  ...extra,
});

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'history-week-'));
  mkdirSync(join(root, 'data'));
  git('init', '-q');
  git('config', 'user.email', 'job@example.org');
  git('config', 'user.name', 'job');
  // File names in the reverse of their sites' order; an astral host name (UTF-16 puts it before U+FF21, UTF-8
  // after); a host in capitals (lower-cased by the import); two files naming one site (the second refused).
  week('2025-01-06', {
    a: site('zeta.gov'),
    b: site('\uFF21.gov'),
    c: site('\u{1F600}.gov'),
    d: site('Alpha.gov', { dap: false }),
    e: site('alpha.gov', { uswds_count: 9 }),
    f: site('beta.gov', { uswds_count: null }),
  });
  week('2025-01-13', { a: site('zeta.gov', { uswds_count: 4 }), g: site('gamma.gov') });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

it('prepares each week as the import of its file stores it, in the same listing order', async () => {
  const SQL = await loadSqlJs();
  const weeks = historyWeeks(root);
  expect(weeks).toHaveLength(2);
  for (const week of weeks) {
    const prepared = prepareWeek(root, week, true);
    const { db, report } = await importIntoDatabase(SQL, prepared.file!, {
      name: `site-scanning-${week.date}.json`,
      format: 'websites-json',
      snapshotDate: week.date,
    });
    try {
      const stored = db.exec(`SELECT ${RECORD_COLUMN} FROM ${WEBSITES_TABLE} ORDER BY ${SORT_KEY}`)[0].values.map(([text]) => text);
      expect(prepared.stored).toEqual(stored);
      expect(prepared.rejected).toBe(report.rowsRejected);
    } finally {
      db.close();
    }
  }
  const first = prepareWeek(root, weeks[0]);
  expect(first.rejected).toBe(1);
  expect(first.stored).toHaveLength(5);
  expect(first.file).toBeUndefined();
});

it('loads every week into Postgres answering as the engine over the import of its file', async () => {
  const server = suitePostgres();
  const pool = createPool(server.createDatabase('history'), { max: 1 });
  try {
    const checks: string[] = [];
    const { weeks } = await loadHistory(await loadSqlJs(), pool, root, {
      print: () => {},
      loaded: async (week, db) => {
        const result = await checkWeek(pool, week.date, db, 30, 1);
        checks.push(`${week.date}: ${result.compared - result.differences.length} of ${result.compared} ${result.differences.join(', ')}`);
      },
    });
    expect(weeks.map((w) => [w.date, w.kept, w.rejected])).toEqual([
      ['2025-01-06', 6, 1],
      ['2025-01-13', 7, 1],
    ]);
    expect(checks).toEqual(['2025-01-06: 33 of 33 ', '2025-01-13: 33 of 33 ']);
    const { rows } = await pool.query('SELECT snapshot::text AS date, records FROM websites_snapshots ORDER BY snapshot');
    expect(rows).toEqual([
      { date: '2025-01-06', records: 5 },
      { date: '2025-01-13', records: 6 },
    ]);
  } finally {
    await pool.end();
    server.stop();
  }
});
