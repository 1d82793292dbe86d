/**
 * What changed between two Site Scanning snapshots (two websites databases): sites added and removed, and
 * per site the changes an analyst tracks — live sites lost (LOST_DEFINITION), not live → live, analytics (DAP) gained or lost, the design
 * system (`ds_usa_classes > 0`) gained or lost, the scan status — with counts per agency and a CSV. Sites
 * are matched by target URL (a URL listed twice counts once, its first row in URL order, as
 * `/websites/{url}` answers). The DB worker asks it directly; it is not an API route.
 */
import type { Database } from 'sql.js';
import { csvCell, csvLine } from '../ceilingrates/export.ts';

export const CHANGE_KINDS = ['added', 'removed', 'lost', 'came_up', 'dap_gained', 'dap_lost', 'uswds_gained', 'uswds_lost', 'status_changed'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export const CHANGE_LABELS: Record<ChangeKind, string> = {
  added: 'Added',
  removed: 'Removed',
  lost: 'Live sites lost',
  came_up: 'Not live → live',
  dap_gained: 'DAP gained',
  dap_lost: 'DAP lost',
  uswds_gained: 'Design system gained',
  uswds_lost: 'Design system lost',
  status_changed: 'Scan status changed',
};

/**
 * What "lost" counts, as the page says it. A failed scan (any status but completed) keeps a stale or unknown
 * live flag, so counting only live → not live missed most of them: 857 of the 1,312 live sites lost between the
 * real weeks of 2025-02-10 and 2025-06-09.
 */
export const LOST_DEFINITION =
  'A live site lost: live in the week before, and in the week after in the list but not live, or its scan failed (any scan status but completed). Sites gone from the list count as removed.';

export interface SiteChange {
  kind: ChangeKind;
  targetUrl: string;
  agency: string | null;
  /** The value before and after, as words (`live`, `completed`, …); empty for added and removed. */
  before: string;
  after: string;
}

export interface AgencyChanges {
  agency: string | null;
  counts: Record<ChangeKind, number>;
}

export interface SnapshotDiff {
  sites: { before: number; after: number };
  totals: Record<ChangeKind, number>;
  /** Agencies with at least one change, most changes first. */
  agencies: AgencyChanges[];
  /** Every change, by agency then URL then kind. */
  changes: SiteChange[];
}

interface Site {
  agency: string | null;
  live: boolean | null;
  dap: boolean | null;
  uswds: boolean | null;
  status: string;
}

function readSites(db: Database): Map<string, Site> {
  const sites = new Map<string, Site>();
  const statement = db.prepare(
    `SELECT target_url, target_url_agency_owner, final_url_live, dap_detected_final_url, ds_usa_classes, scan_status FROM websites ORDER BY sort_key`,
  );
  const flag = (v: unknown): boolean | null => (v === null ? null : Number(v) !== 0);
  try {
    while (statement.step()) {
      const [url, agency, live, dap, usa, status] = statement.get();
      const key = String(url);
      if (sites.has(key)) continue;
      sites.set(key, {
        agency: agency === null ? null : String(agency),
        live: flag(live),
        dap: flag(dap),
        uswds: usa === null ? null : Number(usa) > 0,
        status: String(status),
      });
    }
  } finally {
    statement.free();
  }
  return sites;
}

const zero = (): Record<ChangeKind, number> => Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as Record<ChangeKind, number>;
const word = (v: boolean | null, yes: string, no: string): string => (v === null ? 'unknown' : v ? yes : no);

/** The changes of one site present in both snapshots. Unknown (null) values are not changes. */
function siteChanges(url: string, a: Site, b: Site): SiteChange[] {
  const out: SiteChange[] = [];
  const agency = b.agency ?? a.agency;
  const flip = (x: boolean | null, y: boolean | null, up: ChangeKind, down: ChangeKind, yes: string, no: string) => {
    if (x === null || y === null || x === y) return;
    out.push({ kind: y ? up : down, targetUrl: url, agency, before: word(x, yes, no), after: word(y, yes, no) });
  };
  if (a.live === true && (b.live !== true || b.status !== 'completed')) {
    const after = b.live === false ? 'not live' : b.status !== 'completed' ? `scan failed (${b.status})` : 'live unknown';
    out.push({ kind: 'lost', targetUrl: url, agency, before: 'live', after });
  } else if (a.live === false && b.live === true) out.push({ kind: 'came_up', targetUrl: url, agency, before: 'not live', after: 'live' });
  flip(a.dap, b.dap, 'dap_gained', 'dap_lost', 'DAP', 'no DAP');
  flip(a.uswds, b.uswds, 'uswds_gained', 'uswds_lost', 'design system', 'no design system');
  if (a.status !== b.status) out.push({ kind: 'status_changed', targetUrl: url, agency, before: a.status, after: b.status });
  return out;
}

export function diffSnapshots(before: Database, after: Database): SnapshotDiff {
  const a = readSites(before);
  const b = readSites(after);
  const changes: SiteChange[] = [];
  for (const [url, site] of a) {
    const later = b.get(url);
    if (!later) changes.push({ kind: 'removed', targetUrl: url, agency: site.agency, before: '', after: '' });
    else changes.push(...siteChanges(url, site, later));
  }
  for (const [url, site] of b) if (!a.has(url)) changes.push({ kind: 'added', targetUrl: url, agency: site.agency, before: '', after: '' });

  const order = new Map(CHANGE_KINDS.map((k, i) => [k, i]));
  const name = (agency: string | null) => agency ?? '\uffff';
  changes.sort(
    (x, y) =>
      name(x.agency).localeCompare(name(y.agency)) ||
      (x.targetUrl < y.targetUrl ? -1 : x.targetUrl > y.targetUrl ? 1 : 0) ||
      order.get(x.kind)! - order.get(y.kind)!,
  );
  const totals = zero();
  const byAgency = new Map<string | null, AgencyChanges>();
  for (const change of changes) {
    totals[change.kind]++;
    let entry = byAgency.get(change.agency);
    if (!entry) byAgency.set(change.agency, (entry = { agency: change.agency, counts: zero() }));
    entry.counts[change.kind]++;
  }
  const sum = (c: Record<ChangeKind, number>) => CHANGE_KINDS.reduce((n, k) => n + c[k], 0);
  const agencies = [...byAgency.values()].sort((x, y) => sum(y.counts) - sum(x.counts) || name(x.agency).localeCompare(name(y.agency)));
  return { sites: { before: a.size, after: b.size }, totals, agencies, changes };
}

/** The diff as CSV: notes on the two snapshots, then one row per change. */
export function snapshotDiffCsv(diff: SnapshotDiff, notes: readonly (readonly [string, string])[]): string {
  const row = (cells: readonly (string | number | null)[]) => cells.map(csvCell).join(',');
  const lines = [
    ...notes.map(([label, value]) => row([label, value])),
    row(['Sites before', diff.sites.before]),
    row(['Sites after', diff.sites.after]),
    row(['Change', 'Target URL', 'Agency', 'Before', 'After']),
    ...diff.changes.map((c) => row([CHANGE_LABELS[c.kind], c.targetUrl, c.agency, c.before, c.after])),
  ];
  return lines.join('\r\n') + '\r\n';
}

/** The per-agency counts as CSV, in the order shown: notes (the two weeks, the source), then one row per agency. */
export function agencyChangesCsv(agencies: readonly AgencyChanges[], notes: readonly (readonly [string, string])[]): string {
  const lines = [
    ...notes.map((note) => csvLine(note)),
    csvLine(['Agency', ...CHANGE_KINDS.map((k) => CHANGE_LABELS[k])]),
    ...agencies.map((a) => csvLine([a.agency, ...CHANGE_KINDS.map((k) => a.counts[k])])),
  ];
  return lines.join('\r\n') + '\r\n';
}
