/**
 * export=y: the query's matching records as CSV, in the request's order, up to the 10,000 window.
 * Two metadata rows describe the query, then the header row the importer looks for (`Contract #,…`).
 */
import type { CeilingRateRecord } from './record.ts';

const COLUMNS: readonly (readonly [string, keyof CeilingRateRecord])[] = [
  ['Contract #', 'idv_piid'],
  ['Business Size', 'business_size'],
  ['Schedule', 'schedule'],
  ['Site', 'worksite'],
  ['Begin Date', 'contract_start'],
  ['End Date', 'contract_end'],
  ['SIN', 'sin'],
  ['Vendor Name', 'vendor_name'],
  ['Labor Category', 'labor_category'],
  ['education Level', 'education_level'],
  ['Minimum Years Experience', 'min_years_experience'],
  ['Current Year Labor Price', 'current_price'],
  ['Next Year Labor Price', 'next_year_price'],
  ['Second Year Labor Price', 'second_year_price'],
  // Older exports' columns, kept so an exported file imports back without loss.
  ['Security Clearance', 'security_clearance'],
  ['Category', 'category'],
  ['Subcategory', 'subcategory'],
];

/**
 * A spreadsheet would run a text cell starting with one of these as a formula (OWASP's CSV injection list:
 * `= + - @ |`, tab, carriage return). The importer takes the guard off again (dataset/import).
 */
export const FORMULA_START = /^[=+\-@|\t\r]/;

/**
 * One CSV cell. Text that starts like a formula gets a leading `'`; numbers are written as numbers, unguarded,
 * so a negative price stays a number a spreadsheet (and the importer) reads back.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const row = (cells: readonly (string | number | null)[]): string => cells.map(csvCell).join(',');

/** The export's metadata rows (the query as sent), then any further notes, then the header row. */
export function exportHead(query: URLSearchParams, notes: readonly (readonly [string, string])[] = []): string {
  const searches = [...query.getAll('search'), ...query.getAll('keyword')].filter((s) => s.trim() !== '');
  const filters = query.getAll('filter');
  const lines = [
    row(['Search query', searches.join('; ')]),
    row(['Filters', filters.join('; ')]),
    ...notes.map(([label, value]) => row([label, value])),
    row(COLUMNS.map(([title]) => title)),
  ];
  return lines.join('\r\n') + '\r\n';
}

export function exportRows(records: readonly CeilingRateRecord[]): string {
  return records.map((record) => row(COLUMNS.map(([, field]) => record[field])) + '\r\n').join('');
}

export function exportCsv(query: URLSearchParams, records: readonly CeilingRateRecord[]): string {
  return exportHead(query) + exportRows(records);
}
