/**
 * The weeks attachment over the real weeks data/ ships (the shared fixture, harness/real-fixtures.ts): every
 * week is held as stored, each of the compared weeks answers as the import of its records row for row, the engine
 * answers them at their dated paths exactly as an engine over that week's import, and the features (timeline,
 * trends, any two weeks compared, one agency's sites) read the same weeks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, SqlJsStatic } from 'sql.js';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { WeeksStore } from '../../../engine/site-scanning/weeks.ts';
import { nodeBrotli } from '../../../adapters/node/datasets/brotli-sync.ts';
import { diffWeeks, websitesSites } from '../../../engine/site-scanning/week-diff.ts';
import { shippedWeeks } from '../../../tools/site-scanning-source/shipped-weeks.ts';
import { weeksFeatures } from '../../../dataset/websites/weeks.ts';
import type { FeatureHost } from '../../../dataset/feature-host.ts';
import { agencyAnalysis, listWebsites } from '../../../adapters/node/doors/mcp-websites.ts';
import { COMPARED_WEEKS, type ComparedWeek } from '../../../harness/weeks-fixture.ts';
import { realWeek, realWeeks } from '../../../harness/real-fixtures.ts';

const [FEBRUARY, MARCH, NEWEST] = COMPARED_WEEKS;

let SQL: SqlJsStatic;
let weeksDb: Database;
let weeks: WeeksStore;
const imported = new Map<ComparedWeek, Database>();

beforeAll(async () => {
  SQL = await loadSqlJs();
  weeksDb = (await realWeeks(SQL)).db;
  weeks = new WeeksStore(weeksDb, nodeBrotli);
  for (const date of COMPARED_WEEKS) imported.set(date, (await realWeek(SQL, date)).db);
}, 600_000);

afterAll(() => {
  weeksDb.close();
  for (const db of imported.values()) db.close();
});

/** Every record of a week as its listing reads them, from the stored weeks. */
function storedWeek(date: string): string[] {
  const reader = weeks.reader(weeks.week(date)!);
  const positions = reader.select({});
  return reader.page(positions, 0, positions.length);
}

const importedRecords = (db: Database): string[] => db.exec('SELECT record FROM websites ORDER BY sort_key')[0].values.map(([r]) => String(r));

describe('the weeks as stored', () => {
  it('lists every shipped week with its own date and its count of sites, oldest first', () => {
    expect(weeks.weeks()).toEqual(shippedWeeks().weeks.map(({ date, count }) => ({ date, count })));
    expect(weeks.weeks()).toHaveLength(17);
    expect(weeks.weeks().filter((w) => COMPARED_WEEKS.includes(w.date as ComparedWeek))).toEqual([
      { date: FEBRUARY, count: 29488 },
      { date: MARCH, count: 34770 },
      { date: NEWEST, count: 36331 },
    ]);
    // The first week is marked partial, with why; none after it is.
    expect(weeks.held.filter((w) => w.partial !== null).map((w) => w.date)).toEqual([FEBRUARY]);
    expect(weeks.held[0].partial).toContain('29,488 sites');
  });

  it('holds each week as the import of its records, record for record and in the same order', () => {
    for (const date of COMPARED_WEEKS) {
      const [got, want] = [storedWeek(date), importedRecords(imported.get(date)!)];
      // One comparison of 36,000 texts; the record-by-record diff only when they differ.
      if (JSON.stringify(got) !== JSON.stringify(want)) expect(got, date).toEqual(want);
      expect(got.length, date).toBe(weeks.week(date)!.count);
    }
    expect(weeks.handlers('2025-03-10')).toBeNull();
  });
});

describe('dated paths', () => {
  let engine: Engine;
  const reference = new Map<string, Engine>();

  beforeAll(() => {
    engine = createEngine();
    engine.use('websites', imported.get(NEWEST)!, null, NEWEST);
    engine.attach('websites', weeks);
    for (const [date, db] of imported) {
      const one = createEngine();
      one.use('websites', db, null, date);
      reference.set(date, one);
    }
  });

  const get = (e: Engine, url: string) => {
    const r = e.handle({ method: 'GET', url });
    return { status: r.status, body: r.body };
  };

  it('answers /snapshots with every week held, oldest first', () => {
    const answer = engine.handle({ method: 'GET', url: '/snapshots' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(String(answer.body))).toEqual({ snapshots: weeks.weeks() });
    // Site Scanning answers another method as Express does: 404, `Cannot POST /snapshots`.
    expect(JSON.parse(String(engine.handle({ method: 'POST', url: '/snapshots' }).body)).message).toBe('Cannot POST /snapshots');
  });

  it('answers each week as an engine over that week alone, the weeks asked in turn, twice', () => {
    const paths = [
      '/analysis',
      '/websites?limit=7&page=40',
      '/websites?final_url_live=true&target_url_agency_owner=General%20Services%20Administration',
      '/websites/usa.gov',
    ];
    for (const round of [1, 2]) {
      for (const date of COMPARED_WEEKS) {
        for (const path of paths) {
          const url = `/snapshots/${date}${path}`;
          expect(get(engine, url), `${url} (round ${round})`).toEqual(get(reference.get(date)!, url));
        }
      }
    }
  });

  it('answers the newest week from the weeks too, as from its own dataset', () => {
    const alone = createEngine();
    alone.attach('websites', weeks);
    for (const path of ['/analysis', '/websites?limit=100&page=3', '/websites/usa.gov']) {
      const url = `/snapshots/${NEWEST}${path}`;
      expect(get(alone, url), url).toEqual(get(reference.get(NEWEST)!, url));
    }
  });

  it('answers the MCP tools for a week asked by its date', () => {
    const listed = listWebsites(engine, { snapshot: MARCH, final_url_live: true, limit: 3 });
    expect(listed.api_url).toBe(`/snapshots/${MARCH}/websites?final_url_live=true&limit=3`);
    const { meta, items } = JSON.parse(String(reference.get(MARCH)!.handle({ method: 'GET', url: listed.api_url }).body));
    expect(listed).toEqual({ api_url: listed.api_url, meta, items });
    const agency = agencyAnalysis(engine, { agency: 'General Services Administration', snapshot: FEBRUARY });
    const february = agencyAnalysis(reference.get(FEBRUARY)!, { agency: 'General Services Administration', snapshot: FEBRUARY });
    expect(agency).toEqual(february);
    expect(agency).not.toEqual(agencyAnalysis(engine, { agency: 'General Services Administration' }));
  });

  it('answers 404 for a week it does not hold', () => {
    const answer = get(engine, '/snapshots/2025-03-10/websites');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).message).toBe('Cannot GET /snapshots/2025-03-10/websites');
  });
});

describe('the weeks features', () => {
  const host = { attached: async () => weeks } as unknown as FeatureHost;
  const features = weeksFeatures(host);

  it('lists the weeks and the partial one, and says null when the weeks are not loaded', async () => {
    expect(await features.weeksHeld()).toEqual({ weeks: weeks.weeks(), partial: [{ date: FEBRUARY, why: weeks.held[0].partial }] });
    expect(await weeksFeatures({ attached: async () => null } as unknown as FeatureHost).weeksHeld()).toBeNull();
  });

  it('draws trends whose groups add up to each week’s sites, the measures counted as the roll-ups count them', async () => {
    const trends = (await features.weeklyTrends({ by: 'agency' }))!;
    expect(trends.dates).toEqual(weeks.weeks().map((w) => w.date));
    trends.dates.forEach((date, i) => {
      expect(trends.series.reduce((n, s) => n + s.points[i].sites, 0)).toBe(weeks.weeks()[i].count);
    });
    const gsa = trends.series.find((s) => s.name === 'General Services Administration')!;
    const newest = imported.get(NEWEST)!;
    const [sites, dap, banner] = newest.exec(
      "SELECT COUNT(*), SUM(dap_detected_final_url = 1), SUM(ds_banner_heres_how = 1) FROM websites WHERE target_url_agency_owner = 'General Services Administration'",
    )[0].values[0];
    const last = gsa.points[gsa.points.length - 1];
    expect([last.sites, last.dap, last.banner]).toEqual([sites, dap, banner]);
    const bureaus = (await features.weeklyTrends({ by: 'bureau', agency: 'General Services Administration' }))!;
    expect(bureaus.series.reduce((n, s) => n + s.points[s.points.length - 1].sites, 0)).toBe(sites);
  });

  it('gives a site’s weeks, absent where a week did not list it, changes marked', async () => {
    const urls = (db: Database) => db.exec('SELECT target_url FROM websites')[0].values.map(([u]) => String(u));
    const february = new Set(urls(imported.get(FEBRUARY)!));
    const june = imported.get(NEWEST)!;
    const timeline = (await features.siteTimeline('usa.gov'))!;
    expect(timeline.weeks.map((w) => w.date)).toEqual(weeks.weeks().map((w) => w.date));
    const live = june.exec("SELECT final_url_live FROM websites WHERE target_url = 'usa.gov' ORDER BY sort_key LIMIT 1")[0].values[0][0];
    expect(timeline.weeks.at(-1)!.values.final_url_live).toBe(live === null ? null : live === 1);
    expect(timeline.weeks[0].changed).toEqual([]);
    // A site June lists and February did not.
    const later = (await features.siteTimeline(urls(june).find((u) => !february.has(u))!))!;
    expect(later.weeks[0]).toEqual({ date: FEBRUARY, state: 'absent', values: {}, changed: [] });
    expect(later.weeks.at(-1)!.state).toBe('present');
    expect(await features.siteTimeline('no-such-site.example')).toBeNull();
  });

  it('compares any two weeks as the comparison of their imports does, lost and came up by one rule', async () => {
    const compared = await features.compareWeeks(FEBRUARY, NEWEST);
    expect(compared.ok).toBe(true);
    if (!compared.ok) return;
    expect(compared.diff).toEqual(diffWeeks(websitesSites(imported.get(FEBRUARY)!), websitesSites(imported.get(NEWEST)!)));
    expect(compared.diff.totals).toMatchObject({ lost: 1312, came_up: 538 });
    // Backwards, a site lost is one that came up, and the other way round.
    const back = await features.compareWeeks(NEWEST, FEBRUARY);
    expect(back.ok && [back.diff.totals.lost, back.diff.totals.came_up]).toEqual([538, 1312]);
    const missing = await features.compareWeeks('2025-03-10', NEWEST);
    expect(missing).toEqual({ ok: false, message: 'The weeks could not be compared: no week of 2025-03-10 is held' });
  });

  it('compares one agency’s sites, by bureau, failed scans counted on both sides', async () => {
    const energy = await features.compareWeeks(FEBRUARY, NEWEST, { agency: 'Department of Energy' });
    expect(energy.ok).toBe(true);
    if (!energy.ok) return;
    expect(energy.diff.by).toBe('bureau');
    expect(energy.diff.totals).toMatchObject({ lost: 250, came_up: 94 });
    expect(energy.diff.changes.every((c) => c.agency === 'Department of Energy')).toBe(true);
    const all = await features.compareWeeks(FEBRUARY, NEWEST);
    if (!all.ok) return;
    expect(energy.diff.changes).toEqual(all.diff.changes.filter((c) => c.agency === 'Department of Energy'));
    expect(energy.diff.groups.reduce((n, g) => n + g.counts.came_up, 0)).toBe(94);
  });
});
