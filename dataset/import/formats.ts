import type { DatasetName } from '../../engine/http/types.ts';
import { countKnown, normaliseHeader } from './columns.ts';
import { firstRows } from './csv-rows.ts';
import { ImportError } from './errors.ts';
import { WEBSITE_COLUMNS } from './websites/columns.ts';
import { CEILING_COLUMNS } from './ceilingrates/columns.ts';

/** The four accepted files. */
export type ImportFormat =
  | 'websites-csv' // site-scanning snapshot CSV, either column generation
  | 'websites-json' // the snapshot as a JSON array of records (or saved /websites pages)
  | 'ceilingrates-csv' // the ceiling-rate export (metadata rows, then `Contract #,…`) or an older price list
  | 'ceilingrates-json'; // pages saved from the ceiling-rate API (`hits.hits[]._source`)

export interface DetectedFormat {
  format: ImportFormat;
  dataset: DatasetName;
  /** For the user: "Site Scanning snapshot (CSV)". */
  label: string;
}

export const FORMAT_LABELS: Record<ImportFormat, string> = {
  'websites-csv': 'Site Scanning snapshot (CSV)',
  'websites-json': 'Site Scanning snapshot (JSON)',
  'ceilingrates-csv': 'Ceiling-rate export (CSV)',
  'ceilingrates-json': 'Ceiling-rate API pages (JSON)',
};

/** The datasets a user's file can be imported into (each with its own mapping under this folder). */
export type ImportableDataset = 'websites' | 'ceilingrates';

/** The format each dataset's built-in files were imported from by the build (their report says so). */
export const BUILT_IN_FORMAT: Record<ImportableDataset, ImportFormat> = { websites: 'websites-json', ceilingrates: 'ceilingrates-csv' };

export function datasetOf(format: ImportFormat): ImportableDataset {
  return format.startsWith('websites') ? 'websites' : 'ceilingrates';
}

function detected(format: ImportFormat): DetectedFormat {
  return { format, dataset: datasetOf(format), label: FORMAT_LABELS[format] };
}

/** How many leading rows may come before a ceiling-rate header (the export's metadata rows). */
export const MAX_ROWS_BEFORE_HEADER = 50;

/** A site-scanning header: at least two known columns, one of them naming the target or the final URL. */
export function isWebsitesHeader(cells: readonly string[]): boolean {
  const names = new Set(cells.map(normaliseHeader));
  const anchored = ['initial_domain', 'target_url', 'url', 'final_url', 'domain', 'final_url_website'].some((n) => names.has(n));
  return anchored && countKnown(cells, WEBSITE_COLUMNS) >= 2;
}

/** A ceiling-rate header: the export's (`Contract #` first) or any generation's labor category plus a price. */
export function isCeilingHeader(cells: readonly string[]): boolean {
  if (cells.length > 1 && normaliseHeader(cells[0]) === 'contract #') return true;
  const names = new Set(cells.map(normaliseHeader));
  const has = (key: keyof typeof CEILING_COLUMNS): boolean => CEILING_COLUMNS[key].some((alias) => names.has(normaliseHeader(alias)));
  return has('labor_category') && (has('current_price') || has('year_1'));
}

const ACCEPTED =
  'Accepted files: the Site Scanning snapshot (site-scanning-latest.csv or its JSON), the ceiling-rate export CSV, ' +
  'or ceiling-rate API pages saved as JSON.';

function wrong(what: string): ImportError {
  return new ImportError('wrong-format', `${what} ${ACCEPTED} Nothing was changed.`);
}

function detectJson(head: string, lowerName: string): DetectedFormat {
  if (/"(hits|_source|labor_category|idv_piid)"\s*:/.test(head)) return detected('ceilingrates-json');
  if (/"(initial_domain|target_url|final_url|url|items|scan_date|target_url_domain)"\s*:/.test(head)) return detected('websites-json');
  // No telling keys (an empty array): the name decides, and the import then says it has no rows.
  if (/^\s*\[\s*\]\s*$/.test(head)) {
    if (/site-?scanning|website/.test(lowerName)) return detected('websites-json');
    if (/ceiling|calc|rate/.test(lowerName)) return detected('ceilingrates-json');
  }
  throw wrong('This JSON file holds neither Site Scanning records nor ceiling-rate API pages.');
}

/**
 * The format of a file from its first bytes (decoded text; 64 KB is plenty) and, for the message only,
 * its name. Throws ImportError('wrong-format') with a message for the user when it is none of the four.
 */
export function detectFormat(head: string, name = ''): DetectedFormat {
  const lowerName = name.toLowerCase();
  if (head.startsWith('PK\u0003\u0004') || /\.xlsx?$/.test(lowerName)) {
    throw wrong('This looks like a spreadsheet workbook, not a CSV file: save it as CSV first.');
  }
  if (head.startsWith('%PDF')) throw wrong('This is a PDF document.');
  if (head.includes('\u0000')) throw wrong('This is a binary file, not text.');
  const text = head.replace(/^\uFEFF/, '');
  if (text.trim() === '') throw wrong('The file is empty.');
  const first = text.trimStart()[0];
  if (first === '[' || first === '{') return detectJson(text, lowerName);
  const rows = firstRows(text, MAX_ROWS_BEFORE_HEADER + 1);
  if (rows.length > 0 && isWebsitesHeader(rows[0])) return detected('websites-csv');
  if (rows.slice(0, MAX_ROWS_BEFORE_HEADER + 1).some(isCeilingHeader)) return detected('ceilingrates-csv');
  throw wrong('The first rows of this file do not name the columns of either dataset.');
}
