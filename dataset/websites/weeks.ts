/** The weeks' features (weeks-contract.ts): the weeks held, a site's timeline, trends, any two weeks compared. */
import type { WeeksStore } from '../../engine/site-scanning/weeks.ts';
import { diffWeeks, type ComparedSite } from '../../engine/site-scanning/week-diff.ts';
import { MEASURES, type Measure } from '../../engine/site-scanning/measures.ts';
import type { FeatureHost } from '../feature-host.ts';
import type { CompareOutcome, TrendPoint, TrendSeries, TrendsQuery, WeeklyTrends, WeeksFeatures } from './weeks-contract.ts';

const DATASET = 'websites';

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const emptyPoint = (date: string): TrendPoint => ({
  date,
  sites: 0,
  ...(Object.fromEntries(MEASURES.map((m) => [m, 0])) as Record<Measure, number>),
  outcomes: {},
});

/** Per-week trends of each agency (or bureau): every week present, 0 sites where the group had none. */
export function trendsOf(weeks: WeeksStore, query: TrendsQuery): WeeklyTrends {
  const dates = weeks.held.map((w) => w.date);
  const series = new Map<string, TrendSeries>();
  for (const fact of weeks.facts(query.by, query.agency)) {
    const key = JSON.stringify(fact.name);
    let found = series.get(key);
    if (!found) series.set(key, (found = { name: fact.name, points: dates.map(emptyPoint) }));
    const { name: _, ...point } = fact;
    found.points[dates.indexOf(fact.date)] = point;
  }
  const newest = (s: TrendSeries): number => s.points[s.points.length - 1]?.sites ?? 0;
  const sorted = [...series.values()].sort((a, b) => newest(b) - newest(a) || String(a.name).localeCompare(String(b.name)));
  return { dates, series: sorted };
}

export function weeksFeatures(host: FeatureHost): WeeksFeatures {
  const weeks = async (): Promise<WeeksStore | null> => (await host.attached?.(DATASET)) ?? null;
  return {
    async weeksHeld() {
      const held = await weeks();
      if (!held) return null;
      return { weeks: held.weeks(), partial: held.held.flatMap(({ date, partial }) => (partial === null ? [] : [{ date, why: partial }])) };
    },

    async weeksRefused() {
      await weeks();
      return host.attachmentRefusal?.(DATASET) ?? null;
    },

    async siteTimeline(targetUrl) {
      const rows = (await weeks())?.timeline(targetUrl) ?? null;
      return rows ? { targetUrl, weeks: rows } : null;
    },

    async weeklyTrends(query) {
      const held = await weeks();
      return held ? trendsOf(held, query) : null;
    },

    async compareWeeks(before, after, scope = {}): Promise<CompareOutcome> {
      const held = await weeks();
      if (!held) return { ok: false, message: 'The weeks are not loaded: load them to compare any two weeks.' };
      try {
        const sites = (date: string): Map<string, ComparedSite> => {
          const found = held.sites(date);
          if (!found) throw new Error(`no week of ${date} is held`);
          return found;
        };
        return { ok: true, diff: diffWeeks(sites(before), sites(after), scope) };
      } catch (error) {
        return { ok: false, message: `The weeks could not be compared: ${message(error)}` };
      }
    },
  };
}
