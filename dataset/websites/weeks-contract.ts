/**
 * What the app asks of the weekly Site Scanning snapshots (the built-in weeks dataset), across the DB worker.
 * The data side (dataset/websites/features.ts) answers these; the views draw them. Plain data: they cross workers.
 */
import type { SnapshotDiff } from '../../engine/site-scanning/snapshot-diff.ts';

/** One week the weeks dataset holds. */
export interface SnapshotWeek {
  /** YYYY-MM-DD, the snapshot's own day (the path segment of /snapshots/<date>/…). */
  date: string;
  /** Sites listed that week. */
  count: number;
}

/** One week of one site: the core fields' values that week, and which of them differ from the week before. */
export interface TimelineWeek {
  date: string;
  /** `absent`: that week's list had no such site (values is empty). */
  state: 'present' | 'absent';
  values: Record<string, unknown>;
  /** Fields whose value differs from the previous (older) week present; empty for the oldest week. */
  changed: string[];
}

export interface SiteTimeline {
  targetUrl: string;
  /** Oldest first. */
  weeks: TimelineWeek[];
}

/** One group's figures in one week; shares are counts, the view divides by `sites` (its stated denominator). */
export interface TrendPoint {
  date: string;
  sites: number;
  live: number;
  dap: number;
  uswds: number;
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

/** Features over the weeks dataset; `null`/`{ ok: false }` when it is not loaded (the view offers to load it). */
export interface WeeksFeatures {
  snapshotWeeks(): Promise<SnapshotWeek[] | null>;
  siteTimeline(targetUrl: string): Promise<SiteTimeline | null>;
  weeklyTrends(query: TrendsQuery): Promise<WeeklyTrends | null>;
  /** The existing snapshot comparison (live sites lost, DAP…, per agency) between any two weeks the dataset holds. */
  compareWeeks(before: string, after: string): Promise<{ ok: true; diff: SnapshotDiff } | { ok: false; message: string }>;
}

/**
 * The manifest extra (`extras[].id`) that holds the weeks dataset: the views find it by this id to offer loading it
 * (importBuiltIn) when the features answer null. Added by the views' side; the build names its extra with it.
 */
export const WEEKS_EXTRA_ID = 'websites-weeks';
