/**
 * Which encoding a file is in, decided once for the whole file before any of it is parsed, so no file is
 * ever read half in one encoding and half in another: a byte-order mark (UTF-8, UTF-16 LE/BE), else
 * UTF-16 recognised by its zero bytes, else UTF-8 if every byte of the file is valid UTF-8, else
 * Windows-1252 (what a spreadsheet's "CSV" is on Windows).
 */
import { throwIfAborted } from './errors.ts';
import { ENCODING_LABELS, isBlob, isRereadable, nextTask, pieces, type ImportSource, type TextEncodingName } from './source.ts';

export { ENCODING_LABELS, type TextEncodingName };

export interface DetectedEncoding {
  /** What the file is decoded with; a string source is 'utf-8' (it is text already). */
  encoding: TextEncodingName;
  /** How it was decided, for the report: a BOM, a guess from the bytes, or the whole file checked. */
  warning: string | null;
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

/**
 * Offset of the first byte that does not start (or continue) a valid UTF-8 sequence in `bytes`, or -1.
 * Only run on the piece the platform's decoder refused, to name the place in the report. A piece may
 * begin inside a character started in the previous one (`continued`); a character cut at its end is not
 * an error.
 */
export function firstInvalidUtf8(bytes: Uint8Array, continued = false): number {
  let i = 0;
  if (continued) while (i < 3 && i < bytes.length && bytes[i] >= 0x80 && bytes[i] <= 0xbf) i++;
  while (i < bytes.length) {
    const b = bytes[i];
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= bytes.length) return -1;
      const next = bytes[i + k];
      // The second byte's range is narrower after E0, ED, F0 and F4 (no overlong forms, no surrogates).
      const low = k === 1 && b === 0xe0 ? 0xa0 : k === 1 && b === 0xf0 ? 0x90 : 0x80;
      const high = k === 1 && b === 0xed ? 0x9f : k === 1 && b === 0xf4 ? 0x8f : 0xbf;
      if (next < low || next > high) return i;
    }
    i += need + 1;
  }
  return -1;
}

function hex(byte: number): string {
  return `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/**
 * Decides the source's encoding; checks `signal` between pieces. A source that can be read again (a
 * string, bytes, a Blob) is read once whole here to check it is UTF-8. A one-shot stream is only looked
 * at in its first piece (a BOM, UTF-16), which `source` then replays; it is decoded as strict UTF-8 and
 * fails with a message at a byte that is not, instead of being decoded two ways.
 */
export async function detectEncoding(input: ImportSource, signal?: AbortSignal): Promise<DetectedEncoding & { source: ImportSource }> {
  if (typeof input === 'string') return { encoding: 'utf-8', warning: null, source: input };
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
    return { ...(head ? fromFirstBytes(head) ?? UTF8 : UTF8), source: replay() };
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  const iterator = pieces(input)[Symbol.asyncIterator]();
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      throwIfAborted(signal);
      const piece = next.value;
      if (typeof piece === 'string') return { ...UTF8, source: input };
      if (offset === 0 && piece.length > 0) {
        const known = fromFirstBytes(piece);
        if (known) return { ...known, source: input };
      }
      try {
        decoder.decode(piece, { stream: true });
      } catch {
        const at = firstInvalidUtf8(piece, offset > 0);
        const where = at < 0 ? `before offset ${(offset + piece.length).toLocaleString('en-US')}` : `byte ${hex(piece[at])} at offset ${(offset + at).toLocaleString('en-US')}`;
        return { encoding: 'windows-1252', warning: windows1252Warning(where), source: input };
      }
      offset += piece.length;
      if (!isBlob(input)) await nextTask();
    }
    try {
      decoder.decode();
    } catch {
      return { encoding: 'windows-1252', warning: windows1252Warning('the end: an unfinished character'), source: input };
    }
    return { ...UTF8, source: input };
  } finally {
    await iterator.return?.(undefined);
  }
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

function windows1252Warning(where: string): string {
  return `The file is not UTF-8 (first invalid: ${where}): the whole file was read as Windows-1252 (a spreadsheet's CSV). Check accented characters.`;
}
