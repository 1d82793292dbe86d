/**
 * The shipped weekly Site Scanning snapshots (data/site-scanning-weeks/): the newest week is
 * data/site-scanning-<newest>.json.br itself; each older week is one file of its changes against the week after
 * it (weeks.ts), so the chain from the newest rebuilds every week exactly. Consecutive weeks differ least, so the
 * chain is the smallest form to ship, and a file per week keeps every file far below the repository's size limit;
 * the build turns the chain into per-week changes against the newest (engine/site-scanning/weeks.ts).
 */
export const WEEKS_DIR = 'site-scanning-weeks';
/** The week list, beside the week files. */
export const WEEKS_INDEX = `${WEEKS_DIR}/weeks.json`;

/** The file of an older week's changes against the week after it, under data/. */
export const weekFile = (date: string): string => `${WEEKS_DIR}/${date}.changes.json.br`;

/** One week the source holds, as its stale-file rule kept it. */
export interface ShippedWeek {
  date: string;
  commit: string;
  /** `data/*.json` files in the commit. */
  files: number;
  /** Files dropped as stale. */
  dropped: number;
  /** Records kept. */
  count: number;
  /** An older week's file: its bytes and sha256 (absent for the newest, shipped as the snapshot itself). */
  bytes?: number;
  sha256?: string;
}

export interface ShippedWeeks {
  /** Oldest first; the last is the newest week. */
  weeks: ShippedWeek[];
}
