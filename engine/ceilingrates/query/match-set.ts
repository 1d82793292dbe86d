/**
 * A search's matches as a mask over the rows (row r is the r-th record in id order) with the smaller side
 * listed: the matches, or when they are more than half the rows the others (the aggregations then subtract
 * those from every row's counts). Whichever store found the rows, its match set is made here, in buffers
 * of kernel memory a store allocates once and every request reuses.
 */
import { roomFor, type KernelMemory } from '../kernels/kernels.ts';

export interface MatchSet {
  mask: Uint8Array;
  count: number;
  /** Matching rows ascending (id order), listed when they are at most half the rows. */
  rows: Uint32Array | null;
  /** Otherwise the other rows, ascending. */
  rest: Uint32Array | null;
}

/** A mask and a list the length of the rows, in kernel memory: a match set is views into them, valid until their next use. */
export interface MatchBuffers {
  kernels: KernelMemory;
  mask: Uint8Array;
  rows: Uint32Array;
}

/** The kernel memory the match buffers of `rows` rows take. */
export const matchBuffersRoom = (rows: number): number => roomFor([1, rows], [4, rows]);

export function matchBuffers(kernels: KernelMemory, rows: number): MatchBuffers {
  return { kernels, mask: kernels.alloc(Uint8Array, rows), rows: kernels.alloc(Uint32Array, rows) };
}

/** Counts the mask and lists the smaller side (the matches, or the rows left out) into the buffers' list. */
export function matchSetOf({ kernels, mask, rows }: MatchBuffers): MatchSet {
  const count = kernels.run.listMask(kernels.at(mask), mask.length, kernels.at(rows));
  const matchesListed = count * 2 <= mask.length;
  const list = rows.subarray(0, matchesListed ? count : mask.length - count);
  return matchesListed ? { mask, count, rows: list, rest: null } : { mask, count, rows: null, rest: list };
}

/**
 * The match set of the rows a store found, each once however often it came (a database's parts of one search
 * may overlap); `rest`: of every row but those.
 */
export function matchSetOfRows(buffers: MatchBuffers, found: ArrayLike<number>, rest: boolean): MatchSet {
  const { mask } = buffers;
  mask.fill(rest ? 1 : 0);
  const mark = rest ? 0 : 1;
  for (let i = 0; i < found.length; i++) mask[found[i]] = mark;
  return matchSetOf(buffers);
}

/** The matching rows in id order, listed from the mask if the match set did not list them. */
export function matchedRows(match: MatchSet): Uint32Array {
  if (match.rows) return match.rows;
  const rows = new Uint32Array(match.count);
  for (let r = 0, i = 0; r < match.mask.length; r++) if (match.mask[r] !== 0) rows[i++] = r;
  return rows;
}
