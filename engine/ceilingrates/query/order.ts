/**
 * The page of an ordered result without sorting every match: walk the first key's groups in order and stop
 * once the window is filled; only ties of the first key are ordered by the later keys. Ties of all keys
 * break on id ascending, which is row order. No step recurses per key: a large tie is ordered by counting
 * sorts, one per later key, so the work is linear in the keys (at most one per orderable field).
 */
import type { OrderColumnData } from '../columns/order-columns.ts';

/** A key of the order: what ordering reads of a field's column (any column of it), and the direction. */
export interface OrderKey<C extends OrderColumnData = OrderColumnData> {
  column: C;
  desc: boolean;
}

/** Below this many tied rows, sort them by the later keys; above it, walk the next key's groups instead. */
const SORT_LIMIT = 4096;

export function compareRows(a: number, b: number, keys: readonly OrderKey[], from = 0): number {
  for (let i = from; i < keys.length; i++) {
    const { column, desc } = keys[i];
    const ra = column.recordRank[a];
    const rb = column.recordRank[b];
    if (ra === rb) continue;
    // Nulls last in both directions.
    if (ra === column.nullRank) return 1;
    if (rb === column.nullRank) return -1;
    return desc ? rb - ra : ra - rb;
  }
  return a - b;
}

export interface TopRowsOptions {
  /** mask[row] !== 0 for a matching row. */
  mask: Uint8Array;
  /** The matching rows ascending, when listed. */
  matches?: Uint32Array;
  keys: readonly OrderKey[];
  limit: number;
}

/** A row's position key under one order key: ascending or descending rank, the null rank last either way. */
function positionOf(column: OrderColumnData, desc: boolean, row: number): number {
  const rank = column.recordRank[row];
  return desc && rank !== column.nullRank ? column.nullRank - 1 - rank : rank;
}

/**
 * Rows in ascending row order, sorted by `keys` (ties on row order): a stable counting sort per key, the
 * last key first, so each pass costs the rows plus that key's distinct values.
 */
function countingSortByKeys(rows: readonly number[], keys: readonly OrderKey[]): Uint32Array {
  let current = Uint32Array.from(rows);
  let next = new Uint32Array(current.length);
  for (let k = keys.length - 1; k >= 0; k--) {
    const { column, desc } = keys[k];
    const start = new Uint32Array(column.nullRank + 2);
    for (let i = 0; i < current.length; i++) start[positionOf(column, desc, current[i]) + 1]++;
    for (let p = 1; p < start.length; p++) start[p] += start[p - 1];
    for (let i = 0; i < current.length; i++) next[start[positionOf(column, desc, current[i])]++] = current[i];
    [current, next] = [next, current];
  }
  return current;
}

/** The first `limit` matching rows in the order of `keys`. */
export function topRows({ mask, matches, keys, limit }: TopRowsOptions): number[] {
  const out: number[] = [];
  if (limit <= 0 || matches?.length === 0) return out;
  if (matches && matches.length <= SORT_LIMIT) {
    // Few matches: sorting them beats walking every record's order.
    return Array.from(matches)
      .sort((a, b) => compareRows(a, b, keys))
      .slice(0, limit);
  }
  const [{ column, desc }] = keys;
  const { perm, groupStart, nullRank } = column;
  const rest = keys.slice(1);
  const members: number[] = [];
  for (let step = 0; step <= nullRank; step++) {
    // Groups ascending or descending by value; the null group comes last either way.
    const g = step === nullRank ? nullRank : desc ? nullRank - 1 - step : step;
    members.length = 0;
    const end = groupStart[g + 1];
    for (let i = groupStart[g]; i < end; i++) {
      const row = perm[i];
      if (mask[row] !== 0) members.push(row);
    }
    if (members.length === 0) continue;
    const need = limit - out.length;
    if (rest.length === 0) {
      // Rows inside a group are already in row (id) order.
      for (let i = 0; i < members.length && i < need; i++) out.push(members[i]);
    } else if (members.length <= need || members.length <= SORT_LIMIT) {
      members.sort((a, b) => compareRows(a, b, rest));
      for (let i = 0; i < members.length && i < need; i++) out.push(members[i]);
    } else {
      const ordered = countingSortByKeys(members, rest);
      for (let i = 0; i < need; i++) out.push(ordered[i]);
    }
    if (out.length >= limit) break;
  }
  return out;
}
