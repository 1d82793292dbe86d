/**
 * Which encoding a file is in, decided once for the whole file before any of it is parsed, so no file is
 * ever read half in one encoding and half in another: a byte-order mark (UTF-8, UTF-16 LE/BE), else
 * UTF-16 recognised by its zero bytes, else UTF-8 when the file's bytes are (all or mostly) valid UTF-8,
 * else Windows-1252 (what a spreadsheet's "CSV" is on Windows).
 */
import { throwIfAborted } from './errors.ts';
import { Utf8Census } from './utf8.ts';
import { ENCODING_LABELS, isBlob, isRereadable, pieces, type ImportSource, type TextEncodingName } from './source.ts';
import { nextTask } from '../tasks.ts';

export { ENCODING_LABELS, type TextEncodingName };

export interface DetectedEncoding {
  /** What the file is decoded with; a string source is 'utf-8' (it is text already). */
  encoding: TextEncodingName;
  /** How it was decided, for the report, when it was a guess or not all of the file could be read. */
  warning: string | null;
  /** UTF-8 with a few invalid bytes: each is marked (INVALID_MARK) and the row holding it rejected. */
  markInvalid?: boolean;
}

/** Bytes looked at to recognise UTF-16 without a byte-order mark. */
const SNIFF_BYTES = 4096;

/** UTF-16 text of mostly ASCII has a zero in every other byte: LE at odd offsets, BE at even ones. */
function sniffUtf16(head: Uint8Array): TextEncodingName | null {
  const pairs = Math.floor(Math.min(head.length, SNIFF_BYTES) / 2);
  if (pairs < 2) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < pairs; i++) {
    if (head[2 * i] === 0) evenZeros++;
    if (head[2 * i + 1] === 0) oddZeros++;
  }
  if (oddZeros >= pairs * 0.4 && evenZeros <= pairs * 0.05) return 'utf-16le';
  if (evenZeros >= pairs * 0.4 && oddZeros <= pairs * 0.05) return 'utf-16be';
  return null;
}

function hex(byte: number): string {
  return `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/**
 * Decides the source's encoding; checks `signal` between pieces. A source that can be read again (a
 * string, bytes, a Blob) is read once whole here: all valid UTF-8 is UTF-8; mostly valid UTF-8 with a few
 * stray bytes is UTF-8 whose rows holding them are rejected (`markInvalid`); otherwise Windows-1252. A
 * one-shot stream is only looked at in its first piece (a BOM, UTF-16), which `source` then replays; it is
 * decoded as strict UTF-8 and fails with a message at a byte that is not, never decoded two ways.
 */
export async function detectEncoding(input: ImportSource, signal?: AbortSignal): Promise<DetectedEncoding & { source: ImportSource }> {
  if (typeof input === 'string') return { ...UTF8, source: input };
  if (!isRereadable(input)) {
    const iterator = pieces(input)[Symbol.asyncIterator]();
    const first = await iterator.next();
    async function* replay(): AsyncGenerator<Uint8Array | string> {
      try {
        if (first.done) return;
        yield first.value;
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
      } finally {
        await iterator.return?.(undefined);
      }
    }
    const head = first.done || typeof first.value === 'string' ? null : first.value;
    return { ...(head ? (fromFirstBytes(head) ?? UTF8) : UTF8), source: replay() };
  }
  const census = new Utf8Census();
  let started = false;
  const iterator = pieces(input)[Symbol.asyncIterator]();
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      throwIfAborted(signal);
      const piece = next.value;
      if (typeof piece === 'string') return { ...UTF8, source: input };
      if (!started && piece.length > 0) {
        started = true;
        const known = fromFirstBytes(piece);
        if (known) return { ...known, source: input };
      }
      census.add(piece);
      if (!isBlob(input)) await nextTask();
    }
  } finally {
    await iterator.return?.(undefined);
  }
  census.end();
  if (census.first === null) return { ...UTF8, source: input };
  const where = `${hex(census.first.byte)} at offset ${census.first.offset.toLocaleString('en-US')}`;
  const bytes = census.invalid === 1 ? 'one byte' : `${census.invalid.toLocaleString('en-US')} bytes`;
  // A Windows-1252 file's accented letters are almost never valid UTF-8 sequences; a UTF-8 file's almost all are.
  if (census.multiByte > census.invalid) {
    return {
      encoding: 'utf-8',
      markInvalid: true,
      warning: `The file is UTF-8 except for ${bytes} that are not valid UTF-8 (the first ${where}): the rows holding them were rejected.`,
      source: input,
    };
  }
  return {
    encoding: 'windows-1252',
    warning: `The file is not UTF-8 (the first invalid byte is ${where}): the whole file was read as Windows-1252 (a spreadsheet's CSV). Check accented characters.`,
    source: input,
  };
}

const UTF8: DetectedEncoding = { encoding: 'utf-8', warning: null };

/** What the first bytes settle: a byte-order mark, or UTF-16 recognised by its zero bytes; null when they do not. */
function fromFirstBytes(head: Uint8Array): DetectedEncoding | null {
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', warning: null };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', warning: null };
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return null;
  const utf16 = sniffUtf16(head);
  return utf16 ? { encoding: utf16, warning: `The file has no byte-order mark but its bytes are ${ENCODING_LABELS[utf16]}: it was read as such.` } : null;
}
