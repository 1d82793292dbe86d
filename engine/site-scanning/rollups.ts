/**
 * Roll-ups of the websites by owner, like GSA's published Site Scanning reports: per agency (or per bureau)
 * the number of sites, how many each measure counts (measures.ts: live, DAP, the design system, the banner),
 * and the scan-status breakdown, over the records the API's filters select. The DB worker asks it directly; it is not an API route.
 */
import type { Database } from 'sql.js';
import { failure, type Failure } from '../http/failure.ts';
import type { SqlValue } from 'sql.js';
import { parseWebsiteQuery, type WebsiteFilters } from './parse-query.ts';
import { FILTER_NAMES } from './parameters.ts';
import type { ScanStatus } from './record.ts';
import type { RollupGroup } from './parameters.ts';
import { MEASURE_SQL, MEASURES, OUTCOME_COLUMN } from './measures.ts';
import { WEBSITES_TABLE } from './schema.ts';

export interface RollupRow {
  /** The agency or bureau as stored (null: records without one). */
  name: string | null;
  sites: number;
  /** Counts of sites (percentages are of `sites`). */
  live: number;
  dap: number;
  uswds: number;
  banner: number;
  /** Sites per scan status (statuses no site has are left out). */
  statuses: Partial<Record<ScanStatus, number>>;
}

export interface Rollups {
  group: RollupGroup;
  /** Largest first, then by name. */
  rows: RollupRow[];
  total: RollupRow;
}

export type RollupsAnswer = { ok: true; rollups: Rollups } | Failure;

function emptyRow(name: string | null): RollupRow {
  return { name, sites: 0, live: 0, dap: 0, uswds: 0, banner: 0, statuses: {} };
}

/** The API's filters as SQL: exact, case-sensitive equality with the stored value (booleans are 0/1), ANDed. */
export function whereClause(filters: WebsiteFilters): { sql: string; params: SqlValue[] } {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  for (const name of FILTER_NAMES) {
    const value = filters[name];
    if (value === undefined) continue;
    parts.push(`"${name}" = ?`);
    params.push(typeof value === 'boolean' ? (value ? 1 : 0) : value);
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** `group` is a column name from ROLLUP_GROUPS (never user text), so it may be spliced into the SQL. */
export function websiteRollups(db: Database, query: URLSearchParams, group: RollupGroup): RollupsAnswer {
  const parsed = parseWebsiteQuery(query);
  if (!parsed.ok) return failure(400, parsed.messages.join('; '));
  const where = whereClause(parsed.query.filters);
  const statement = db.prepare(
    `SELECT "${group}", ${OUTCOME_COLUMN}, COUNT(*), ${MEASURES.map((m) => `SUM(${MEASURE_SQL[m]})`).join(', ')}
       FROM ${WEBSITES_TABLE} ${where.sql}
      GROUP BY "${group}", ${OUTCOME_COLUMN}`,
  );
  const byName = new Map<string | null, RollupRow>();
  const total = emptyRow(null);
  try {
    statement.bind(where.params);
    while (statement.step()) {
      const [name, status, sites, live, dap, uswds, banner] = statement.get();
      const key = name === null ? null : String(name);
      let row = byName.get(key);
      if (!row) byName.set(key, (row = emptyRow(key)));
      for (const target of [row, total]) {
        target.sites += Number(sites);
        target.live += Number(live ?? 0);
        target.dap += Number(dap ?? 0);
        target.uswds += Number(uswds ?? 0);
        target.banner += Number(banner ?? 0);
        const s = String(status) as ScanStatus;
        target.statuses[s] = (target.statuses[s] ?? 0) + Number(sites);
      }
    }
  } finally {
    statement.free();
  }
  const rows = [...byName.values()].sort((a, b) => b.sites - a.sites || (a.name ?? '\uffff').localeCompare(b.name ?? '\uffff'));
  return { ok: true, rollups: { group, rows, total } };
}
