/**
 * The import core: a file in, batches of API records out, with a report. Platform-free (Node, worker).
 * The caller inserts batch by batch into a database built aside (see into-database.ts), shows progress and
 * cancels with an AbortSignal; any failure is an ImportError with a message for the user.
 */
import { mapColumns, type AliasTable } from './columns.ts';
import { ImportError, throwIfAborted } from './errors.ts';
import { csvFields, jsonFields } from './fields.ts';
import { datasetOf, detectFormat, FORMAT_LABELS, type ImportableDataset, type ImportFormat } from './formats.ts';
import { csvRows } from './csv-rows.ts';
import { checkShape, isObject, recordPlace, recordProblem, recordsOf } from './json-records.ts';
import { JsonSplitter, MAX_RECORD_TEXT, type JsonPiece } from './json-stream.ts';
import { clip, quote, ReportBuilder, type ImportReport, type RowPlace } from './report.ts';
import { sourceSize, textChunks, type ImportSource, type TextChunk } from './source.ts';
import { nextTask } from '../tasks.ts';
import { detectEncoding } from './encoding.ts';
import { INVALID_MARK } from './utf8.ts';
import type { IdPolicy, ImportTarget, Mapper } from './target.ts';
import { importTarget, type ImportedRecords } from './targets.ts';

export type { ImportedRecords } from './targets.ts';

export interface ImportProgress {
  /** Reading and mapping the file, or writing the records into the new database (import driver only). */
  phase: 'reading' | 'inserting';
  bytesRead: number;
  /** Size of the source when known (bytes; characters for a string source). */
  totalBytes: number | null;
  rowsImported: number;
  rowsRejected: number;
}

export interface ImportOptions {
  /** The file's name: only used to word the wrong-format message. */
  name?: string;
  /** Skip detection and read the file as this format. */
  format?: ImportFormat;
  /** Size for progress when the source does not tell (a stream). */
  totalBytes?: number;
  /** Records per batch (default 5000). */
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
  /** `_timestamp` of ceiling-rate rows that carry none (default: now). */
  now?: Date;
  /**
   * The day a Site Scanning snapshot was published (`YYYY-MM-DD`): the scan_date of records that have none (a
   * copy whose scan dates were removed), as midnight UTC of that day. Without it they keep a null scan_date.
   */
  snapshotDate?: string;
}

export interface ImportRun<D extends ImportableDataset = ImportableDataset> {
  format: ImportFormat;
  dataset: D;
  label: string;
  /** Size of the source for progress (bytes; characters for a string), when known. */
  totalBytes: number | null;
  /** Filled while `batches` is consumed; complete once it ends. */
  report: ImportReport;
  /** Batches of mapped records in file order. Throws ImportError when the file turns out bad or is cancelled. */
  batches: AsyncIterable<ImportedRecords[D][]>;
}

export type AnyImportRun = { [D in ImportableDataset]: ImportRun<D> }[ImportableDataset];

const HEAD_BYTES = 64 * 1024;
const DEFAULT_BATCH = 1000;

/** Reads the first chunks (at least 64 KB or the whole file) and hands back a stream that replays them. */
async function peek(chunks: AsyncIterator<TextChunk>): Promise<{ head: string; replay: AsyncIterable<TextChunk> }> {
  const seen: TextChunk[] = [];
  let head = '';
  let done = false;
  while (head.length < HEAD_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      done = true;
      break;
    }
    seen.push(next.value);
    head += next.value.text;
  }
  async function* replay(): AsyncGenerator<TextChunk> {
    try {
      yield* seen;
      if (done) return;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    } finally {
      // Stopped early (a failure, a cancel): release the source's stream reader.
      await chunks.return?.(undefined);
    }
  }
  return { head, replay: replay() };
}

/** Imports the first record of each identity; a later one is rejected with the place of the first. */
class Uniqueness<R> {
  private readonly seen = new Map<string | number, RowPlace>();
  constructor(private readonly mapper: Mapper<R>) {}
  check(record: R, place: RowPlace): string | null {
    const key = this.mapper.identity(record);
    const first = this.seen.get(key);
    if (first) {
      const where = first.line !== null ? `line ${first.line}` : `record ${first.record}`;
      return `duplicate ${this.mapper.identityName} ${typeof key === 'number' ? key : quote(key)} (first at ${where})`;
    }
    this.seen.set(key, place);
    return null;
  }
}

function noValidRows(report: ImportReport): ImportError {
  const reasons = [...new Set(report.rejected.map((row) => row.reason))].slice(0, 3);
  const why = report.rowsRead === 0 ? 'The file has no data rows.' : `None of its ${report.rowsRead} rows could be imported (${reasons.join('; ')}).`;
  return new ImportError('no-valid-rows', `${why} Nothing was changed.`);
}

interface PipelineContext<R> {
  mapper: Mapper<R>;
  builder: ReportBuilder;
  options: ImportOptions;
  totalBytes: number | null;
  /** The file is UTF-8 with stray bytes, each decoded as INVALID_MARK: a row holding one is rejected. */
  markInvalid: boolean;
}

const INVALID_BYTES = 'bytes that are not valid UTF-8 (the rest of the file is UTF-8)';

function progress<R>(context: PipelineContext<R>, bytesRead: number): void {
  const { report } = context.builder;
  report.bytesRead = bytesRead;
  context.options.onProgress?.({
    phase: 'reading',
    bytesRead,
    totalBytes: context.totalBytes,
    rowsImported: report.rowsImported,
    rowsRejected: report.rowsRejected,
  });
}

async function* csvBatches<R>(chunks: AsyncIterable<TextChunk>, context: PipelineContext<R>, csv: ImportTarget<R>['csv']): AsyncGenerator<R[]> {
  const { mapper, builder, options } = context;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const unique = new Uniqueness(mapper);
  let header: string[] | null = null;
  let index = new Map<string, number>();
  let records = 0;
  let buffer: R[] = [];
  for await (const batch of csvRows(chunks)) {
    throwIfAborted(options.signal);
    batch.rows.forEach((row, i) => {
      if (header === null) {
        if (csv.isHeader(row.cells)) {
          header = row.cells;
          const columns = mapColumns(header, mapper.aliases);
          index = columns.index;
          builder.report.columns = { used: columns.used.map(clip), ignored: columns.ignored.map(clip) };
          mapper.prepare((key) => index.has(key), builder);
          return;
        }
        builder.report.metadataRows++;
        if (builder.report.metadataRows > csv.rowsBeforeHeader) {
          throw new ImportError('malformed', `No header row found in the first ${csv.rowsBeforeHeader + 1} rows. Nothing was changed.`);
        }
        return;
      }
      const width: number = (header as string[]).length;
      if (row.cells.length < width && batch.final && i === batch.rows.length - 1 && !batch.endsWithNewline) {
        throw new ImportError(
          'truncated',
          `The file ends in the middle of a row (line ${row.line} has ${row.cells.length} of ${width} fields): it looks cut short (truncated). Nothing was changed.`,
        );
      }
      const place = { line: row.line, record: ++records };
      const notes = builder.row(place);
      if (row.problem !== null) return builder.reject(row.problem);
      if (context.markInvalid && row.cells.some((cell) => cell.includes(INVALID_MARK))) return builder.reject(INVALID_BYTES);
      const extra = row.cells.slice(width);
      if (row.cells.length < width || extra.some((cell) => cell.trim() !== '')) {
        return builder.reject(`${row.cells.length} fields where the header has ${width}`);
      }
      const result = mapper.map(csvFields(index, row.cells), notes);
      if (!result.ok) return builder.reject(result.reason);
      const duplicate = unique.check(result.record, place);
      if (duplicate !== null) return builder.reject(duplicate);
      builder.imported();
      buffer.push(result.record);
    });
    progress(context, batch.bytesRead);
    while (buffer.length >= batchSize) {
      yield buffer.slice(0, batchSize);
      buffer = buffer.slice(batchSize);
      throwIfAborted(options.signal);
    }
  }
  if (header === null) {
    throw new ImportError('no-valid-rows', 'The file has no header row and no data. Nothing was changed.');
  }
  if (buffer.length > 0) yield buffer;
  if (builder.report.rowsImported === 0) throw noValidRows(builder.report);
}

/** Canonical key → the JSON record's own key; records of one file share their keys, so the lookup is cached. */
function jsonIndexer(aliases: AliasTable<string>): (record: Record<string, unknown>) => Map<string, string> {
  const cache = new Map<string, Map<string, string>>();
  return (record) => {
    const header = Object.keys(record);
    const signature = header.join('\u0000');
    let index = cache.get(signature);
    if (!index) {
      index = new Map<string, string>();
      for (const [key, at] of mapColumns(header, aliases).index) index.set(key, header[at]);
      cache.set(signature, index);
    }
    return index;
  };
}

/** Maps a JSON file's records one by one into `take`, in file order: the first one names the file's columns. */
function jsonTaker<R>(context: PipelineContext<R>, take: (record: R) => void): (item: unknown, record: number) => void {
  const { mapper, builder } = context;
  const unique = new Uniqueness(mapper);
  const jsonIndex = jsonIndexer(mapper.aliases);
  let prepared = false;
  return (item, record) => {
    // The first object names the file's columns; a required one missing fails the file before any row counts.
    if (!prepared && isObject(item)) {
      const index = jsonIndex(item);
      builder.report.columns = {
        used: [...index.values()],
        ignored: Object.keys(item)
          .filter((key) => ![...index.values()].includes(key))
          .map(clip),
      };
      mapper.prepare((key) => index.has(key), builder);
      prepared = true;
    }
    const place = { line: null, record };
    const notes = builder.row(place);
    if (!isObject(item)) return builder.reject('not a JSON object');
    const problem = recordProblem(item, context.markInvalid ? INVALID_BYTES : null);
    if (problem !== null) return builder.reject(problem);
    const index = jsonIndex(item);
    const result = mapper.map(jsonFields(index, item), notes);
    if (!result.ok) return builder.reject(result.reason);
    const duplicate = unique.check(result.record, place);
    if (duplicate !== null) return builder.reject(duplicate);
    builder.imported();
    take(result.record);
  };
}

async function* jsonBatches<R>(chunks: AsyncIterable<TextChunk>, context: PipelineContext<R>, target: ImportTarget<R>, ids?: IdPolicy): AsyncGenerator<R[]> {
  const { builder, options } = context;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const splitter = new JsonSplitter(recordPlace(target.json.page));
  const waiting: { item: unknown; record: number }[] = [];
  let buffer: R[] = [];
  let records = 0;
  let bytesRead = 0;
  const take = jsonTaker(context, (record) => buffer.push(record));
  const takePieces = (pieces: JsonPiece[]): void => {
    for (const piece of pieces) {
      if (piece.oversize) {
        builder.row({ line: null, record: ++records });
        builder.reject(`record longer than ${MAX_RECORD_TEXT.toLocaleString('en-US')} characters`);
        continue;
      }
      for (const item of recordsOf(target.json, piece)) {
        records++;
        ids?.see(item);
        // From the first record without an id on, records wait (in order) for the file's largest id.
        if (waiting.length > 0 || ids?.waits(item)) waiting.push({ item, record: records });
        else take(item, records);
      }
    }
  };

  for await (const chunk of chunks) {
    throwIfAborted(options.signal);
    takePieces(splitter.push(chunk.text));
    bytesRead = chunk.bytesRead;
    progress(context, bytesRead);
    while (buffer.length >= batchSize) {
      yield buffer.slice(0, batchSize);
      buffer = buffer.slice(batchSize);
      throwIfAborted(options.signal);
    }
  }
  takePieces(splitter.end());
  checkShape(target.json, splitter.arrays);
  for (let at = 0; at < waiting.length; at++) {
    take(waiting[at].item, waiting[at].record);
    waiting[at].item = undefined;
    if (buffer.length >= batchSize) {
      yield buffer;
      buffer = [];
      // The whole file may be waiting: let a cancel in between.
      await nextTask();
      throwIfAborted(options.signal);
    }
  }
  if (buffer.length > 0) yield buffer;
  progress(context, bytesRead);
  if (builder.report.rowsImported === 0) throw noValidRows(builder.report);
}

/**
 * Opens an import: reads the first 64 KB, detects the format (or uses `options.format`), and returns the
 * run whose `batches` stream the records. Throws ImportError('wrong-format') before any batch when the
 * file is none of the accepted ones.
 */
export async function startImport(source: ImportSource, options: ImportOptions = {}): Promise<AnyImportRun> {
  throwIfAborted(options.signal);
  // One encoding for the whole file, chosen before any of it is parsed: never half one, half another.
  const { encoding, warning, markInvalid = false, source: readable } = await detectEncoding(source, options.signal);
  const iterator = textChunks(readable, { encoding, markInvalid, signal: options.signal })[Symbol.asyncIterator]();
  const { head, replay } = await peek(iterator);
  let format: ImportFormat;
  try {
    format = options.format ?? detectFormat(head, options.name).format;
  } catch (error) {
    await iterator.return?.(undefined);
    throw error;
  }
  const dataset = datasetOf(format);
  const builder = new ReportBuilder(dataset, format);
  builder.report.encoding = typeof source === 'string' ? 'text' : encoding;
  if (warning !== null) builder.warn(warning);
  const totalBytes = options.totalBytes ?? sourceSize(source);
  const json = format.endsWith('-json');
  const base = { format, label: FORMAT_LABELS[format], report: builder.report, totalBytes };

  const target = importTarget(dataset);
  const { mapper, jsonIds } = target.start(options);
  const context: PipelineContext<unknown> = { mapper, builder, options, totalBytes, markInvalid };
  const batches = json ? jsonBatches(replay, context, target, jsonIds) : csvBatches(replay, context, target.csv);
  return { ...base, dataset, batches: finishing(batches, builder) } as AnyImportRun;
}

/** Sorts the report when the batches are done. */
async function* finishing<R>(batches: AsyncGenerator<R[]>, builder: ReportBuilder): AsyncGenerator<R[]> {
  yield* batches;
  builder.finish();
}

/**
 * Records already parsed from a JSON file (the build rebuilds each shipped week in memory from its changes), mapped
 * exactly as the import of that file maps them, without writing their text and reading it back. Only for a
 * dataset whose records never wait for ids (Site Scanning).
 */
export function mapJsonRecords<D extends ImportableDataset>(
  dataset: D,
  items: Iterable<unknown>,
  options: ImportOptions = {},
): { records: ImportedRecords[D][]; report: ImportReport } {
  const format = `${dataset}-json` as ImportFormat;
  const builder = new ReportBuilder(dataset, format);
  const { mapper, jsonIds } = importTarget(dataset).start(options);
  if (jsonIds) throw new Error(`${dataset}: its JSON records wait for ids; import the file instead`);
  const records: ImportedRecords[D][] = [];
  const take = jsonTaker({ mapper, builder, options, totalBytes: null, markInvalid: false } as PipelineContext<unknown>, (record) =>
    records.push(record as ImportedRecords[D]),
  );
  let at = 0;
  for (const item of items) take(item, ++at);
  builder.finish();
  if (builder.report.rowsImported === 0) throw noValidRows(builder.report);
  return { records, report: builder.report };
}
