/**
 * The records inside a JSON file: a Site Scanning array of records (or saved `/websites` pages with
 * `items`), or ceiling-rate API pages (`hits.hits[]._source`, one page or an array of pages; a bare array
 * of hits or of `_source` records is accepted too). json-stream.ts cuts the values out; this says where
 * they are and what records they hold, and bounds each record.
 */
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

/** Where a dataset's JSON keeps its records (import/<dataset>/target.ts). */
export interface JsonPlaces {
  /** Where a saved API page keeps its records (`items`, `hits/hits`). */
  page: readonly string[];
  noRecords: string;
  record(value: unknown): unknown;
}

/**
 * Where records live in a dataset's JSON: a top-level array's elements, the page's records (`items[*]`,
 * `hits.hits[*]`), and the same inside a top-level element, which is then a saved page rather than a record.
 */
export function recordPlace(page: readonly string[]): (path: JsonPath) => boolean {
  const element = (path: JsonPath, at: number): boolean => typeof path[at] === 'number';
  const inPage = (path: JsonPath, from: number): boolean =>
    path.length === from + page.length + 1 && page.every((key, i) => path[from + i] === key) && element(path, from + page.length);
  return (path) => (path.length === 1 && element(path, 0)) || inPage(path, 0) || (element(path, 0) && inPage(path, 1));
}

/** After the whole file: it held a place for records (an empty one is fine: the import says it has no rows). */
export function checkShape(json: JsonPlaces, arrays: ReadonlySet<string>): void {
  if (!arrays.has('') && !arrays.has(json.page.join('/'))) throw new ImportError('malformed', json.noRecords);
}

/** The records a saved page holds at its place, or null when the value is no such page. */
function pageRecords(value: unknown, page: readonly string[]): unknown[] | null {
  let at: unknown = value;
  for (const key of page) {
    if (!isObject(at)) return null;
    at = at[key];
  }
  return Array.isArray(at) ? at : null;
}

/**
 * The records of one value cut out at a record place, in order. A top-level array's element may be a
 * saved page, whose records it holds; any other value is one record (an element that is not an object
 * stays in place for the caller to reject).
 */
export function recordsOf(json: JsonPlaces, piece: JsonPiece): unknown[] {
  const { value } = piece;
  const records = piece.path.length === 1 ? pageRecords(value, json.page) : null;
  return records ? records.map(json.record) : [json.record(value)];
}
