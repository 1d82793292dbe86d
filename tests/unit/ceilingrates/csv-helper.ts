import Papa from 'papaparse';

/** CSV text → rows of cells (the export's CRLF rows; a trailing empty line dropped). */
export function parseCsvRows(text: string): string[][] {
  return Papa.parse<string[]>(text.trimEnd(), { skipEmptyLines: false }).data;
}
