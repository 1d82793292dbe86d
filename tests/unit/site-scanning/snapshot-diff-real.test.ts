/**
 * The real weeks shipped in data/ (2025-02-10, the build's extra, and 2025-06-09, the default): the live sites
 * lost are those live in February and not live, or not scanned to completion, in June — 1,312, the Department
 * of Energy first with 250. Counting live → not live alone gave 455.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { loadSqlJs } from '../../../adapters/node/sqljs-node.ts';
import { agencyChangesCsv, diffSnapshots, type SnapshotDiff } from '../../../engine/site-scanning/snapshot-diff.ts';
import { FIRST_SNAPSHOT, NEWEST_SNAPSHOT } from '../../../tools/real-data.ts';
import { realSnapshot } from '../../../harness/real-fixtures.ts';

let diff: SnapshotDiff;

beforeAll(async () => {
  const SQL = await loadSqlJs();
  const before = await realSnapshot(SQL, FIRST_SNAPSHOT);
  const after = await realSnapshot(SQL, NEWEST_SNAPSHOT);
  diff = diffSnapshots(before.db, after.db);
  before.db.close();
  after.db.close();
}, 180_000);

const lostBy = (agency: string) => diff.agencies.find((a) => a.agency === agency)?.counts.lost;

describe('the live sites lost between the real weeks', () => {
  it('counts 1,312, of which 857 failed their June scan', () => {
    expect(diff.sites).toEqual({ before: 29488, after: 36331 });
    expect(diff.totals.lost).toBe(1312);
    expect(diff.changes.filter((c) => c.kind === 'lost' && c.after.startsWith('scan failed')).length).toBe(857);
  });

  it('puts the Department of Energy first, with 250', () => {
    const first = [...diff.agencies].sort((x, y) => y.counts.lost - x.counts.lost)[0];
    expect([first.agency, first.counts.lost]).toEqual(['Department of Energy', 250]);
    expect(lostBy('Department of Health and Human Services')).toBeLessThan(250);
  });

  it('exports the per-agency counts with the weeks as header rows', () => {
    const rows = Papa.parse<string[]>(agencyChangesCsv(diff.agencies, [['Before', FIRST_SNAPSHOT]]), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Before', FIRST_SNAPSHOT]);
    expect(rows[1][0]).toBe('Agency');
    const energy = rows.find((r) => r[0] === 'Department of Energy')!;
    expect(energy[rows[1].indexOf('Live sites lost')]).toBe('250');
  });
});
