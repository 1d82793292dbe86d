import { DATASET_NAMES } from '../../engine/dataset-registry.ts';
import { firstRows } from './csv-rows.ts';
import { ImportError } from './errors.ts';
import type { FileKind, ImportFormat } from './report.ts';
import { IMPORT_TARGETS, type ImportableDataset } from './targets.ts';

export type { ImportFormat } from './report.ts';
export type { ImportableDataset } from './targets.ts';

export interface DetectedFormat {
  format: ImportFormat;
  dataset: ImportableDataset;
  /** For the user: "Site Scanning snapshot (CSV)". */
  label: string;
}

/** Every accepted file, `<dataset>-<kind>`, as its target declares it. */
const FORMATS = new Map(
  IMPORT_TARGETS.flatMap(({ dataset, labels }) =>
    (['csv', 'json'] as const).map((kind): [ImportFormat, DetectedFormat] => [
      `${dataset}-${kind}`,
      { format: `${dataset}-${kind}`, dataset, label: labels[kind] },
    ]),
  ),
);
const detected = (dataset: ImportableDataset, kind: FileKind): DetectedFormat => FORMATS.get(`${dataset}-${kind}`)!;

export const FORMAT_LABELS = Object.fromEntries([...FORMATS.values()].map((f) => [f.format, f.label])) as Record<ImportFormat, string>;
/** The format each dataset's built-in files were imported from by the build (their report says so). */
export const BUILT_IN_FORMAT = Object.fromEntries(IMPORT_TARGETS.map((t) => [t.dataset, detected(t.dataset, t.builtIn).format])) as Record<
  ImportableDataset,
  ImportFormat
>;
export const datasetOf = (format: ImportFormat): ImportableDataset => FORMATS.get(format)!.dataset;

/** Messages name the datasets in the registry's order. */
const LISTED = [...IMPORT_TARGETS].sort((a, b) => DATASET_NAMES.indexOf(a.dataset) - DATASET_NAMES.indexOf(b.dataset));
const ACCEPTED = `Accepted files: ${LISTED.map((t) => t.accepts).join(', ')}.`;

function wrong(what: string): ImportError {
  return new ImportError('wrong-format', `${what} ${ACCEPTED} Nothing was changed.`);
}

function detectJson(head: string, lowerName: string): DetectedFormat {
  const byKeys = IMPORT_TARGETS.find((t) => t.json.keys.test(head));
  if (byKeys) return detected(byKeys.dataset, 'json');
  // No telling keys (an empty array): the name decides, and the import then says it has no rows.
  const byName = /^\s*\[\s*\]\s*$/.test(head) ? IMPORT_TARGETS.find((t) => t.json.name.test(lowerName)) : undefined;
  if (byName) return detected(byName.dataset, 'json');
  throw wrong(`This JSON file holds neither ${LISTED.map((t) => t.json.holds).join(' nor ')}.`);
}

/** A header that must open the file is looked for before one that may follow metadata rows. */
const BY_HEADER_PLACE = [...IMPORT_TARGETS].sort((a, b) => a.csv.rowsBeforeHeader - b.csv.rowsBeforeHeader);

/**
 * The format of a file from its first bytes (decoded text; 64 KB is plenty) and, for the message only,
 * its name. Throws ImportError('wrong-format') with a message for the user when it is none of the accepted ones.
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
  const rows = firstRows(text, BY_HEADER_PLACE.at(-1)!.csv.rowsBeforeHeader + 1);
  const byHeader = BY_HEADER_PLACE.find((t) => rows.slice(0, t.csv.rowsBeforeHeader + 1).some((row) => t.csv.isHeader(row)));
  if (byHeader) return detected(byHeader.dataset, 'csv');
  throw wrong('The first rows of this file do not name the columns of any dataset.');
}
