import type { DatasetName } from '../../engine/http/types.ts';
import type { TextEncodingName } from './source.ts';

export type FileKind = 'csv' | 'json';
/** A dataset's kind of file (`ceilingrates-csv`); each import target names and detects its own (targets.ts). */
export type ImportFormat = `${DatasetName}-${FileKind}`;

/** Where a row came from: the physical line where it starts (CSV) and its 1-based position among data rows. */
export interface RowPlace {
  /** 1-based line of the file where the row starts; null for JSON records. */
  line: number | null;
  /** 1-based position among the file's data rows (CSV) or records (JSON). */
  record: number;
}

export interface RejectedRow extends RowPlace {
  reason: string;
}

/**
 * What happened to the values of one field of one kind. `normalised`: rewritten into the record's form
 * (`$1,234.50` → 1234.5). `kept-original`: could not be normalised, the original text is stored as is.
 * `set-to-null`: could not be normalised and the field cannot hold text (a number, a boolean), so null.
 */
export type ValueOutcome = 'normalised' | 'kept-original' | 'set-to-null';

export interface ValueExample extends RowPlace {
  original: string;
  value: string | null;
}

export interface ValueNote {
  field: string;
  kind: string;
  outcome: ValueOutcome;
  count: number;
  examples: ValueExample[];
}

export interface ImportReport {
  dataset: DatasetName;
  format: ImportFormat;
  /** The one encoding the whole file was decoded with ('text' when the caller passed a string). */
  encoding: TextEncodingName | 'text';
  /** Data rows (CSV) or records (JSON) seen, metadata and header rows excluded. */
  rowsRead: number;
  rowsImported: number;
  rowsRejected: number;
  /** The first MAX_REJECTED_LISTED rejected rows, in file order; `rowsRejected` has the full count. */
  rejected: RejectedRow[];
  /** Rows before the header (the ceiling-rate export's metadata rows). */
  metadataRows: number;
  /** Value notes, most frequent first once the import is complete. */
  values: ValueNote[];
  columns: {
    /** Source column names that fed the record. */
    used: string[];
    /** Source column names with no place in the record (stored nowhere). */
    ignored: string[];
  };
  /** File-level remarks (a derived column, a re-encoded file), for the user. */
  warnings: string[];
  bytesRead: number;
}

export const MAX_REJECTED_LISTED = 1000;
export const MAX_EXAMPLES = 5;

/** Receives value notes for the row being mapped; the row's place is bound by the report. */
export interface ValueNotes {
  note(field: string, kind: string, outcome: ValueOutcome, original: unknown, value: unknown): void;
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

/** Characters of a file's text a report or a message repeats: enough to recognise a value, never a whole cell. */
export const MAX_QUOTED = 200;

/** The text cut to MAX_QUOTED characters, saying how long it was. */
export function clip(textValue: string): string {
  return textValue.length <= MAX_QUOTED ? textValue : `${textValue.slice(0, MAX_QUOTED)}… (${textValue.length.toLocaleString('en-US')} characters)`;
}

/** A value from the file in double quotes for a reason or a message, cut to MAX_QUOTED characters. */
export function quote(value: unknown): string {
  const textValue = asText(value);
  if (textValue.length <= MAX_QUOTED) return JSON.stringify(textValue);
  return `${JSON.stringify(textValue.slice(0, MAX_QUOTED))}… (${textValue.length.toLocaleString('en-US')} characters)`;
}

/** A rejection reason's own bound, for reasons that quote through `quote` and still add a little. */
const MAX_REASON = 2 * MAX_QUOTED + 200;

/** Builds the report while rows stream by. */
export class ReportBuilder {
  readonly report: ImportReport;
  private readonly notes = new Map<string, ValueNote>();
  private place: RowPlace = { line: null, record: 0 };

  constructor(dataset: DatasetName, format: ImportFormat) {
    this.report = {
      dataset,
      format,
      encoding: 'utf-8',
      rowsRead: 0,
      rowsImported: 0,
      rowsRejected: 0,
      rejected: [],
      metadataRows: 0,
      values: [],
      columns: { used: [], ignored: [] },
      warnings: [],
      bytesRead: 0,
    };
  }

  /** Starts a data row: later notes and a rejection refer to it. */
  row(place: RowPlace): ValueNotes {
    this.place = place;
    this.pending.length = 0;
    this.report.rowsRead++;
    return this.valueNotes;
  }

  /** Notes wait for the row's outcome: a rejected row's values are not counted as normalised. */
  private readonly pending: [string, string, ValueOutcome, unknown, unknown][] = [];

  readonly valueNotes: ValueNotes = {
    note: (field, kind, outcome, original, value) => {
      this.pending.push([field, kind, outcome, original, value]);
    },
  };

  private record(field: string, kind: string, outcome: ValueOutcome, original: unknown, value: unknown): void {
    const key = `${field}\u0000${kind}\u0000${outcome}`;
    let entry = this.notes.get(key);
    if (!entry) {
      entry = { field, kind, outcome, count: 0, examples: [] };
      this.notes.set(key, entry);
      this.report.values.push(entry);
    }
    entry.count++;
    if (entry.examples.length < MAX_EXAMPLES) {
      entry.examples.push({
        ...this.place,
        original: clip(asText(original)),
        value: value === null || value === undefined ? null : clip(asText(value)),
      });
    }
  }

  imported(): void {
    this.report.rowsImported++;
    for (const note of this.pending) this.record(...note);
    this.pending.length = 0;
  }

  reject(reason: string, place: RowPlace = this.place): void {
    this.pending.length = 0;
    this.report.rowsRejected++;
    if (this.report.rejected.length < MAX_REJECTED_LISTED) {
      this.report.rejected.push({ ...place, reason: reason.length <= MAX_REASON ? reason : `${reason.slice(0, MAX_REASON)}…` });
    }
  }

  warn(message: string): void {
    if (!this.report.warnings.includes(message)) this.report.warnings.push(message);
  }

  /** Sorts the value notes, most frequent first, once the rows are done. */
  finish(): ImportReport {
    this.report.values.sort((a, b) => b.count - a.count || a.field.localeCompare(b.field) || a.kind.localeCompare(b.kind));
    return this.report;
  }
}

/** One line per fact, for the console and for tests that read the report as text. */
export function summariseReport(report: ImportReport): string {
  const lines = [`${report.rowsImported} rows imported, ${report.rowsRejected} rejected (of ${report.rowsRead} read)`];
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  for (const row of report.rejected.slice(0, 20)) {
    lines.push(`rejected ${row.line !== null ? `line ${row.line}` : `record ${row.record}`}: ${row.reason}`);
  }
  for (const value of report.values) lines.push(`${value.field}: ${value.kind} (${value.outcome}) × ${value.count}`);
  return lines.join('\n');
}
