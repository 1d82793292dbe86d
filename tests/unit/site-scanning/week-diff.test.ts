/**
 * Two weeks compared (engine/site-scanning/week-diff.ts) over two small weekly files imported the way the app
 * imports them, against a reference written out by hand from the files: every site added, removed and changed,
 * per agency, per bureau of one agency, lost and came up by one symmetric rule, with the bureau in the CSV.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import type { Database } from 'sql.js';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { importIntoDatabase } from '../../../dataset/import/index.ts';
import { diffWeeks, groupChangesCsv, websitesSites, weekDiffCsv, type ComparedSite, type WeekDiff } from '../../../engine/site-scanning/week-diff.ts';
import { fixtureText } from '../import/helpers.ts';
import { EPA, EPA_OMS, GSA, NASA, WEEK1_TO_WEEK2 } from '../../fixtures/week-diff.ts';

let week1: Map<string, ComparedSite>;
let week2: Map<string, ComparedSite>;
let diff: WeekDiff;

beforeAll(async () => {
  const SQL = await loadSqlJs();
  const sites = async (file: string): Promise<Map<string, ComparedSite>> => {
    const { db } = await importIntoDatabase(SQL, fixtureText(file));
    const read = websitesSites(db as Database);
    db.close();
    return read;
  };
  week1 = await sites('websites-week1.csv');
  week2 = await sites('websites-week2.csv');
  diff = diffWeeks(week1, week2);
});

const key = (c: { kind: string; targetUrl: string }) => `${c.kind} ${c.targetUrl}`;

describe('two weeks compared', () => {
  it('finds every site added, removed and changed, and nothing else', () => {
    expect(diff.sites).toEqual({ before: 6, after: 7 });
    expect(diff.changes.map(key).sort()).toEqual(WEEK1_TO_WEEK2.map(([kind, url]) => `${kind} ${url}`).sort());
    for (const [kind, url, agency, before, after, bureau] of WEEK1_TO_WEEK2) {
      expect(diff.changes.find((c) => key(c) === `${kind} ${url}`)).toEqual({ kind, targetUrl: url, agency, bureau, before, after });
    }
  });

  it('counts per agency and in total', () => {
    expect(diff.by).toBe('agency');
    const per = Object.fromEntries(diff.groups.map((g) => [g.name, Object.fromEntries(Object.entries(g.counts).filter(([, n]) => n > 0))]));
    expect(per).toEqual({
      [GSA]: { removed: 1, lost: 1, dap_gained: 1, uswds_gained: 1 },
      [EPA]: { added: 1, came_up: 1, dap_lost: 1, status_changed: 1 },
      [NASA]: { added: 1 },
    });
    expect(diff.totals.added).toBe(2);
    expect(diff.groups.map((g) => g.name)).toEqual([EPA, GSA, NASA]);
  });

  it('the same week twice has no changes; swapped, added and removed, lost and came up trade places', () => {
    expect(diffWeeks(week1, week1).changes).toEqual([]);
    const back = diffWeeks(week2, week1);
    expect(back.totals.added).toBe(diff.totals.removed);
    expect(back.totals.removed).toBe(diff.totals.added);
    expect(back.totals.came_up).toBe(diff.totals.lost);
    expect(back.totals.lost).toBe(diff.totals.came_up);
  });

  it('limits the comparison to one agency’s sites, counted per bureau, and to one bureau of it', () => {
    const epa = diffWeeks(week1, week2, { agency: EPA });
    expect(epa.sites).toEqual({ before: 2, after: 3 });
    expect(epa.by).toBe('bureau');
    expect(epa.groups.map((g) => g.name)).toEqual([EPA_OMS]);
    expect(epa.changes).toEqual(diff.changes.filter((c) => c.agency === EPA));
    expect(diffWeeks(week1, week2, { agency: EPA, bureau: EPA_OMS }).changes).toEqual(epa.changes);
    expect(diffWeeks(week1, week2, { agency: EPA, bureau: 'another bureau' }).changes).toEqual([]);
    // A bureau of '' is the agency's sites without one.
    expect(diffWeeks(week1, week2, { agency: NASA, bureau: '' }).changes.map(key)).toEqual(['added g.nasa.gov']);
  });

  it('writes one CSV row per change after the notes, with the bureau', () => {
    const rows = Papa.parse<string[]>(weekDiffCsv(diff, [['From', 'week1.csv']]), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['From', 'week1.csv']);
    expect(rows[1]).toEqual(['Sites compared', 'every agency']);
    expect(rows[4]).toEqual(['Change', 'Target URL', 'Agency', 'Bureau', 'Before', 'After']);
    expect(rows.length - 5).toBe(WEEK1_TO_WEEK2.length);
    expect(rows).toContainEqual(['Live sites lost', 'a.gsa.gov', GSA, 'GSA, TTS', 'live', 'not live']);
    const epa = diffWeeks(week1, week2, { agency: EPA });
    const scoped = Papa.parse<string[]>(groupChangesCsv(epa, epa.groups, [['From', 'week1.csv']]), { skipEmptyLines: true }).data;
    expect(scoped.slice(0, 3)).toEqual([['From', 'week1.csv'], ['Agency', EPA], scoped[2]]);
    expect(scoped[2][0]).toBe('Bureau');
    expect(scoped[3][0]).toBe(EPA_OMS);
  });
});
