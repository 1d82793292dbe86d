/**
 * CSV rows from a stream of text chunks, parsed by papaparse's own parser fed chunk by chunk the way its
 * streamers do (the unfinished last row is carried into the next chunk), so quoted cells with commas and
 * newlines may span chunks. Each row carries the line where it starts, for the report.
 */
import Papa from 'papaparse';
import { ImportError } from './errors.ts';
import type { TextChunk } from './source.ts';

export interface CsvRow {
  cells: string[];
  /** 1-based line of the file where the row starts. */
  line: number;
  /** A papaparse complaint about this row's quotes, if any. */
  problem: string | null;
}

export interface CsvBatch {
  rows: CsvRow[];
  bytesRead: number;
  /** True on the last batch: its last row ends the file. */
  final: boolean;
  /** Whether the file's text ends with a line break (a complete last row). */
  endsWithNewline: boolean;
}

/** papaparse's guess (quoted cells removed first), from the first chunk that holds a line break. */
function guessLineBreak(text: string): '\r\n' | '\n' | '\r' {
  // A CR at the very end may be the first half of a CRLF: leave it out of the guess.
  const linebreak = Papa.parse(text.replace(/\r$/, ''), { preview: 1 }).meta.linebreak;
  return linebreak === '\r\n' || linebreak === '\r' ? linebreak : '\n';
}

/** A line break that cannot be the first half of a CRLF split across chunks. */
function hasWholeLineBreak(text: string): boolean {
  const at = text.search(/[\r\n]/);
  return at !== -1 && (text[at] === '\n' || at + 1 < text.length);
}

interface StepResult {
  data: string[][];
  errors: { code: string; message: string }[];
  meta: { cursor: number };
}

interface RawParser {
  parse(input: string, baseIndex: number, ignoreLastRow: boolean): StepResult;
}

function countLineBreaks(text: string, from: number, to: number, linebreak: string): number {
  const mark = linebreak === '\r' ? '\r' : '\n';
  let count = 0;
  for (let at = text.indexOf(mark, from); at !== -1 && at < to; at = text.indexOf(mark, at + 1)) count++;
  return count;
}

/**
 * Rows of a CSV text stream, one batch per chunk. A blank line is skipped. A file that ends inside a
 * quoted cell throws ImportError('truncated').
 */
export async function* csvRows(chunks: AsyncIterable<TextChunk>): AsyncGenerator<CsvBatch> {
  const iterator = chunks[Symbol.asyncIterator]();
  let parser: RawParser | null = null;
  let linebreak: '\r\n' | '\n' | '\r' = '\n';
  let partial = '';
  let baseIndex = 0;
  let line = 1;
  let lastChar = '';
  let pending: CsvRow[] = [];
  // Absolute offset of the next row's start, and the text it is counted in.
  let rowStart = 0;
  let aggregate = '';
  let unterminated = false;

  const onStep = (result: StepResult): void => {
    const end = result.meta.cursor;
    const cells = result.data[0];
    const startLine = line;
    line += countLineBreaks(aggregate, rowStart - baseIndex, end - baseIndex, linebreak);
    rowStart = end;
    if (!cells || (cells.length === 1 && cells[0] === '')) return;
    if (result.errors.some((e) => e.code === 'MissingQuotes')) unterminated = true;
    const problem = result.errors.length > 0 ? result.errors.map((e) => e.message).join('; ') : null;
    pending.push({ cells, line: startLine, problem });
  };

  let next = await iterator.next();
  while (!next.done) {
    const chunk = next.value;
    next = await iterator.next();
    const final = next.done === true;
    if (chunk.text.length > 0) lastChar = chunk.text[chunk.text.length - 1];
    aggregate = partial + chunk.text;
    if (!parser) {
      if (!final && !hasWholeLineBreak(aggregate)) {
        partial = aggregate;
        continue;
      }
      linebreak = guessLineBreak(aggregate);
      parser = new Papa.Parser({ delimiter: ',', newline: linebreak, quoteChar: '"', step: onStep as never }) as unknown as RawParser;
    }
    const result = parser.parse(aggregate, baseIndex, !final);
    if (final && (unterminated || result.errors.some((e) => e.code === 'MissingQuotes'))) {
      throw new ImportError('truncated', 'The file ends inside a quoted cell: it looks cut short (truncated). Nothing was changed.');
    }
    const cursor = result.meta.cursor;
    partial = aggregate.substring(cursor - baseIndex);
    baseIndex = cursor;
    const rows = pending;
    pending = [];
    yield { rows, bytesRead: chunk.bytesRead, final, endsWithNewline: lastChar === '\n' || lastChar === '\r' };
  }
}
