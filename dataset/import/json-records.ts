/**
 * The records inside a JSON file: a Site Scanning array of records (or saved `/websites` pages with
 * `items`), or ceiling-rate API pages (`hits.hits[]._source`, one page or an array of pages; a bare array
 * of hits or of `_source` records is accepted too). json-stream.ts cuts the values out; this says where
 * they are and what records they hold, and bounds each record.
 */
import type { DatasetName } from '../../engine/http/types.ts';
import { MAX_CELL } from './csv-rows.ts';
import { ImportError } from './errors.ts';
import type { JsonPath, JsonPiece } from './json-stream.ts';
import { quote } from './report.ts';
import { INVALID_MARK } from './utf8.ts';

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Deepest nesting a record's value may have: real records have lists and flat objects (depth 2 or 3). */
export const MAX_DEPTH = 32;

/**
 * Why a JSON record cannot be imported as a bounded row, or null: a value nested deeper than MAX_DEPTH
 * (which would also overflow the stack of anything recursive downstream), a string longer than one CSV
 * cell may be, or (`invalidBytes`, the reason) text holding a byte that was not valid UTF-8. Iterative,
 * so it is safe on any depth.
 */
export function recordProblem(record: unknown, invalidBytes: string | null = null): string | null {
  const stack: [unknown, number, string][] = [[record, 0, '']];
  while (stack.length > 0) {
    const [value, depth, key] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.length > MAX_CELL) return `value of ${quote(key)} is longer than ${MAX_CELL.toLocaleString('en-US')} characters (the limit for one value)`;
      if (invalidBytes !== null && value.includes(INVALID_MARK)) return invalidBytes;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) return `value of ${quote(key)} is nested more than ${MAX_DEPTH} levels deep`;
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1, key]);
    } else {
      for (const [name, item] of Object.entries(value)) {
        if (name.length > MAX_CELL) return `a key is longer than ${MAX_CELL.toLocaleString('en-US')} characters`;
        if (invalidBytes !== null && name.includes(INVALID_MARK)) return invalidBytes;
        stack.push([item, depth + 1, depth === 0 ? name : key]);
      }
    }
  }
  return null;
}

/**
 * Where records live in each dataset's JSON: a top-level array's elements, `items[*]` (`hits.hits[*]`), and
 * the same inside a top-level element, which is then a saved page rather than a record.
 */
export function recordPlace(dataset: DatasetName): (path: JsonPath) => boolean {
  const element = (path: JsonPath, at: number): boolean => typeof path[at] === 'number';
  const inPage = (path: JsonPath, from: number): boolean =>
    dataset === 'websites'
      ? path.length === from + 2 && path[from] === 'items' && element(path, from + 1)
      : path.length === from + 3 && path[from] === 'hits' && path[from + 1] === 'hits' && element(path, from + 2);
  return (path) => (path.length === 1 && element(path, 0)) || inPage(path, 0) || (element(path, 0) && inPage(path, 1));
}

/** After the whole file: it held a place for records (an empty one is fine: the import says it has no rows). */
export function checkShape(dataset: DatasetName, arrays: ReadonlySet<string>): void {
  if (dataset === 'websites' && !arrays.has('') && !arrays.has('items')) {
    throw new ImportError('malformed', 'The JSON file is not an array of Site Scanning records. Nothing was changed.');
  }
  if (dataset === 'ceilingrates' && !arrays.has('') && !arrays.has('hits/hits')) {
    throw new ImportError('malformed', 'The JSON file holds no ceiling-rate hits (hits.hits[]._source). Nothing was changed.');
  }
}

/** A hit's `_source`, with the hit's `_id` as the id when the source has none. */
function fromHit(hit: unknown): unknown {
  if (!isObject(hit) || !isObject(hit._source)) return hit;
  const source = hit._source;
  return source.id === undefined && hit._id !== undefined ? { ...source, id: hit._id } : source;
}

/**
 * The records of one value cut out at a record place, in order. A top-level array's element may be a
 * saved page (`items`, or `hits.hits`), whose records it holds; any other value is one record (an element
 * that is not an object stays in place for the caller to reject).
 */
export function recordsOf(dataset: DatasetName, piece: JsonPiece): unknown[] {
  const { value } = piece;
  if (dataset === 'websites') return piece.path.length === 1 && isObject(value) && Array.isArray(value.items) ? value.items : [value];
  if (piece.path.length === 1 && isObject(value) && isObject(value.hits) && Array.isArray(value.hits.hits)) return value.hits.hits.map(fromHit);
  return [fromHit(value)];
}
