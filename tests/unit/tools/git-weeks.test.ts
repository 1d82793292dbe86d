/**
 * The stale-file rule of the weeks (tools/site-scanning-source/git-weeks.ts) over a small git repository
 * built like the source: one commit per week "(Archive snapshot)", one file per site, never a file deleted, the
 * `public` key dropped from the records the job rewrites from the fourth week on.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gitWeekRecords, gitWeeks } from '../../../tools/site-scanning-source/git-weeks.ts';

let root: string;

const git = (...args: string[]): string => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' });

/** One week: the sites the job writes that week (their records), committed on `date`. */
function week(date: string, written: Record<string, Record<string, unknown>>): void {
  for (const [site, record] of Object.entries(written)) writeFileSync(join(root, 'data', `${site}.json`), JSON.stringify(record));
  git('add', '-A');
  const env = { ...process.env, GIT_AUTHOR_DATE: `${date}T12:00:00Z`, GIT_COMMITTER_DATE: `${date}T12:00:00Z`, TZ: 'UTC' };
  execFileSync('git', ['-C', root, 'commit', '-q', '--allow-empty', '-m', 'Commit from GitHub Actions (Archive snapshot)'], { env });
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'git-weeks-'));
  mkdirSync(join(root, 'data'));
  git('init', '-q');
  git('config', 'user.email', 'job@example.org');
  git('config', 'user.name', 'job');
  const old = (site: string, n: number): Record<string, unknown> => ({ initial_domain: site, public: true, visits: n });
  const now = (site: string, n: number): Record<string, unknown> => ({ initial_domain: site, visits: n });
  // a: always written. b: written until week 2, then left. c: written unchanged in weeks 1 and 2, left after week 2.
  // d: written, unchanged, every week (its blob never changes after week 3, but it has the new shape).
  week('2025-01-06', { a: old('a', 1), b: old('b', 1), c: old('c', 1), d: old('d', 1) });
  week('2025-01-13', { a: old('a', 2), b: old('b', 2), c: old('c', 1), d: old('d', 1) });
  week('2025-01-20', { a: old('a', 3), d: old('d', 1) });
  week('2025-01-27', { a: now('a', 4), d: now('d', 1) });
  week('2025-02-03', { a: now('a', 5), d: now('d', 1) });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

it('drops a file from the week after its last write, when it never changes again and keeps the old shape', () => {
  const weeks = gitWeeks(root);
  const stale = weeks.map((w) => [w.date, [...w.stale].sort()]);
  expect(stale).toEqual([
    ['2025-01-06', []],
    // c was written unchanged this week: the blobs cannot tell that from no write (dropped a week early).
    ['2025-01-13', ['data/c.json']],
    ['2025-01-20', ['data/b.json', 'data/c.json']],
    ['2025-01-27', ['data/b.json', 'data/c.json']],
    ['2025-02-03', ['data/b.json', 'data/c.json']],
  ]);
  expect(weeks.map((w) => w.files)).toEqual([4, 4, 4, 4, 4]);
  const records = gitWeekRecords(root, weeks[2]);
  expect([...records.keys()]).toEqual(['data/a.json', 'data/d.json']);
  expect(records.get('data/a.json')).toEqual({ initial_domain: 'a', public: true, visits: 3 });
});
