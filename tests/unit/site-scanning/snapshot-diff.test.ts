/**
 * The snapshot diff over two small weekly files imported the way the app imports them, against a
 * reference written out by hand from the files: every site added, removed and changed, per agency.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import type { Database } from 'sql.js';
import { loadSqlJs } from '../../../adapters/node/sqljs-node.ts';
import { importIntoDatabase } from '../../../dataset/import/index.ts';
import { diffSnapshots, snapshotDiffCsv, type SnapshotDiff } from '../../../engine/site-scanning/snapshot-diff.ts';
import { fixtureText } from '../import/helpers.ts';
import { EPA, GSA, NASA, WEEK1_TO_WEEK2 } from '../../fixtures/week-diff.ts';

let week1: Database;
let week2: Database;
let diff: SnapshotDiff;

beforeAll(async () => {
  const SQL = await loadSqlJs();
  week1 = (await importIntoDatabase(SQL, fixtureText('websites-week1.csv'))).db;
  week2 = (await importIntoDatabase(SQL, fixtureText('websites-week2.csv'))).db;
  diff = diffSnapshots(week1, week2);
});

const key = (c: { kind: string; targetUrl: string }) => `${c.kind} ${c.targetUrl}`;

describe('snapshot diff', () => {
  it('finds every site added, removed and changed, and nothing else', () => {
    expect(diff.sites).toEqual({ before: 6, after: 7 });
    expect(diff.changes.map(key).sort()).toEqual(WEEK1_TO_WEEK2.map(([kind, url]) => `${kind} ${url}`).sort());
    for (const [kind, url, agency, before, after] of WEEK1_TO_WEEK2) {
      expect(diff.changes.find((c) => key(c) === `${kind} ${url}`)).toEqual({ kind, targetUrl: url, agency, before, after });
    }
  });

  it('counts per agency and in total', () => {
    const per = Object.fromEntries(diff.agencies.map((a) => [a.agency, Object.fromEntries(Object.entries(a.counts).filter(([, n]) => n > 0))]));
    expect(per).toEqual({
      [GSA]: { removed: 1, lost: 1, dap_gained: 1, uswds_gained: 1 },
      [EPA]: { added: 1, came_up: 1, dap_lost: 1, status_changed: 1 },
      [NASA]: { added: 1 },
    });
    expect(diff.totals.added).toBe(2);
    expect(diff.agencies.map((a) => a.agency)).toEqual([EPA, GSA, NASA]);
  });

  it('the same snapshot twice has no changes; swapped, added and removed trade places', () => {
    expect(diffSnapshots(week1, week1).changes).toEqual([]);
    const back = diffSnapshots(week2, week1);
    expect(back.totals.added).toBe(diff.totals.removed);
    expect(back.totals.removed).toBe(diff.totals.added);
    expect(back.totals.came_up).toBe(diff.totals.lost);
  });

  it('writes one CSV row per change after the notes', () => {
    const rows = Papa.parse<string[]>(snapshotDiffCsv(diff, [['From', 'week1.csv']]), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['From', 'week1.csv']);
    expect(rows[3]).toEqual(['Change', 'Target URL', 'Agency', 'Before', 'After']);
    expect(rows.length - 4).toBe(WEEK1_TO_WEEK2.length);
    expect(rows).toContainEqual(['Live sites lost', 'a.gsa.gov', GSA, 'live', 'not live']);
  });
});
