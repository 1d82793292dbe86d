/**
 * A JSON file read as a stream: one pass checks its grammar and cuts out the values at the places where
 * records live (a top-level array's elements, `items[*]`, `hits.hits[*]`, and those inside a top-level
 * element, a saved page), each parsed on its own with JSON.parse. Nothing else is held, so the memory of an import is its records, not the file's text plus
 * its whole parsed tree (a 34.5 MB file peaked at 5.7 × its size when parsed whole).
 */
import { ImportError } from './errors.ts';

/** The longest record text captured (characters): far above a real record (a few KB), under any memory worry. */
export const MAX_RECORD_TEXT = 8 * 1024 * 1024;

export type JsonPath = readonly (string | number)[];

/** A value cut out at a record place: parsed, or too long to keep (then only its place is known). */
export type JsonPiece = { path: JsonPath; value: unknown; oversize: false } | { path: JsonPath; value: undefined; oversize: true };

const enum Expect {
  Value,
  /** First thing in an array: a value or `]`. */
  ValueOrClose,
  /** First thing in an object: a key or `}`. */
  KeyOrClose,
  Key,
  Colon,
  /** After a value inside a container: `,` or its closing bracket. */
  After,
  /** After the top-level value: only white space. */
  End,
}

/** Levels whose keys and indices are tracked: record places are at most four deep (`[n].hits.hits[m]`). */
const TRACKED = 5;

const SCALAR = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null)$/;
const MAX_KEY = 1024;

function isWhite(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isScalarChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45;
}

export class JsonSplitter {
  private expect = Expect.Value;
  /** Container kinds (1: array) by depth, one byte each so any nesting costs at most the file's size. */
  private kinds = new Uint8Array(64);
  private depth = 0;
  private readonly keys: string[] = [];
  private readonly indices: number[] = [];
  /** Paths of the arrays opened in the first levels ("", "items", "hits/hits"): where records may be. */
  readonly arrays = new Set<string>();
  private inString = false;
  private escaped = false;
  private stringIsKey = false;
  private key = '';
  private scalar = '';
  private inScalar = false;
  /** Depth of the value being cut out (-1: none), its text so far and its length. */
  private captureDepth = -1;
  private capturePath: JsonPath = [];
  private captureParts: string[] = [];
  private captureLength = 0;
  private offset = 0;
  private pieces: JsonPiece[] = [];

  constructor(private readonly isRecordPlace: (path: JsonPath) => boolean) {}

  private malformed(what: string, at: number): never {
    throw new ImportError('malformed', `The file is not valid JSON (${what} at character ${(this.offset + at).toLocaleString('en-US')}). Nothing was changed.`);
  }

  private path(): JsonPath {
    const path: (string | number)[] = [];
    for (let i = 0; i < this.depth; i++) path.push(this.kinds[i] === 1 ? this.indices[i] : this.keys[i]);
    return path;
  }

  private open(array: boolean): void {
    if (this.depth < TRACKED) {
      if (array) this.arrays.add(this.path().join('/'));
      this.keys[this.depth] = '';
      this.indices[this.depth] = 0;
    }
    if (this.depth === this.kinds.length) {
      const wider = new Uint8Array(this.kinds.length * 2);
      wider.set(this.kinds);
      this.kinds = wider;
    }
    this.kinds[this.depth++] = array ? 1 : 0;
  }

  /** Reads a chunk; returns the record values it completed. */
  push(text: string): JsonPiece[] {
    let captureFrom = this.captureDepth >= 0 ? 0 : -1;
    const length = text.length;
    for (let at = 0; at < length; at++) {
      let c = text.charCodeAt(at);
      if (this.inString) {
        // Up to the closing quote in one tight loop; escapes are JSON.parse's to check (captured) or skipped.
        const start = at;
        while (at < length) {
          c = text.charCodeAt(at);
          if (this.escaped) this.escaped = false;
          else if (c === 0x5c) this.escaped = true;
          else if (c === 0x22) break;
          else if (c < 0x20) this.malformed('a control character inside a string', at);
          at++;
        }
        // Keys name record places outside a value being cut out, and inside a top-level element (it may be a page).
        const tracked = this.stringIsKey && this.captureDepth <= 1 && this.depth <= TRACKED;
        if (tracked && this.key.length <= MAX_KEY) this.key += text.slice(start, at);
        if (at === length) break;
        this.inString = false;
        if (this.stringIsKey) {
          if (this.captureDepth <= 1 && this.depth <= TRACKED) this.keys[this.depth - 1] = this.key.length > MAX_KEY ? '' : safeKey(this.key);
          this.expect = Expect.Colon;
        } else {
          captureFrom = this.valueEnded(text, at + 1, captureFrom);
        }
        continue;
      }
      if (this.inScalar) {
        if (isScalarChar(c)) {
          if (this.scalar.length <= 400) this.scalar += text[at];
          continue;
        }
        this.inScalar = false;
        if (this.scalar.length > 400 || !SCALAR.test(this.scalar)) this.malformed(`${JSON.stringify(this.scalar.slice(0, 40))} is not a JSON value`, at);
        captureFrom = this.valueEnded(text, at, captureFrom);
      }
      if (isWhite(c)) continue;
      switch (this.expect) {
        case Expect.End:
          throw new ImportError(
            'malformed',
            `The JSON file has extra text after its data at character ${(this.offset + at).toLocaleString('en-US')}: it is not one JSON document. Nothing was changed.`,
          );
        case Expect.Colon:
          if (c !== 0x3a) this.malformed('a missing ":"', at);
          this.expect = Expect.Value;
          break;
        case Expect.KeyOrClose:
        case Expect.Key:
          if (c === 0x7d && this.expect === Expect.KeyOrClose) {
            captureFrom = this.close(text, at, captureFrom);
          } else if (c === 0x22) {
            this.inString = true;
            this.stringIsKey = true;
            this.key = '';
          } else {
            this.malformed('a key expected', at);
          }
          break;
        case Expect.After: {
          const array = this.kinds[this.depth - 1] === 1;
          if (c === 0x2c) {
            if (array) {
              if (this.depth <= TRACKED) this.indices[this.depth - 1]++;
              this.expect = Expect.Value;
            } else {
              this.expect = Expect.Key;
            }
          } else if ((c === 0x5d && array) || (c === 0x7d && !array)) {
            captureFrom = this.close(text, at, captureFrom);
          } else {
            this.malformed(`${JSON.stringify(text[at])} where "," or the end of the ${array ? 'array' : 'object'} belongs`, at);
          }
          break;
        }
        case Expect.ValueOrClose:
        case Expect.Value:
          if (c === 0x5d && this.expect === Expect.ValueOrClose) {
            captureFrom = this.close(text, at, captureFrom);
            break;
          }
          // A record place inside a top-level element being cut out makes that element a saved page: its
          // records are cut out one by one instead of the page whole.
          if (this.captureDepth <= 1 && this.depth < TRACKED && this.depth > this.captureDepth && this.isRecordPlace(this.path())) {
            this.captureDepth = this.depth;
            this.capturePath = this.path();
            this.captureParts = [];
            this.captureLength = 0;
            captureFrom = at;
          }
          if (c === 0x7b || c === 0x5b) {
            this.open(c === 0x5b);
            this.expect = c === 0x5b ? Expect.ValueOrClose : Expect.KeyOrClose;
          } else if (c === 0x22) {
            this.inString = true;
            this.stringIsKey = false;
          } else if (isScalarChar(c)) {
            this.inScalar = true;
            this.scalar = text[at];
          } else {
            this.malformed(`${JSON.stringify(text[at])} where a value belongs`, at);
          }
          break;
      }
    }
    if (this.captureDepth >= 0 && captureFrom >= 0) this.capturePiece(text.slice(captureFrom));
    this.offset += length;
    const done = this.pieces;
    this.pieces = [];
    return done;
  }

  /** The end of the text: a scalar at the very end completes; anything still open means the file was cut short. */
  end(): JsonPiece[] {
    if (this.inScalar) {
      this.inScalar = false;
      if (!SCALAR.test(this.scalar)) this.malformed(`${JSON.stringify(this.scalar.slice(0, 40))} is not a JSON value`, 0);
      this.valueEnded('', 0, -1);
    }
    if (this.expect !== Expect.End) {
      throw new ImportError('truncated', 'The JSON file ends before its data does: it looks cut short (truncated). Nothing was changed.');
    }
    const done = this.pieces;
    this.pieces = [];
    return done;
  }

  private capturePiece(piece: string): void {
    this.captureLength += piece.length;
    if (this.captureLength <= MAX_RECORD_TEXT) this.captureParts.push(piece);
    else this.captureParts = [];
  }

  /** A container closes at `at`: the value it was ends there. */
  private close(text: string, at: number, captureFrom: number): number {
    this.depth--;
    return this.valueEnded(text, at + 1, captureFrom);
  }

  /** A value ended just before `end`: a cut-out one is parsed; the container now expects "," or its end. */
  private valueEnded(text: string, end: number, captureFrom: number): number {
    this.expect = this.depth === 0 ? Expect.End : Expect.After;
    if (this.captureDepth !== this.depth) return captureFrom;
    this.capturePiece(text.slice(Math.max(0, captureFrom), end));
    const path = this.capturePath;
    if (this.captureLength > MAX_RECORD_TEXT) {
      this.pieces.push({ path, value: undefined, oversize: true });
    } else {
      const whole = this.captureParts.length === 1 ? this.captureParts[0] : this.captureParts.join('');
      let value: unknown;
      try {
        value = JSON.parse(whole);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new ImportError('malformed', `The file is not valid JSON (${message.slice(0, 200)}). Nothing was changed.`, { cause: error });
      }
      this.pieces.push({ path, value, oversize: false });
    }
    this.captureDepth = -1;
    this.captureParts = [];
    this.captureLength = 0;
    return -1;
  }
}

/** A key as JSON text without its quotes, read as the key it names (escapes and all). */
function safeKey(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
