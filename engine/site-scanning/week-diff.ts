/**
 * What changed between two weeks of Site Scanning (two weeks of the weeks attachment, or two websites databases:
 * imported weekly files): sites added and removed, and per site the changes an analyst tracks, by the measures
 * (measures.ts): live sites lost and sites that came up (one symmetric rule, LOST_DEFINITION and
 * CAME_UP_DEFINITION), analytics (DAP) and the design system gained or lost, the scan status; with counts per
 * agency (or per bureau of one agency) and CSVs. Either side may be limited to one agency, or one bureau of it.
 * Sites are matched by target URL (a URL listed twice counts once, its first row in listing order, as
 * `/websites/{url}` answers). Not an API route: the DB worker asks it directly.
 */
import type { Database, SqlValue } from 'sql.js';
import { csvCell, csvLine } from '../ceilingrates/export.ts';
import { allRows } from '../sqlite-rows.ts';
import { isUp, MEASURE_SQL, OUTCOME_COLUMN, type SiteFacts } from './measures.ts';
import { SORT_KEY, WEBSITES_TABLE } from './schema.ts';

export const CHANGE_KINDS = ['added', 'removed', 'lost', 'came_up', 'dap_gained', 'dap_lost', 'uswds_gained', 'uswds_lost', 'status_changed'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export const CHANGE_LABELS: Record<ChangeKind, string> = {
  added: 'Added',
  removed: 'Removed',
  lost: 'Live sites lost',
  came_up: 'Came up',
  dap_gained: 'DAP gained',
  dap_lost: 'DAP lost',
  uswds_gained: 'Design system gained',
  uswds_lost: 'Design system lost',
  status_changed: 'Scan status changed',
};

/**
 * The one rule of "lost" and "came up", as the page says it: a site is up in a week when its final URL answered
 * 2xx in a scan that completed (measures.ts isUp); a failed scan (any status but completed) keeps a stale or
 * unknown live flag, so it counts as not up, on either side.
 */
export const LOST_DEFINITION =
  'A live site lost: in both weeks’ lists, live in the week before (its final URL answered 2xx in a scan that completed), and in the week after not live, or its scan failed (any scan status but completed). Sites gone from the list count as removed.';
export const CAME_UP_DEFINITION =
  'A site that came up: in both weeks’ lists, not live in the week before, or its scan failed, and in the week after live in a scan that completed. Sites new to the list count as added.';

export interface SiteChange {
  kind: ChangeKind;
  targetUrl: string;
  agency: string | null;
  bureau: string | null;
  /** The value before and after, as words (`live`, `completed`, …); empty for added and removed. */
  before: string;
  after: string;
}

/** One agency's (or, within one agency, one bureau's) counts of each change. */
export interface GroupChanges {
  name: string | null;
  counts: Record<ChangeKind, number>;
}

/** The sites compared: every site, one agency's, or one bureau's of one agency. */
export interface DiffScope {
  agency?: string;
  bureau?: string;
}

export interface WeekDiff {
  /** Sites in the scope in each week. */
  sites: { before: number; after: number };
  scope: DiffScope;
  totals: Record<ChangeKind, number>;
  /** What the groups are: agencies, or the bureaus of the scope's agency. */
  by: 'agency' | 'bureau';
  /** Groups with at least one change, most changes first. */
  groups: GroupChanges[];
  /** Every change, by agency, bureau, URL, then kind. */
  changes: SiteChange[];
}

/** One site as compared: its owners and measures in one week. */
export interface ComparedSite extends SiteFacts {
  agency: string | null;
  bureau: string | null;
}

/** The columns a site is compared by, read from any table with the websites columns (the measures in SQL, once). */
const COMPARED_COLUMNS = `target_url, target_url_agency_owner, target_url_bureau_owner, ${OUTCOME_COLUMN}, ${MEASURE_SQL.live}, ${MEASURE_SQL.dap}, ${MEASURE_SQL.uswds}, ${MEASURE_SQL.banner}`;

/**
 * The sites of a table, first row per target URL in the listing order `order` gives: `where` (with `params`)
 * picks one week's rows of the weeks attachment; a websites table is one week whole.
 */
export function comparedSites(db: Database, table: string, order: string, where = '', params: SqlValue[] = []): Map<string, ComparedSite> {
  const flag = (v: SqlValue): boolean | null => (v === null ? null : Number(v) !== 0);
  const sites = new Map<string, ComparedSite>();
  for (const [url, agency, bureau, status, live, dap, uswds, banner] of allRows(
    db,
    `SELECT ${COMPARED_COLUMNS} FROM ${table} ${where ? `WHERE ${where}` : ''} ORDER BY ${order}`,
    params,
  )) {
    const key = String(url);
    if (sites.has(key)) continue;
    sites.set(key, {
      agency: agency === null ? null : String(agency),
      bureau: bureau === null ? null : String(bureau),
      status: String(status),
      live: flag(live),
      dap: flag(dap),
      uswds: flag(uswds),
      banner: flag(banner),
    });
  }
  return sites;
}

/** A websites database's sites (an imported weekly file, the build's dataset). */
export const websitesSites = (db: Database): Map<string, ComparedSite> => comparedSites(db, WEBSITES_TABLE, SORT_KEY);

const zero = (): Record<ChangeKind, number> => Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as Record<ChangeKind, number>;
const word = (v: boolean | null, yes: string, no: string): string => (v === null ? 'unknown' : v ? yes : no);
/** Why a site is not up, in words. */
const notUp = (s: ComparedSite): string => (s.status !== 'completed' ? `scan failed (${s.status})` : s.live === false ? 'not live' : 'live unknown');

/** The changes of one site present in both weeks. Unknown (null) values are not changes. */
function siteChanges(url: string, a: ComparedSite, b: ComparedSite): SiteChange[] {
  const out: SiteChange[] = [];
  const owner = { agency: b.agency ?? a.agency, bureau: b.bureau ?? a.bureau };
  const flip = (x: boolean | null, y: boolean | null, up: ChangeKind, down: ChangeKind, yes: string, no: string) => {
    if (x === null || y === null || x === y) return;
    out.push({ kind: y ? up : down, targetUrl: url, ...owner, before: word(x, yes, no), after: word(y, yes, no) });
  };
  const [was, is] = [isUp(a), isUp(b)];
  if (was && !is) out.push({ kind: 'lost', targetUrl: url, ...owner, before: 'live', after: notUp(b) });
  if (!was && is) out.push({ kind: 'came_up', targetUrl: url, ...owner, before: notUp(a), after: 'live' });
  flip(a.dap, b.dap, 'dap_gained', 'dap_lost', 'DAP', 'no DAP');
  flip(a.uswds, b.uswds, 'uswds_gained', 'uswds_lost', 'design system', 'no design system');
  if (a.status !== b.status) out.push({ kind: 'status_changed', targetUrl: url, ...owner, before: a.status, after: b.status });
  return out;
}

/** The sites in the scope: one agency's (and one bureau's of it), or all. */
function scoped(sites: ReadonlyMap<string, ComparedSite>, scope: DiffScope): Map<string, ComparedSite> {
  if (scope.agency === undefined) return new Map(sites);
  return new Map([...sites].filter(([, s]) => s.agency === scope.agency && (scope.bureau === undefined || (s.bureau ?? '') === scope.bureau)));
}

const NAME_LAST = '\uffff';
const compareNames = (x: string | null, y: string | null): number => (x ?? NAME_LAST).localeCompare(y ?? NAME_LAST);

export function diffWeeks(before: ReadonlyMap<string, ComparedSite>, after: ReadonlyMap<string, ComparedSite>, scope: DiffScope = {}): WeekDiff {
  const a = scoped(before, scope);
  const b = scoped(after, scope);
  const changes: SiteChange[] = [];
  for (const [url, site] of a) {
    const later = b.get(url);
    if (!later) changes.push({ kind: 'removed', targetUrl: url, agency: site.agency, bureau: site.bureau, before: '', after: '' });
    else changes.push(...siteChanges(url, site, later));
  }
  for (const [url, site] of b)
    if (!a.has(url)) changes.push({ kind: 'added', targetUrl: url, agency: site.agency, bureau: site.bureau, before: '', after: '' });

  const order = new Map(CHANGE_KINDS.map((k, i) => [k, i]));
  changes.sort(
    (x, y) =>
      compareNames(x.agency, y.agency) ||
      compareNames(x.bureau, y.bureau) ||
      (x.targetUrl < y.targetUrl ? -1 : x.targetUrl > y.targetUrl ? 1 : 0) ||
      order.get(x.kind)! - order.get(y.kind)!,
  );
  const by = scope.agency === undefined ? 'agency' : 'bureau';
  const totals = zero();
  const groups = new Map<string | null, GroupChanges>();
  for (const change of changes) {
    totals[change.kind]++;
    const name = change[by];
    let entry = groups.get(name);
    if (!entry) groups.set(name, (entry = { name, counts: zero() }));
    entry.counts[change.kind]++;
  }
  const sum = (c: Record<ChangeKind, number>) => CHANGE_KINDS.reduce((n, k) => n + c[k], 0);
  const listed = [...groups.values()].sort((x, y) => sum(y.counts) - sum(x.counts) || compareNames(x.name, y.name));
  return { sites: { before: a.size, after: b.size }, scope, totals, by, groups: listed, changes };
}

/** What the comparison covers, as the CSVs' header rows say it. */
export function scopeNotes(scope: DiffScope): [string, string][] {
  if (scope.agency === undefined) return [['Sites compared', 'every agency']];
  return [['Agency', scope.agency], ...(scope.bureau === undefined ? [] : ([['Bureau', scope.bureau === '' ? '(none)' : scope.bureau]] as [string, string][]))];
}

/** The diff as CSV: notes on the two weeks, then one row per change. */
export function weekDiffCsv(diff: WeekDiff, notes: readonly (readonly [string, string])[]): string {
  const row = (cells: readonly (string | number | null)[]) => cells.map(csvCell).join(',');
  const lines = [
    ...notes.map(([label, value]) => row([label, value])),
    ...scopeNotes(diff.scope).map((note) => row(note)),
    row(['Sites before', diff.sites.before]),
    row(['Sites after', diff.sites.after]),
    row(['Change', 'Target URL', 'Agency', 'Bureau', 'Before', 'After']),
    ...diff.changes.map((c) => row([CHANGE_LABELS[c.kind], c.targetUrl, c.agency, c.bureau, c.before, c.after])),
  ];
  return lines.join('\r\n') + '\r\n';
}

/** The per-group counts as CSV, in the order shown: notes (the two weeks, the source), then one row per agency or bureau. */
export function groupChangesCsv(diff: Pick<WeekDiff, 'by' | 'scope'>, groups: readonly GroupChanges[], notes: readonly (readonly [string, string])[]): string {
  const lines = [
    ...notes.map((note) => csvLine(note)),
    ...scopeNotes(diff.scope).map((note) => csvLine(note)),
    csvLine([diff.by === 'agency' ? 'Agency' : 'Bureau', ...CHANGE_KINDS.map((k) => CHANGE_LABELS[k])]),
    ...groups.map((g) => csvLine([g.name, ...CHANGE_KINDS.map((k) => g.counts[k])])),
  ];
  return lines.join('\r\n') + '\r\n';
}
