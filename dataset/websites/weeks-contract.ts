/**
 * What the app asks of the weekly Site Scanning lists (the websites dataset's weeks attachment), across the DB
 * worker. The data side (dataset/websites/weeks.ts) answers these; the views draw them. Plain data: they cross
 * workers.
 */
import type { WeekEntry } from '../../engine/http/snapshots.ts';
import type { DiffScope, WeekDiff } from '../../engine/site-scanning/week-diff.ts';
import type { Measure } from '../../engine/site-scanning/measures.ts';
import type { TimelineRow } from '../../engine/site-scanning/weeks.ts';

export type { WeekEntry, TimelineRow };

/** The weeks held, and those whose list is known to be incomplete. */
export interface WeeksHeld {
  /** Oldest first. */
  weeks: WeekEntry[];
  /** A partial week's day and why it is partial (the first week: the copying job's first runs). */
  partial: { date: string; why: string }[];
}

export interface SiteTimeline {
  targetUrl: string;
  /** Oldest first. */
  weeks: TimelineRow[];
}

/** One group's figures in one week; shares are counts, the view divides by `sites` (its stated denominator). */
export interface TrendPoint extends Record<Measure, number> {
  date: string;
  sites: number;
  /** Sites per primary scan status that week (e.g. completed, timeout, dns_resolution_error). */
  outcomes: Record<string, number>;
}

export interface TrendSeries {
  /** The agency or bureau name; null for records with none. */
  name: string | null;
  /** Oldest first, one per week the dataset holds (sites 0 when the group had none that week). */
  points: TrendPoint[];
}

export interface TrendsQuery {
  by: 'agency' | 'bureau';
  /** With by=bureau: only that agency's bureaus. */
  agency?: string;
}

export interface WeeklyTrends {
  dates: string[];
  /** All groups, most sites in the newest week first. */
  series: TrendSeries[];
}

export type CompareOutcome = { ok: true; diff: WeekDiff } | { ok: false; message: string };

/** Features over the weeks; `null`/`{ ok: false }` when they are not loaded (the view offers to load them). */
export interface WeeksFeatures {
  weeksHeld(): Promise<WeeksHeld | null>;
  /** Why the weeks kept here could not be read (a copy an older version kept: loading them again replaces it), or null. */
  weeksRefused(): Promise<string | null>;
  siteTimeline(targetUrl: string): Promise<SiteTimeline | null>;
  weeklyTrends(query: TrendsQuery): Promise<WeeklyTrends | null>;
  /** Any two weeks compared (week-diff.ts: lost and came up by one rule, DAP, …, per agency), all sites or one agency's (bureau's). */
  compareWeeks(before: string, after: string, scope?: DiffScope): Promise<CompareOutcome>;
}
