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

/** A spreadsheet would run a cell starting with one of these as a formula. */
const FORMULA_START = /^[=+\-@|]/;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const row = (cells: readonly (string | number | null)[]): string => cells.map(csvCell).join(',');

export function exportCsv(query: URLSearchParams, records: readonly CeilingRateRecord[]): string {
  const searches = [...query.getAll('search'), ...query.getAll('keyword')].filter((s) => s.trim() !== '');
  const filters = query.getAll('filter');
  const lines = [
    row(['Search query', searches.join('; ')]),
    row(['Filters', filters.join('; ')]),
    row(COLUMNS.map(([title]) => title)),
    ...records.map((record) => row(COLUMNS.map(([, field]) => record[field]))),
  ];
  return lines.join('\r\n') + '\r\n';
}
