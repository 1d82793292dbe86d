/** The roll-up table's columns, shares and ordering: plain functions the component and the tests share. */
import type { RollupRow, Rollups } from '../../api/db-client.ts';
import { csvLine } from '../../../engine/ceilingrates/export.ts';
import type { RollupColumn } from '../../state/websites-query.ts';
import { MEASURE_WORDS, MEASURES, type Measure } from '../../../engine/site-scanning/measures.ts';

export interface ShareColumn {
  key: RollupColumn;
  label: string;
  /** The share of sites this column counts, for the percentage columns. */
  count?: (row: RollupRow) => number;
  help?: string;
}

const share = (key: Measure): ShareColumn => ({
  key,
  label: `% ${MEASURE_WORDS[key].label}`,
  count: (r) => r[key],
  help: MEASURE_WORDS[key].what.replace(/^./, (c) => c.toUpperCase()),
});

export const ROLLUP_SHARES: readonly ShareColumn[] = [
  ...MEASURES.map(share),
  { key: 'completed', label: 'Scans', count: (r) => r.statuses.completed ?? 0, help: 'Share of scans completed; the bar shows every status' },
];

/** A share as the table writes it: one decimal, no decimal at 0 and 100. */
export function percent(part: number, whole: number): string {
  if (whole === 0) return '—';
  const p = (part / whole) * 100;
  return `${p === 0 || p === 100 ? p.toFixed(0) : p.toFixed(1)}%`;
}

export function sortValue(row: RollupRow, key: RollupColumn): number | string {
  if (key === 'name') return row.name ?? '';
  if (key === 'sites') return row.sites;
  const spec = ROLLUP_SHARES.find((c) => c.key === key)!;
  return row.sites ? spec.count!(row) / row.sites : -1;
}

export function sortRows(rows: readonly RollupRow[], key: RollupColumn, dir: 'asc' | 'desc'): RollupRow[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = sortValue(a, key);
    const y = sortValue(b, key);
    const order = typeof x === 'string' ? x.localeCompare(y as string) : x - (y as number);
    return sign * order || b.sites - a.sites;
  });
}

/**
 * The roll-up as CSV, rows in the order shown then the total: counts and shares (out of Sites, as on the page), and
 * every scan status's count, under the notes (the query, the snapshot's date, the source).
 */
export function rollupCsv(rollups: Rollups, rows: readonly RollupRow[], ownerLabel: string, notes: readonly (readonly [string, string])[]): string {
  const count = (r: RollupRow, status: string): number => (r.statuses as Record<string, number | undefined>)[status] ?? 0;
  const statuses = [...new Set([rollups.total, ...rows].flatMap((r) => Object.keys(r.statuses)))].sort(
    (a, b) => count(rollups.total, b) - count(rollups.total, a) || a.localeCompare(b),
  );
  const shares = ROLLUP_SHARES.filter((c) => c.key !== 'completed');
  const head = [
    ownerLabel,
    'Sites',
    ...shares.flatMap((c) => [c.label.replace('% ', '').replace(/^./, (x) => x.toUpperCase()), c.label]),
    ...statuses.map((s) => `Scan ${s}`),
  ];
  const line = (r: RollupRow, name: string) => [
    name,
    r.sites,
    ...shares.flatMap((c) => [c.count!(r), percent(c.count!(r), r.sites)]),
    ...statuses.map((s) => count(r, s)),
  ];
  return (
    [
      ...notes.map((n) => csvLine(n)),
      csvLine(['Shares', 'out of Sites: every matching site in the row, whether its scan completed or not']),
      csvLine(head),
      ...rows.map((r) => csvLine(line(r, r.name ?? '(none)'))),
      csvLine(line(rollups.total, 'All matching sites')),
    ].join('\r\n') + '\r\n'
  );
}
