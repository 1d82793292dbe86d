/**
 * export=y: the query's matching records as CSV, in the request's order, up to the 10,000 window.
 * Two metadata rows describe the query, then the header row the importer looks for (`Contract #,…`).
 *
 * The rows are written from the columns held in memory (columns/store.ts), not from `_source`: a text cell is
 * the same for every record holding that value, so it is rendered once per distinct value and each row only
 * joins the cells of its codes. No record object and no JSON per row: 10,000 rows cost milliseconds.
 */
import type { ColumnStore, NumericField, TextField } from './columns/store.ts';
import type { Codes } from './columns/dictionary.ts';

type ExportField = TextField | NumericField;

const COLUMNS: readonly (readonly [string, ExportField])[] = [
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

/** The record fields the export writes, in column order. */
export const EXPORT_FIELDS: readonly ExportField[] = COLUMNS.map(([, field]) => field);

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

/** A text column's cells: each distinct value's cell rendered the first time a row needs it, then kept. */
interface TextCells {
  codes: Codes;
  values: readonly (string | null)[];
  cells: (string | undefined)[];
}

/** One export column: a text field's cells by code, or a numeric field's values (`String(n)`, NaN empty). */
type ColumnCells = { text: TextCells } | { numbers: () => Float64Array };

/**
 * Writes records' CSV rows from a store. Built once per store (the cells it renders stay valid as long as the
 * store does); the later-year prices are asked for only when a row is written (the store reads them on first use).
 */
export class CsvRowWriter {
  private readonly columns: ColumnCells[];

  constructor(store: ColumnStore) {
    this.columns = EXPORT_FIELDS.map((field): ColumnCells => {
      if (field in store.text) {
        const dict = store.text[field as TextField];
        return { text: { codes: dict.codes, values: dict.values, cells: new Array<string | undefined>(dict.values.length) } };
      }
      return { numbers: () => store.numbers[field as NumericField] };
    });
  }

  /** The rows (store row numbers) as CSV lines, each ending in CRLF, in the order given. */
  write(rows: ArrayLike<number>): string {
    const columns = this.columns.map((column) => ('text' in column ? column.text : column.numbers()));
    const lines: string[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      let line = '';
      for (let c = 0; c < columns.length; c++) {
        const column = columns[c];
        let cell: string;
        if (column instanceof Float64Array) {
          const v = column[r];
          cell = v === v ? String(v) : '';
        } else {
          const code = column.codes[r];
          const known = column.cells[code];
          cell = known === undefined ? (column.cells[code] = csvCell(column.values[code])) : known;
        }
        line = c === 0 ? cell : line + ',' + cell;
      }
      lines[i] = line + '\r\n';
    }
    return lines.join('');
  }
}
