/**
 * export=y: the query's matching records as CSV, in the request's order, up to the 10,000 window.
 * Two metadata rows describe the query, then the header row the importer looks for (`Contract #,…`).
 *
 * The rows are written from the columns held in memory (columns/store.ts), not from `_source`: a text cell is
 * the same for every record holding that value, so it is rendered once per distinct value and each row only
 * joins the cells of its codes. No record object and no JSON per row: 10,000 rows cost milliseconds.
 */
import type { ColumnStore, NumericField, TextField } from './columns/store.ts';

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
  // Older exports' columns, still written so an exported file imports back without loss.
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
 * Text quoted whatever separator the spreadsheet splits on: a comma here, but a semicolon in locales whose
 * decimal mark is a comma, a tab or `|` when a user picks them. Unquoted, `x;=HYPERLINK(…)` opened in a
 * `;` locale is two cells, the second a live formula that no leading `'` on the first could guard.
 */
const NEEDS_QUOTES = /[",;\t|\r\n]/;

/**
 * One CSV cell. Text that starts like a formula gets a leading `'`, and text holding a quote, a line break or
 * any separator is quoted; numbers are written as numbers, unguarded, so a negative price stays a number a
 * spreadsheet (and the importer) reads back.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (no line break) of cells. */
export const csvLine = (cells: readonly (string | number | null)[]): string => cells.map(csvCell).join(',');
const row = csvLine;

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

/**
 * A column whose records carry codes (a text field's dictionary codes, a ranked number's rank): each code's
 * cell is rendered the first time a row needs it, then cached.
 */
interface CodedCells {
  codes: ArrayLike<number>;
  render: (code: number) => string;
  cells: (string | undefined)[];
}

/** A number's cell: `String(n)`, unguarded (see csvCell); null (NaN) is empty. */
const numberCell = (v: number): string => (v === v ? String(v) : '');

/**
 * Writes records' CSV rows from a store. Built once per store (the cells it renders stay valid as long as the
 * store does). Text fields and the numbers the store ranks have their cells rendered once per distinct value;
 * the numbers it does not rank (the later-year prices) are rendered per record.
 */
export class CsvRowWriter {
  private readonly columns: (CodedCells | NumericField)[];

  constructor(private readonly store: ColumnStore) {
    this.columns = EXPORT_FIELDS.map((field): CodedCells | NumericField => {
      if (field in store.text) {
        const { codes, values } = store.text[field as TextField];
        return { codes, render: (code) => csvCell(values[code]), cells: new Array<string | undefined>(values.length) };
      }
      const ranks = store.numberRanks[field as NumericField];
      if (!ranks) return field as NumericField;
      const { rank, distinct } = ranks;
      return {
        codes: rank,
        render: (code) => (code < distinct.length ? numberCell(distinct[code]) : ''),
        cells: new Array<string | undefined>(distinct.length + 1),
      };
    });
  }

  /** The rows (store row numbers) as CSV lines, each ending in CRLF, in the order given. */
  write(rows: ArrayLike<number>): string {
    const columns = this.columns.map((column) => (typeof column === 'string' ? this.store.numbers[column] : column));
    const width = columns.length;
    // One array of cells joined per line, and the lines joined once: joins write flat strings, where `+`
    // would build ropes that the final join must walk.
    const line: string[] = new Array(width);
    const lines: string[] = new Array(rows.length + 1);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      for (let c = 0; c < width; c++) {
        const column = columns[c];
        if (column instanceof Float64Array) {
          line[c] = numberCell(column[r]);
          continue;
        }
        const code = column.codes[r];
        const cell = column.cells[code];
        line[c] = cell === undefined ? (column.cells[code] = column.render(code)) : cell;
      }
      lines[i] = line.join(',');
    }
    lines[rows.length] = '';
    return rows.length === 0 ? '' : lines.join('\r\n');
  }
}
