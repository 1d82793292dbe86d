/**
 * The measures an analyst reads of a site, defined once: live, analytics (DAP), the design system (USWDS), the
 * official banner, and the scan's outcome. The roll-ups, the weeks' trends, the comparison of two weeks and a
 * site's week-by-week facts all count these, in SQL over the websites columns (MEASURE_SQL) or on a record
 * (siteFacts); tests/unit/site-scanning/measures.test.ts holds the two forms to the same answers on the real
 * records.
 */
import type { WebsiteRecord } from './record.ts';

export const MEASURES = ['live', 'dap', 'uswds', 'banner'] as const;
export type Measure = (typeof MEASURES)[number];

/**
 * Each measure as an SQL expression over the stored columns (booleans 0/1): 1 when it holds, 0 when it does not,
 * NULL when the scan did not report it (a sum counts it as not holding; a comparison leaves it unknown).
 */
export const MEASURE_SQL: Readonly<Record<Measure, string>> = {
  live: 'final_url_live = 1',
  dap: 'dap_detected_final_url = 1',
  uswds: 'ds_usa_classes > 0',
  banner: 'ds_banner_heres_how = 1',
};

/**
 * Each measure's name and what it counts, as every view and export says it. A failed or unscanned scan counts as
 * not holding (it stays in the denominator: every site in the list).
 */
export const MEASURE_WORDS: Readonly<Record<Measure, { label: string; what: string }>> = {
  live: { label: 'live', what: 'the final URL answered 2xx' },
  dap: { label: 'DAP', what: 'Digital Analytics Program code found' },
  uswds: { label: 'USWDS', what: 'U.S. Web Design System classes used (ds_usa_classes > 0)' },
  banner: { label: 'banner', what: 'the official banner’s “Here’s how you know” found' },
};

/** The scan's outcome: the primary scan's status, `completed` when it finished. */
export const OUTCOME_COLUMN = 'scan_status';
export const COMPLETED = 'completed';

/** One site's measures in one week: true, false, or null when the scan did not report it. */
export interface SiteFacts {
  status: string;
  live: boolean | null;
  dap: boolean | null;
  uswds: boolean | null;
  banner: boolean | null;
}

/** A record's measures, as MEASURE_SQL counts them. */
export function siteFacts(
  record: Pick<WebsiteRecord, 'scan_status' | 'final_url_live' | 'dap_detected_final_url' | 'ds_usa_classes' | 'ds_banner_heres_how'>,
): SiteFacts {
  const flag = (value: boolean | null | undefined): boolean | null => (value === null || value === undefined ? null : value);
  return {
    status: record.scan_status,
    live: flag(record.final_url_live),
    dap: flag(record.dap_detected_final_url),
    uswds: record.ds_usa_classes === null || record.ds_usa_classes === undefined ? null : record.ds_usa_classes > 0,
    banner: flag(record.ds_banner_heres_how),
  };
}

/**
 * Up: live in a scan that completed. A failed scan (any status but completed) keeps a stale or unknown live flag,
 * so it counts as not up, on either side of a comparison: a site lost is up in the week before and not up in the
 * week after, a site that came up the reverse (week-diff.ts).
 */
export const isUp = (facts: Pick<SiteFacts, 'status' | 'live'>): boolean => facts.live === true && facts.status === COMPLETED;
