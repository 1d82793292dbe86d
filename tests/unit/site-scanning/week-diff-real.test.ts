/**
 * The real first and newest weeks (2025-02-10, partial, and 2025-06-09, the default; the shared fixture's
 * imports) compared by one rule: the live sites lost are those live in a completed scan in February and not live,
 * or not scanned to completion, in June — 1,312, the Department of Energy first with 250; the sites that came up
 * the reverse — 538, Energy's 94 of them (86 had failed their February scan: counting not live → live alone gave 8).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { diffWeeks, groupChangesCsv, websitesSites, type WeekDiff } from '../../../engine/site-scanning/week-diff.ts';
import { realWeek } from '../../../harness/real-fixtures.ts';

const FIRST = '2025-02-10';
let diff: WeekDiff;
let energy: WeekDiff;

beforeAll(async () => {
  const SQL = await loadSqlJs();
  const before = (await realWeek(SQL, FIRST)).db;
  const after = (await realWeek(SQL, '2025-06-09')).db;
  const [a, b] = [websitesSites(before), websitesSites(after)];
  diff = diffWeeks(a, b);
  energy = diffWeeks(a, b, { agency: 'Department of Energy' });
  before.close();
  after.close();
}, 600_000);

const countsOf = (agency: string) => diff.groups.find((g) => g.name === agency)?.counts;

describe('the live sites lost and come up between the real weeks', () => {
  it('counts 1,312 lost, of which 857 failed their June scan, and 538 come up, of which 231 had failed in February', () => {
    expect(diff.sites).toEqual({ before: 29488, after: 36331 });
    expect([diff.totals.lost, diff.totals.came_up]).toEqual([1312, 538]);
    expect(diff.changes.filter((c) => c.kind === 'lost' && c.after.startsWith('scan failed')).length).toBe(857);
    expect(diff.changes.filter((c) => c.kind === 'came_up' && c.before.startsWith('scan failed')).length).toBe(231);
  });

  it('puts the Department of Energy first, with 250 lost and 94 come up', () => {
    const first = [...diff.groups].sort((x, y) => y.counts.lost - x.counts.lost)[0];
    expect([first.name, first.counts.lost, first.counts.came_up]).toEqual(['Department of Energy', 250, 94]);
    expect(countsOf('Department of Health and Human Services')!.lost).toBeLessThan(250);
    expect(energy.changes.filter((c) => c.kind === 'came_up' && c.before.startsWith('scan failed')).length).toBe(86);
  });

  it('gives Energy’s own comparison, by bureau, the same changes as Energy’s share of every agency’s', () => {
    expect(energy.by).toBe('bureau');
    expect(energy.sites).toEqual({ before: 4573, after: 5724 });
    expect(energy.changes).toEqual(diff.changes.filter((c) => c.agency === 'Department of Energy'));
    expect(energy.groups.reduce((n, g) => n + g.counts.lost, 0)).toBe(250);
  });

  it('exports the per-agency counts with the weeks as header rows', () => {
    const rows = Papa.parse<string[]>(groupChangesCsv(diff, diff.groups, [['Before', FIRST]]), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Before', FIRST]);
    expect(rows[1]).toEqual(['Sites compared', 'every agency']);
    expect(rows[2][0]).toBe('Agency');
    const row = rows.find((r) => r[0] === 'Department of Energy')!;
    expect([row[rows[2].indexOf('Live sites lost')], row[rows[2].indexOf('Came up')]]).toEqual(['250', '94']);
  });
});
