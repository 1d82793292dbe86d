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
