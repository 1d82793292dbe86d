import type { RouteHandler } from './routes.ts';

/**
 * `/snapshots/<YYYY-MM-DD>/<API path>`: the same API path, answered from the Site Scanning snapshot of that
 * date rather than the newest. route.ts reads the prefix; each backend says which dates it holds.
 */

const DATED = /^\/snapshots\/(\d{4}-\d{2}-\d{2})(\/.*)$/;

export interface SnapshotPath {
  /** YYYY-MM-DD as written in the path (checked as a calendar date). */
  snapshot: string;
  /** The API path below the prefix, e.g. `/websites`. */
  pathname: string;
}

/** True for a real calendar date written YYYY-MM-DD (2025-02-30 is not one). */
export function isSnapshotDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The snapshot a path names and the API path below it; null for a path without the prefix or a real date. */
export function splitSnapshotPath(pathname: string): SnapshotPath | null {
  const match = DATED.exec(pathname);
  if (!match || !isSnapshotDate(match[1])) return null;
  return { snapshot: match[1], pathname: match[2] };
}

/** `GET /snapshots`: the list of the weeks held (docs/api/snapshots.md). */
export const SNAPSHOT_LIST_PATH = '/snapshots';
/** The route name `/snapshots` is routed to, in the API that answers snapshots (every backend answers it itself). */
export const SNAPSHOT_LIST_ROUTE = 'snapshotList';

/** One week a backend holds: its day and how many websites it lists (the one `{date, count}` of the code). */
export interface WeekEntry {
  /** YYYY-MM-DD, the week's own day: the path segment of its dated paths. */
  date: string;
  count: number;
}

/** The body of `GET /snapshots`: every week held, oldest first. */
export interface SnapshotList {
  snapshots: WeekEntry[];
}

/** True for the list's own path (a trailing slash too). */
export function isSnapshotList(pathname: string): boolean {
  return pathname === SNAPSHOT_LIST_PATH || pathname === `${SNAPSHOT_LIST_PATH}/`;
}

/**
 * The weeks a dataset holds beside its active database (its weeks attachment, engine/dataset-registry.ts): the
 * engine answers a week's dated request with that week's handlers, which query the weeks as they are stored.
 */
export interface WeekSource {
  /** Oldest first. */
  weeks(): WeekEntry[];
  /** The API's handlers over one week, or null when it is not held. */
  handlers(date: string): Record<string, RouteHandler> | null;
}
