/** The weekly trends' measures, their definitions and denominators, the chosen lines and the CSV: plain functions. */
import { csvLine } from '../../../engine/ceilingrates/export.ts';
import { MEASURE_WORDS, MEASURES, type Measure } from '../../../engine/site-scanning/measures.ts';
import type { TrendPoint, TrendSeries, WeeklyTrends } from '../../api/db-client.ts';
import { formatCount } from '../common/format.ts';
import { percent } from '../websites-view/rollup-model.ts';
import { DEFAULT_GROUPS, type GroupOrder, type TrendMetric } from '../../state/weeks-query.ts';

/** Where the weeks come from, as the exports' header rows say it. */
export const WEEKS_SOURCE = 'GSA Site Scanning, every week published (public, CC0), as shipped with this app';

/** The name written for records with no agency (or bureau). */
export const NONE = '(none)';

export const groupName = (s: TrendSeries): string => s.name ?? NONE;

export interface MetricSpec {
  label: string;
  /** What is counted and over what, as the page says it (the denominator in words, not in a tooltip). */
  definition: string;
}

/** A measure's share: what it counts, out of every site in that week's list (measures.ts says what each counts). */
const share = (measure: Measure): MetricSpec => ({
  label: `% ${MEASURE_WORDS[measure].label}`,
  definition: `Sites where ${MEASURE_WORDS[measure].what}, out of every site in that week’s list (a failed or unscanned scan counts as not).`,
});

export const METRICS: Record<TrendMetric, MetricSpec> = {
  sites: { label: 'Sites', definition: 'Sites in that week’s list (every site, whatever its scan found).' },
  live: share('live'),
  dap: share('dap'),
  uswds: share('uswds'),
  banner: share('banner'),
  outcome: { label: 'Scan outcomes', definition: 'Sites whose primary scan ended with the chosen status, out of every site in that week’s list.' },
};

/** One week's figure of a measure: the count, and the sites it is a share of (null for the count of sites itself). */
export interface Figure {
  part: number;
  whole: number | null;
}

export function figure(point: TrendPoint, metric: TrendMetric, status: string): Figure {
  switch (metric) {
    case 'sites':
      return { part: point.sites, whole: null };
    case 'outcome':
      return { part: point.outcomes[status] ?? 0, whole: point.sites };
    default:
      return { part: point[metric], whole: point.sites };
  }
}

/** The value a line is drawn at: a count, or a percentage (null where the group had no sites that week). */
export function plotted(f: Figure): number | null {
  if (f.whole === null) return f.part;
  return f.whole === 0 ? null : (f.part / f.whole) * 100;
}

/** Every group's weeks added up: the whole list (by agency) or the agency (its bureaus). */
export function totalSeries(trends: WeeklyTrends, name: string): TrendSeries {
  const points = trends.dates.map((date, i) => {
    const sum: TrendPoint = { date, sites: 0, live: 0, dap: 0, uswds: 0, banner: 0, outcomes: {} };
    for (const s of trends.series) {
      const p = s.points[i];
      if (!p) continue;
      sum.sites += p.sites;
      for (const m of MEASURES) sum[m] += p[m];
      for (const [k, n] of Object.entries(p.outcomes)) sum.outcomes[k] = (sum.outcomes[k] ?? 0) + n;
    }
    return sum;
  });
  return { name, points };
}

/** Scan statuses seen in any week, most frequent first. */
export function outcomeStatuses(trends: WeeklyTrends): string[] {
  const seen = new Map<string, number>();
  for (const s of trends.series) for (const p of s.points) for (const [k, n] of Object.entries(p.outcomes)) seen.set(k, (seen.get(k) ?? 0) + n);
  return [...seen].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k);
}

/** The series drawn: the chosen names that exist, or the largest groups when none are chosen. */
export function chosenSeries(trends: WeeklyTrends, groups: readonly string[]): TrendSeries[] {
  if (!groups.length) return trends.series.slice(0, DEFAULT_GROUPS);
  const byName = new Map(trends.series.map((s) => [groupName(s), s]));
  return groups.flatMap((g) => byName.get(g) ?? []);
}

/** A share as the roll-up writes it (one decimal), or a count. */
export function formatFigure(f: Figure): string {
  return f.whole === null ? formatCount(f.part) : percent(f.part, f.whole);
}

/**
 * Every group's every week (a data file: one row per group and week, counts only, so a spreadsheet divides),
 * with the notes (grouping, source, definitions) on top.
 */
export function trendsCsv(trends: WeeklyTrends, total: TrendSeries, notes: readonly (readonly [string, string])[]): string {
  const statuses = outcomeStatuses(trends);
  const head = [
    'Group',
    'Week',
    'Sites',
    ...MEASURES.map((m) => MEASURE_WORDS[m].label.replace(/^./, (c) => c.toUpperCase())),
    ...statuses.map((s) => `Scan ${s}`),
  ];
  const rows = [total, ...trends.series].flatMap((s) =>
    s.points.map((p) => [groupName(s), p.date, p.sites, ...MEASURES.map((m) => p[m]), ...statuses.map((k) => p.outcomes[k] ?? 0)]),
  );
  return [...notes.map((n) => csvLine(n)), csvLine(head), ...rows.map((r) => csvLine(r))].join('\r\n') + '\r\n';
}

/** A group's measure in the first and the newest week, and the change between them (points for a share). */
export function firstAndLast(s: TrendSeries, metric: TrendMetric, status: string): { first: number | null; last: number | null; change: number | null } {
  const first = s.points[0] ? plotted(figure(s.points[0], metric, status)) : null;
  const last = s.points.length ? plotted(figure(s.points[s.points.length - 1], metric, status)) : null;
  return { first, last, change: first === null || last === null ? null : last - first };
}

/** The groups in the list's order; a group without the value sorted on goes last either way. */
export function sortGroups(series: readonly TrendSeries[], order: GroupOrder, dir: 'asc' | 'desc', metric: TrendMetric, status: string): TrendSeries[] {
  if (order === 'sites' && dir === 'desc') return [...series];
  const sign = dir === 'asc' ? 1 : -1;
  const value = (s: TrendSeries): number | string | null =>
    order === 'name' ? groupName(s) : order === 'sites' ? (s.points[s.points.length - 1]?.sites ?? 0) : firstAndLast(s, metric, status)[order];
  return [...series].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return sign * (typeof x === 'string' ? x.localeCompare(y as string) : x - (y as number));
  });
}

/** The trends from one week on ('' or a week not held: from the first). */
export function fromWeek(trends: WeeklyTrends, from: string): WeeklyTrends {
  const start = Math.max(0, trends.dates.indexOf(from));
  if (start === 0) return trends;
  return { dates: trends.dates.slice(start), series: trends.series.map((s) => ({ ...s, points: s.points.slice(start) })) };
}

/** The first week after the partial ones at the start, or null when the first week is complete. */
export function firstCompleteWeek(dates: readonly string[], partial: ReadonlySet<string>): string | null {
  if (!partial.has(dates[0])) return null;
  return dates.find((d) => !partial.has(d)) ?? null;
}
