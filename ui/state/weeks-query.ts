/**
 * The weeks view's state in the hash (`#/weeks?by=bureau&agency=…&metric=dap&g=…&from=…&before=…&after=…&compare_agency=…`):
 * the trend's grouping, its measure, the groups drawn, the week it starts at, and the two weeks compared and whose
 * sites. Defaults are left out of the hash.
 */
export const TREND_METRICS = ['sites', 'live', 'dap', 'uswds', 'banner', 'outcome'] as const;
export type TrendMetric = (typeof TREND_METRICS)[number];

/** The scan status a trend of outcomes draws when none is chosen: the share of scans that completed. */
export const DEFAULT_OUTCOME = 'completed';

/** Groups drawn when none is chosen: the largest in the newest week. */
export const DEFAULT_GROUPS = 5;
/** Lines one chart draws at most: past that nobody tells them apart. */
export const MAX_GROUPS = 8;

/** The list of groups' order: by a column, most (or A to Z for the name) first unless `dir` says otherwise. */
export const GROUP_ORDERS = ['sites', 'name', 'first', 'last', 'change'] as const;
export type GroupOrder = (typeof GROUP_ORDERS)[number];

/** The list's size floors offered: a change of 50 points in an agency of 4 sites is not one of 3,000. */
export const MIN_SITES = [0, 10, 50, 100, 500] as const;

export interface WeeksQuery {
  by: 'agency' | 'bureau';
  /** With by=bureau: that agency's bureaus only. */
  agency: string;
  metric: TrendMetric;
  /** With metric=outcome: the scan status whose share is drawn. */
  status: string;
  /** The groups drawn (names; `(none)` for records with none); empty: the largest DEFAULT_GROUPS. */
  groups: string[];
  /** The list of groups shows only those with at least this many sites in the newest week. */
  min: number;
  order: GroupOrder;
  dir: 'asc' | 'desc';
  /** The week the trends start at (YYYY-MM-DD), or '' for the first week held. */
  from: string;
  /** The two weeks compared (YYYY-MM-DD), or '' for none chosen. */
  before: string;
  after: string;
  /** The comparison limited to one agency's sites ('' for every agency's), and to one bureau of it ('(none)' for none). */
  compareAgency: string;
  compareBureau: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function parseWeeksQuery(params: URLSearchParams): WeeksQuery {
  const metric = params.get('metric') ?? '';
  const day = (name: string) => {
    const v = params.get(name) ?? '';
    return DAY.test(v) ? v : '';
  };
  return {
    by: params.get('by') === 'bureau' ? 'bureau' : 'agency',
    agency: params.get('agency') ?? '',
    metric: (TREND_METRICS as readonly string[]).includes(metric) ? (metric as TrendMetric) : 'dap',
    status: params.get('status') || DEFAULT_OUTCOME,
    groups: [...new Set(params.getAll('g').filter((g) => g !== ''))].slice(0, MAX_GROUPS),
    min: MIN_SITES.includes(Number(params.get('min')) as (typeof MIN_SITES)[number]) ? Number(params.get('min')) : 0,
    order: (GROUP_ORDERS as readonly string[]).includes(params.get('order') ?? '') ? (params.get('order') as GroupOrder) : 'sites',
    dir: params.get('dir') === 'asc' ? 'asc' : 'desc',
    from: day('from'),
    before: day('before'),
    after: day('after'),
    compareAgency: params.get('compare_agency') ?? '',
    compareBureau: params.get('compare_agency') ? (params.get('compare_bureau') ?? '') : '',
  };
}

export function weeksHashParams(q: WeeksQuery): URLSearchParams {
  const p = new URLSearchParams();
  if (q.by !== 'agency') p.append('by', q.by);
  if (q.by === 'bureau' && q.agency) p.append('agency', q.agency);
  if (q.metric !== 'dap') p.append('metric', q.metric);
  if (q.metric === 'outcome' && q.status !== DEFAULT_OUTCOME) p.append('status', q.status);
  for (const g of q.groups) p.append('g', g);
  if (q.min) p.append('min', String(q.min));
  if (q.order !== 'sites') p.append('order', q.order);
  if (q.dir !== 'desc') p.append('dir', q.dir);
  if (q.from) p.append('from', q.from);
  if (q.before) p.append('before', q.before);
  if (q.after) p.append('after', q.after);
  if (q.compareAgency) p.append('compare_agency', q.compareAgency);
  if (q.compareAgency && q.compareBureau) p.append('compare_bureau', q.compareBureau);
  return p;
}
