/**
 * Every record a query matches as CSV, past the API's 10,000-record window: the export's own format
 * (export.ts) with the caller's notes on the method as further metadata rows, written in chunks so the
 * caller can report progress. The DB worker asks it directly; it is not an API route.
 */
import type { Database } from 'sql.js';
import { failure, type Failure } from '../http/failure.ts';
import { ceilingRatesIndex } from './ceiling-rates-index.ts';
import { NotAcceptable, parseQuery } from './parse-query.ts';
import { topRows } from './query/order.ts';
import { matchedRows } from './query/match-set.ts';
import { titlePool, titlePoolProblem } from './price-figures.ts';
import { exportHead } from './export.ts';

export const EXPORT_CHUNK_ROWS = 2_000;

export interface ExportAll {
  /** Matching records, all of which the chunks write. */
  total: number;
  /** The metadata and header rows, then the records in the query's order, a chunk at a time. */
  chunks(): Generator<{ text: string; written: number }>;
}

export type ExportAllAnswer = { ok: true; export: ExportAll } | Failure;

/**
 * `query` holds the API's parameters (paging is ignored); `notes` become rows after the query's own;
 * `titles`, a pool of exact labor categories any of which matches.
 */
export function exportAllCsv(
  db: Database,
  query: URLSearchParams,
  notes: readonly (readonly [string, string])[],
  chunkRows = EXPORT_CHUNK_ROWS,
  titles: readonly string[] = [],
): ExportAllAnswer {
  const tooMany = titlePoolProblem(titles);
  if (tooMany) return failure(406, tooMany);
  let parsed;
  try {
    parsed = parseQuery(new URLSearchParams([...query].filter(([key]) => key !== 'page' && key !== 'page_size' && key !== 'export')));
  } catch (error) {
    if (error instanceof NotAcceptable) return failure(406, error.detail);
    throw error;
  }
  const index = ceilingRatesIndex(db);
  const match = index.match({ ...parsed, suggest: [], suggestContains: null });
  let { mask, rows } = match;
  if (titles.length) {
    // A pool of exact titles (price-figures.ts): only its rows, in a mask of their own.
    rows = titlePool(index.store.text.labor_category.codes, index.store.text.labor_category.values, titles).select(matchedRows(match));
    mask = new Uint8Array(index.store.size);
    for (const row of rows) mask[row] = 1;
  }
  // The order is fixed now: the match set's buffers are reused by the next request.
  const order = topRows({ mask, matches: rows ?? undefined, keys: index.orderKeys(parsed), limit: rows ? rows.length : match.count });
  const total = order.length;
  const head = exportHead(query, [...notes, ['Matching records', String(total)]]);
  const writer = index.csvRows.get();
  return {
    ok: true,
    export: {
      total,
      *chunks() {
        yield { text: head, written: 0 };
        for (let start = 0; start < total; start += chunkRows) {
          const rows = order.slice(start, start + chunkRows);
          yield { text: writer.write(rows), written: start + rows.length };
        }
      },
    },
  };
}
