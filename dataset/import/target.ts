/**
 * What a dataset brings to the import core: how its file's rows map to its records, where its JSON keeps
 * them, and how they go into its database. Each dataset writes one (`dataset/import/<dataset>/target.ts`) and
 * `targets.ts` lists them; the shared files of this folder name no dataset.
 */
import type { Database } from 'sql.js';
import type { DatasetName } from '../../engine/http/types.ts';
import type { AliasTable } from './columns.ts';
import type { MapResult, SourceFields } from './fields.ts';
import type { FileKind, ReportBuilder, ValueNotes } from './report.ts';

/** Dataset-specific parts of the pipeline. */
export interface Mapper<R> {
  aliases: AliasTable<string>;
  /** Checks the file's columns; throws ImportError('malformed') when a required one is missing. */
  prepare(has: (key: string) => boolean, report: ReportBuilder): void;
  map(row: SourceFields<string>, notes: ValueNotes): MapResult<R>;
  /** The identity that must be unique (target_url, id) and how to name it in a rejection. */
  identity(record: R): string | number;
  identityName: string;
}

/**
 * JSON records without an id get the file's largest id + 1, …: from the first of them on, the records wait
 * for the end of the file (API pages always carry ids, so this is the rare case).
 */
export interface IdPolicy {
  /** Whether this record must wait (it has no id of its own). */
  waits(record: unknown): boolean;
  /** Notes a record's id, for the largest. */
  see(record: unknown): void;
}

/** The options of a run a target reads. */
export interface TargetOptions {
  /** `_timestamp` of rows that carry none (default: now). */
  now?: Date;
  /** The day a snapshot was published (`YYYY-MM-DD`), for records that carry no date of their own. */
  snapshotDate?: string;
}

export interface ImportTarget<R = unknown, D extends DatasetName = DatasetName> {
  dataset: D;
  /** Each kind of file for the user ("Site Scanning snapshot (CSV)"); its format is `<dataset>-<kind>`. */
  labels: Readonly<Record<FileKind, string>>;
  /** The kind of file the build imports this dataset's built-in files from (their report says so). */
  builtIn: FileKind;
  /** For the wrong-format message's list of accepted files. */
  accepts: string;
  /** One run's mapping: its mapper, and for JSON, how records without an id get one (absent: they need none). */
  start(options: TargetOptions): { mapper: Mapper<R>; jsonIds?: IdPolicy };
  csv: {
    /** A row naming this dataset's columns. */
    isHeader(cells: readonly string[]): boolean;
    /** Rows before the header allowed (the export's metadata rows). */
    rowsBeforeHeader: number;
  };
  json: {
    /** Keys, found in a JSON file's first 64 KB, that say it holds this dataset's records. */
    keys: RegExp;
    /** For a JSON file with no telling keys (an empty array): a lower-case file name that says it is this dataset's. */
    name: RegExp;
    /** What its JSON files hold, for the wrong-format message ("Site Scanning records"). */
    holds: string;
    /** Where a saved API page keeps its records (`items`, `hits/hits`). */
    page: readonly string[];
    /** The message when a JSON file has no place for records. */
    noRecords: string;
    /** One element at that place as the record to map (a hit's `_source`, say). */
    record(value: unknown): unknown;
  };
  /** Records per insert call (decision 0504). */
  insertEvery: number;
  insert(db: Database, records: R[]): void;
  /** After the last batch (sort keys, a column table). */
  finish(db: Database): void;
}
