/**
 * The records inside a JSON file: a Site Scanning array of records (or saved `/websites` pages with
 * `items`), or ceiling-rate API pages (`hits.hits[]._source`, one page or an array of pages; a bare array
 * of hits or of `_source` records is accepted too). JSON is read whole: the files are tens of MB at most
 * and the platform has no streaming JSON parser (decision 0500).
 */
import type { DatasetName } from '../../engine/http/types.ts';
import { MAX_CELL } from './csv-rows.ts';
import { ImportError } from './errors.ts';
import { clip, quote } from './report.ts';
import { INVALID_MARK } from './utf8.ts';

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parses the text; a parse failure at the very end means the file was cut short, extra text after it is not. */
export function parseJson(textValue: string): unknown {
  try {
    return JSON.parse(textValue);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    if (/non-whitespace character after JSON/i.test(message)) {
      const where = position ? ` at character ${Number(position[1]).toLocaleString('en-US')}` : '';
      throw new ImportError('malformed', `The JSON file has extra text after its data${where}: it is not one JSON document. Nothing was changed.`, { cause: error });
    }
    const atEnd = /end of JSON|Unterminated/i.test(message) || (position !== null && Number(position[1]) >= textValue.trimEnd().length);
    if (atEnd) {
      throw new ImportError('truncated', 'The JSON file ends before its data does: it looks cut short (truncated). Nothing was changed.', { cause: error });
    }
    throw new ImportError('malformed', `The file is not valid JSON (${clip(message)}). Nothing was changed.`, { cause: error });
  }
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

function websitePage(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (isObject(value) && Array.isArray(value.items)) return value.items;
  return null;
}

function websiteRecords(document: unknown): unknown[] {
  const direct = websitePage(document);
  if (direct === null) throw new ImportError('malformed', 'The JSON file is not an array of Site Scanning records. Nothing was changed.');
  // An array of saved pages: each element has `items`.
  if (direct.length > 0 && direct.every((item) => isObject(item) && Array.isArray(item.items))) {
    return direct.flatMap((page) => (page as { items: unknown[] }).items);
  }
  return direct;
}

/** A hit's `_source`, with the hit's `_id` as the id when the source has none. */
function fromHit(hit: unknown): unknown {
  if (!isObject(hit) || !isObject(hit._source)) return hit;
  const source = hit._source;
  return source.id === undefined && hit._id !== undefined ? { ...source, id: hit._id } : source;
}

function hitsOf(page: unknown): unknown[] | null {
  if (isObject(page) && isObject(page.hits) && Array.isArray(page.hits.hits)) return page.hits.hits;
  return null;
}

function ceilingRecords(document: unknown): unknown[] {
  const single = hitsOf(document);
  if (single) return single.map(fromHit);
  if (Array.isArray(document)) {
    return document.flatMap((item) => {
      const hits = hitsOf(item);
      return hits ? hits.map(fromHit) : [fromHit(item)];
    });
  }
  throw new ImportError('malformed', 'The JSON file holds no ceiling-rate hits (hits.hits[]._source). Nothing was changed.');
}

/** The file's records in order; an element that is not an object stays in place for the caller to reject. */
export function jsonRecords(dataset: DatasetName, document: unknown): unknown[] {
  return dataset === 'websites' ? websiteRecords(document) : ceilingRecords(document);
}

