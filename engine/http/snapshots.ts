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
/** The route name `/snapshots` is routed to, in the API that keeps snapshots (every backend answers it itself). */
export const SNAPSHOT_LIST_ROUTE = 'snapshotList';

/** One week a backend holds: its date and how many records it lists. */
export interface SnapshotEntry {
  date: string;
  count: number;
}

/** The body of `GET /snapshots`: every week held, oldest first. */
export interface SnapshotList {
  snapshots: SnapshotEntry[];
}

/** True for the list's own path (a trailing slash too). */
export function isSnapshotList(pathname: string): boolean {
  return pathname === SNAPSHOT_LIST_PATH || pathname === `${SNAPSHOT_LIST_PATH}/`;
}

/**
 * The older weeks a dataset holds beside its active database (the built-in weeks dataset): the engine asks for a
 * week's database on its first dated request and keeps a few bound (engine.ts).
 */
export interface WeekSource {
  /** Oldest first. */
  weeks(): SnapshotEntry[];
  /** A new database of that week's records, owned (and closed) by the caller; null when the week is not held. */
  open(date: string): import('sql.js').Database | null;
}
