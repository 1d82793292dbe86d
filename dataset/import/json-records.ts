/**
 * The records inside a JSON file: a Site Scanning array of records (or saved `/websites` pages with
 * `items`), or ceiling-rate API pages (`hits.hits[]._source`, one page or an array of pages; a bare array
 * of hits or of `_source` records is accepted too). JSON is read whole: the files are tens of MB at most
 * and the platform has no streaming JSON parser (decision 0500).
 */
import type { DatasetName } from '../../engine/http/types.ts';
import { ImportError } from './errors.ts';

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parses the text; a parse failure at the very end means the file was cut short. */
export function parseJson(textValue: string): unknown {
  try {
    return JSON.parse(textValue);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const atEnd = /end of JSON|Unterminated/i.test(message) || (position !== null && Number(position[1]) >= textValue.trimEnd().length - 1);
    if (atEnd) {
      throw new ImportError('truncated', 'The JSON file ends before its data does: it looks cut short (truncated). Nothing was changed.', { cause: error });
    }
    throw new ImportError('malformed', `The file is not valid JSON (${message}). Nothing was changed.`, { cause: error });
  }
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

