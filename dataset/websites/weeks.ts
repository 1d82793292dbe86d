/** The weeks dataset's features (weeks-contract.ts): the weeks held, a site's timeline, trends, any two weeks compared. */
import type { Database } from 'sql.js';
import { siteWeeks, weekFacts, weekList } from '../../engine/site-scanning/weeks.ts';
import { diffSnapshots } from '../../engine/site-scanning/snapshot-diff.ts';
import type { FeatureHost } from '../feature-host.ts';
import type { SiteTimeline, SnapshotWeek, TrendPoint, TrendSeries, TrendsQuery, WeeklyTrends, WeeksFeatures } from './weeks-contract.ts';

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Per-week trends of each agency (or bureau): every week present, 0 sites where the group had none. */
export function trendsOf(db: Database, query: TrendsQuery): WeeklyTrends {
  const dates = weekList(db).map((w) => w.date);
  const series = new Map<string, TrendSeries>();
  for (const fact of weekFacts(db, query.by, query.agency)) {
    const key = JSON.stringify(fact.name);
    let found = series.get(key);
    if (!found) {
      const points: TrendPoint[] = dates.map((date) => ({ date, sites: 0, live: 0, dap: 0, uswds: 0, outcomes: {} }));
      series.set(key, (found = { name: fact.name, points }));
    }
    const { name: _, ...point } = fact;
    found.points[dates.indexOf(fact.date)] = point;
  }
  const newest = (s: TrendSeries): number => s.points[s.points.length - 1]?.sites ?? 0;
  const sorted = [...series.values()].sort((a, b) => newest(b) - newest(a) || String(a.name).localeCompare(String(b.name)));
  return { dates, series: sorted };
}

export function weeksFeatures(host: FeatureHost): WeeksFeatures {
  const weeks = async () => (await host.weeks?.()) ?? null;
  return {
    async snapshotWeeks(): Promise<SnapshotWeek[] | null> {
      const held = await weeks();
      return held ? weekList(held.db) : null;
    },

    async siteTimeline(targetUrl: string): Promise<SiteTimeline | null> {
      const held = await weeks();
      const rows = held ? siteWeeks(held.db, targetUrl) : null;
      return rows ? { targetUrl, weeks: rows } : null;
    },

    async weeklyTrends(query: TrendsQuery): Promise<WeeklyTrends | null> {
      const held = await weeks();
      return held ? trendsOf(held.db, query) : null;
    },

    async compareWeeks(before: string, after: string) {
      const held = await weeks();
      if (!held) return { ok: false, message: 'The weeks dataset is not loaded: load it to compare any two weeks.' };
      try {
        // The engine's copies: a week a dated request already made is not made again. It keeps two at once.
        const week = (date: string): Database => {
          const db = held.week(date);
          if (!db) throw new Error(`the weeks dataset holds no week of ${date}`);
          return db;
        };
        const first = week(before);
        return { ok: true, diff: diffSnapshots(first, week(after)) };
      } catch (error) {
        return { ok: false, message: `The weeks could not be compared: ${message(error)}` };
      }
    },
  };
}
