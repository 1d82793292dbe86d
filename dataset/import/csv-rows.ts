/**
 * CSV rows from a stream of text chunks, read by one pass of a small state machine (RFC 4180 quoting).
 * Every line break outside quotes ends a row, whichever it is (CRLF, LF, CR), so a file that mixes them
 * reads the same as one that does not. Nothing is re-read: the cost is linear in the file, and the text
 * held is the row being read, bounded by MAX_CELL per cell and MAX_FIELDS per row.
 */
import { ImportError } from './errors.ts';
import type { TextChunk } from './source.ts';

/** The longest cell read (characters). A longer one rejects its row; the rest of it is skipped unread. */
export const MAX_CELL = 64 * 1024;
/** The most fields a row may have (the snapshot has 104). Further fields reject the row and are not read. */
export const MAX_FIELDS = 1024;

export interface CsvRow {
  cells: string[];
  /** 1-based line of the file where the row starts. */
  line: number;
  /** Why the row cannot be read as written (its quotes, a cell over the bound), if so: the row is rejected. */
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

const COMMA = 0x2c;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

const enum State {
  /** At the start of a field (or of a row). */
  FieldStart,
  Unquoted,
  Quoted,
  /** A quote inside a quoted field: a doubled quote, or the field's end. */
  QuoteInQuoted,
}

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * The cell as a string of its own. V8 makes a substring of 13 characters or more a view into its parent,
 * so a held cell would hold its whole chunk of the file alive until the import ends: a 48 MB snapshot then
 * held all its text (and twice that if a chunk had one non-Latin-1 character) next to its records.
 * Appending a character makes a new string that is flattened, here, into its own copy.
 */
function detached(cell: string): string {
  return cell.length < 13 ? cell : `${cell} `.slice(0, -1);
}

/** Rows of CSV text fed chunk by chunk; `end` finishes the last row. */
class CsvReader {
  private state = State.FieldStart;
  private cells: string[] = [];
  private parts: string[] = [];
  private cellLength = 0;
  private rowLine = 1;
  private line = 1;
  private previous = 0;
  private inRow = false;
  private problem: string | null = null;
  private rows: CsvRow[] = [];

  /** Reads a chunk and returns the rows it completed. Plain text runs and quoted runs are scanned in tight loops. */
  push(text: string): CsvRow[] {
    const length = text.length;
    if (length === 0) return [];
    const carried = this.previous;
    /** The character before `at`, across chunks: a LF after a CR is the second half of one line break. */
    const before = (at: number): number => (at > 0 ? text.charCodeAt(at - 1) : carried);
    let segment = 0;
    let at = 0;
    while (at < length) {
      const c = text.charCodeAt(at);
      switch (this.state) {
        case State.FieldStart:
          if (c === QUOTE) {
            if (!this.inRow) this.startRow();
            this.state = State.Quoted;
            segment = at + 1;
          } else if (c === COMMA) {
            if (!this.inRow) this.startRow();
            this.endField('');
          } else if (c === CR || c === LF) {
            const secondHalf = c === LF && before(at) === CR;
            if (!secondHalf) this.line++;
            // A row ending in a comma ends with an empty field; otherwise a blank line, or the LF of a CRLF.
            if (this.inRow) this.endRow('');
          } else {
            if (!this.inRow) this.startRow();
            this.state = State.Unquoted;
            segment = at;
          }
          at++;
          break;
        case State.Unquoted: {
          let end = at;
          let d = c;
          while (d !== COMMA && d !== CR && d !== LF) {
            if (++end === length) break;
            d = text.charCodeAt(end);
          }
          at = end;
          if (end === length) break;
          if (d === COMMA) {
            this.endField(text.slice(segment, end));
          } else {
            this.line++;
            this.endRow(text.slice(segment, end));
          }
          at++;
          break;
        }
        case State.Quoted: {
          // Up to the next quote, counting the physical lines inside the cell.
          let end = at;
          let d = c;
          while (d !== QUOTE) {
            if (d === CR || (d === LF && before(end) !== CR)) this.line++;
            if (++end === length) break;
            d = text.charCodeAt(end);
          }
          at = end;
          if (end === length) break;
          this.append(text.slice(segment, end));
          this.state = State.QuoteInQuoted;
          at++;
          break;
        }
        case State.QuoteInQuoted:
          if (c === QUOTE) {
            this.append('"');
            this.state = State.Quoted;
            segment = at + 1;
          } else if (c === COMMA) {
            this.endField('');
          } else if (c === CR || c === LF) {
            this.line++;
            this.endRow('');
          } else {
            // `"abc"def`: the quote is taken as closing and the rest read as plain text, so the damage stays in this row.
            this.problem ??= `malformed quotes (a closing quote is followed by ${JSON.stringify(text[at])} instead of a comma or the line's end)`;
            this.state = State.Unquoted;
            segment = at;
            break;
          }
          at++;
          break;
      }
    }
    this.previous = text.charCodeAt(length - 1);
    if (this.state === State.Unquoted || this.state === State.Quoted) this.append(text.slice(segment));
    return this.take();
  }

  /** Ends the file: the last row, or ImportError('truncated') inside a quoted cell. */
  end(): CsvRow[] {
    if (this.state === State.Quoted) {
      throw new ImportError(
        'truncated',
        `The file ends inside a quoted cell (opened on line ${count(this.rowLine)}): it looks cut short (truncated). Nothing was changed.`,
      );
    }
    if (this.inRow) this.endRow('');
    return this.take();
  }

  private take(): CsvRow[] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }

  private startRow(): void {
    this.inRow = true;
    this.rowLine = this.line;
  }

  /** Adds text to the cell being read, up to MAX_CELL characters; past it the row is marked and the text dropped. */
  private append(piece: string): void {
    if (piece.length === 0) return;
    this.cellLength += piece.length;
    if (this.cellLength > MAX_CELL) {
      this.problem ??= `field ${count(this.cells.length + 1)} is longer than ${count(MAX_CELL)} characters (the limit for one cell)`;
      return;
    }
    this.parts.push(piece);
  }

  private endField(last: string): void {
    this.append(last);
    if (this.cells.length < MAX_FIELDS) {
      this.cells.push(this.parts.length === 1 ? detached(this.parts[0]) : this.parts.join(''));
    } else {
      this.problem ??= `more than ${count(MAX_FIELDS)} fields`;
    }
    this.parts.length = 0;
    this.cellLength = 0;
    this.state = State.FieldStart;
  }

  private endRow(last: string): void {
    this.endField(last);
    this.rows.push({ cells: this.cells, line: this.rowLine, problem: this.problem });
    this.cells = [];
    this.problem = null;
    this.inRow = false;
    this.rowLine = this.line;
  }
}

/** The rows of a file's first text (format detection): complete rows, then the unfinished last one. */
export function firstRows(text: string, max: number): string[][] {
  const reader = new CsvReader();
  const rows = reader.push(text);
  try {
    rows.push(...reader.end());
  } catch {
    // The head ends inside a quoted cell: the rows before it decide.
  }
  return rows.slice(0, max).map((row) => row.cells);
}

/**
 * Rows of a CSV text stream, one batch per chunk. A blank line is skipped. A file that ends inside a
 * quoted cell throws ImportError('truncated').
 */
export async function* csvRows(chunks: AsyncIterable<TextChunk>): AsyncGenerator<CsvBatch> {
  const reader = new CsvReader();
  const iterator = chunks[Symbol.asyncIterator]();
  let lastChar = '';
  let next = await iterator.next();
  while (!next.done) {
    const chunk = next.value;
    next = await iterator.next();
    const final = next.done === true;
    if (chunk.text.length > 0) lastChar = chunk.text[chunk.text.length - 1];
    const rows = reader.push(chunk.text);
    if (final) rows.push(...reader.end());
    yield { rows, bytesRead: chunk.bytesRead, final, endsWithNewline: lastChar === '\n' || lastChar === '\r' };
  }
}
