/**
 * The weekly Site Scanning lists data/ ships: the newest week is data/site-scanning-<newest>.json.br, the
 * published records as the copying job wrote them; each older week is one file of its changes against the week
 * after it (week-changes.ts), so the chain from the newest makes every week exactly. Consecutive weeks differ
 * least, so the chain is the smallest form to ship, and a file per week keeps every file far below the
 * repository's size limit. extract.ts writes them; shipped-weeks.ts reads them back.
 */
export const WEEKS_DIR = 'site-scanning-weeks';
/** The week list, beside the week files. */
export const WEEKS_INDEX = `${WEEKS_DIR}/weeks.json`;

/** The newest week's records, under data/. */
export const newestFile = (date: string): string => `site-scanning-${date}.json.br`;

/** The file of an older week's changes against the week after it, under data/. */
export const weekFile = (date: string): string => `${WEEKS_DIR}/${date}.changes.json.br`;

/** One week the source holds, as the stale-file rule selected it. */
export interface ShippedWeek {
  date: string;
  commit: string;
  /** `data/*.json` files in the commit. */
  files: number;
  /** Files dropped as stale. */
  dropped: number;
  /** Records selected. */
  count: number;
  /** Why the week's list is known to be incomplete (absent: it is not). */
  partial?: string;
  /** An older week's file: its bytes and sha256 (absent for the newest, shipped as its own file). */
  bytes?: number;
  sha256?: string;
}

export interface ShippedWeeks {
  /** Oldest first; the last is the newest week. */
  weeks: ShippedWeek[];
}
