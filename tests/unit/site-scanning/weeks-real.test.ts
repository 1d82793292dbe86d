/**
 * The built-in weeks dataset over the real weeks shipped in data/ (a copy holding three of them, for speed):
 * each week rebuilt from its differences is the import of that week's records row for row, the engine answers
 * every held week at its dated paths exactly as an engine over that week's import, and the features (timeline,
 * trends, any two weeks compared) read the same weeks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, SqlJsStatic } from 'sql.js';
import { loadSqlJs } from '../../../adapters/node/sqljs-node.ts';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { weekList } from '../../../engine/site-scanning/weeks.ts';
import { weekDatabase as rebuiltWeek, weekSource } from '../../../dataset/websites/week-source.ts';
import { nodeBrotli } from '../../../adapters/node/brotli-sync.ts';
import { diffSnapshots } from '../../../engine/site-scanning/snapshot-diff.ts';
import { weeksDatabase } from '../../../tools/site-scanning-source/weeks-dataset.ts';
import { NEWEST_SNAPSHOT, snapshotDatabase } from '../../../tools/real-data.ts';
import { weeksFeatures } from '../../../dataset/websites/weeks.ts';
import type { FeatureHost, HeldWeeks } from '../../../dataset/feature-host.ts';
import { agencyAnalysis, listWebsites } from '../../../adapters/node/mcp-tools.ts';

const MARCH = '2025-03-17';
const FEBRUARY = '2025-02-10';

let SQL: SqlJsStatic;
let weeks: Database;
const imported = new Map<string, Database>();

beforeAll(async () => {
  SQL = await loadSqlJs();
  weeks = (await weeksDatabase(SQL, { only: [FEBRUARY, MARCH] })).db;
  for (const date of [FEBRUARY, MARCH, NEWEST_SNAPSHOT]) imported.set(date, (await snapshotDatabase(SQL, date)).db);
}, 300_000);

afterAll(() => {
  weeks.close();
  for (const db of imported.values()) db.close();
});

const weekDatabase = (date: string) => rebuiltWeek(SQL, weeks, date, nodeBrotli);
const rows = (db: Database) => db.exec('SELECT sort_key, target_url, record FROM websites ORDER BY sort_key')[0].values;

describe('the weeks database', () => {
  it('lists each week with its own date and its count of sites', () => {
    expect(weekList(weeks)).toEqual([
      { date: FEBRUARY, count: 29488 },
      { date: MARCH, count: 34770 },
      { date: NEWEST_SNAPSHOT, count: 36331 },
    ]);
  });

  it('rebuilds every week as the import of its records, row for row and in the same order', () => {
    for (const date of [FEBRUARY, MARCH, NEWEST_SNAPSHOT]) {
      const week = weekDatabase(date)!;
      const [got, want] = [rows(week), rows(imported.get(date)!)];
      week.close();
      // One comparison of 36,000 rows' texts; the row-by-row diff only when they differ.
      if (JSON.stringify(got) !== JSON.stringify(want)) expect(got, date).toEqual(want);
      expect(got.length, date).toBe(weekList(weeks).find((w) => w.date === date)!.count);
    }
    expect(weekDatabase('2025-03-10')).toBeNull();
  }, 600_000);
});

describe('dated paths', () => {
  let engine: Engine;
  const reference = new Map<string, Engine>();

  beforeAll(() => {
    engine = createEngine();
    engine.use('websites', imported.get(NEWEST_SNAPSHOT)!, null, NEWEST_SNAPSHOT);
    engine.useWeeks('websites', weekSource(SQL, weeks, nodeBrotli));
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
    expect(JSON.parse(String(answer.body))).toEqual({ snapshots: weekList(weeks) });
    // Site Scanning answers another method as Express does: 404, `Cannot POST /snapshots`.
    expect(JSON.parse(String(engine.handle({ method: 'POST', url: '/snapshots' }).body)).message).toBe('Cannot POST /snapshots');
  });

  it('answers each week as an engine over that week alone, after other weeks were bound and let go', { timeout: 600_000 }, () => {
    const paths = [
      '/analysis',
      '/websites?limit=7&page=40',
      '/websites?final_url_live=true&target_url_agency_owner=General%20Services%20Administration',
      '/websites/usa.gov',
    ];
    // Three weeks asked in turn, twice: more than are kept bound, so weeks are rebuilt after being let go.
    for (const round of [1, 2]) {
      for (const date of [FEBRUARY, MARCH, NEWEST_SNAPSHOT]) {
        for (const path of paths) {
          const url = `/snapshots/${date}${path}`;
          expect(get(engine, url), `${url} (round ${round})`).toEqual(get(reference.get(date)!, url));
        }
      }
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
    expect(JSON.parse(String(answer.body)).message).toBe('Cannot GET /snapshots/2025-03-10/websites');
  });
});

describe('the weeks features', () => {
  // As the dataset host lends them: the weeks of an engine, counted as they are rebuilt.
  const rebuilt: string[] = [];
  let weeksEngine: Engine | null = null;
  const held = (): HeldWeeks => {
    if (!weeksEngine) {
      const source = weekSource(SQL, weeks, nodeBrotli);
      weeksEngine = createEngine();
      weeksEngine.useWeeks('websites', { weeks: () => source.weeks(), open: (date) => (rebuilt.push(date), source.open(date)) });
    }
    const engine = weeksEngine;
    return { db: weeks, week: (date) => engine.heldWeek('websites', date) };
  };
  const host = { weeks: async () => held() } as unknown as FeatureHost;
  const features = weeksFeatures(host);

  it('lists the weeks, and says null when the weeks dataset is not loaded', async () => {
    expect(await features.snapshotWeeks()).toEqual(weekList(weeks));
    expect(await weeksFeatures({ weeks: async () => null } as unknown as FeatureHost).snapshotWeeks()).toBeNull();
  });

  it('draws trends whose groups add up to each week’s sites', async () => {
    const trends = (await features.weeklyTrends({ by: 'agency' }))!;
    expect(trends.dates).toEqual([FEBRUARY, MARCH, NEWEST_SNAPSHOT]);
    trends.dates.forEach((date, i) => {
      expect(trends.series.reduce((n, s) => n + s.points[i].sites, 0)).toBe(weekList(weeks)[i].count);
    });
    const gsa = trends.series.find((s) => s.name === 'General Services Administration')!;
    const newest = imported.get(NEWEST_SNAPSHOT)!;
    const [sites, dap] = newest.exec(
      "SELECT COUNT(*), SUM(dap_detected_final_url = 1) FROM websites WHERE target_url_agency_owner = 'General Services Administration'",
    )[0].values[0];
    expect([gsa.points[2].sites, gsa.points[2].dap]).toEqual([sites, dap]);
    const bureaus = (await features.weeklyTrends({ by: 'bureau', agency: 'General Services Administration' }))!;
    expect(bureaus.series.reduce((n, s) => n + s.points[2].sites, 0)).toBe(sites);
  });

  it('gives a site’s weeks, absent where a week did not list it, changes marked', async () => {
    const urls = (db: Database) => db.exec('SELECT target_url FROM websites')[0].values.map(([u]) => String(u));
    const february = new Set(urls(imported.get(FEBRUARY)!));
    const june = imported.get(NEWEST_SNAPSHOT)!;
    const timeline = (await features.siteTimeline('usa.gov'))!;
    expect(timeline.weeks.map((w) => w.date)).toEqual([FEBRUARY, MARCH, NEWEST_SNAPSHOT]);
    const live = june.exec("SELECT final_url_live FROM websites WHERE target_url = 'usa.gov' ORDER BY sort_key LIMIT 1")[0].values[0][0];
    expect(timeline.weeks[2].values.final_url_live).toBe(live === null ? null : live === 1);
    expect(timeline.weeks[0].changed).toEqual([]);
    // A site June lists and February did not.
    const later = (await features.siteTimeline(urls(june).find((u) => !february.has(u))!))!;
    expect(later.weeks[0]).toEqual({ date: FEBRUARY, state: 'absent', values: {}, changed: [] });
    expect(later.weeks[2].state).toBe('present');
    expect(await features.siteTimeline('no-such-site.example')).toBeNull();
  });

  it('compares any two weeks as the snapshot comparison of their imports does', { timeout: 600_000 }, async () => {
    // A week a dated request made is compared as it is, not made again.
    held();
    weeksEngine!.handle({ method: 'GET', url: `/snapshots/${FEBRUARY}/analysis` });
    const compared = await features.compareWeeks(FEBRUARY, NEWEST_SNAPSHOT);
    expect(rebuilt).toEqual([FEBRUARY, NEWEST_SNAPSHOT]);
    expect(compared.ok).toBe(true);
    if (!compared.ok) return;
    expect(compared.diff).toEqual(diffSnapshots(imported.get(FEBRUARY)!, imported.get(NEWEST_SNAPSHOT)!));
    expect(compared.diff.totals.lost).toBe(1312);
    const missing = await features.compareWeeks('2025-03-10', NEWEST_SNAPSHOT);
    expect(missing).toEqual({ ok: false, message: 'The weeks could not be compared: the weeks dataset holds no week of 2025-03-10' });
  });
});
