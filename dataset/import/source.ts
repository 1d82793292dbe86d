/**
 * Any file the caller has (a string, bytes, a Blob/File, a byte or text stream) as a stream of text chunks,
 * decoded with the one encoding chosen for the whole file (encoding.ts), the BOM dropped. Runs in Node and
 * in a worker: only TextDecoder, Blob and streams.
 */
import { ImportError, throwIfAborted } from './errors.ts';
import { MarkingUtf8Decoder } from './utf8.ts';
import { Windows1252Decoder } from './windows-1252.ts';
import { nextTask } from '../tasks.ts';

export type ImportSource = string | Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | string>;

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export const ENCODING_LABELS: Record<TextEncodingName, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 (little-endian)',
  'utf-16be': 'UTF-16 (big-endian)',
  'windows-1252': 'Windows-1252',
};

/** What textChunks decodes with: the platform's TextDecoder, or the marking UTF-8 decoder. */
interface Decoder {
  decode(bytes?: Uint8Array, options?: { stream?: boolean }): string;
}

/** A strict decoder for the file's encoding. */
function decoderFor(encoding: TextEncodingName, markInvalid: boolean): Decoder {
  if (markInvalid) return new MarkingUtf8Decoder();
  if (encoding === 'windows-1252') return new Windows1252Decoder();
  try {
    return new TextDecoder(encoding, { fatal: true });
  } catch (error) {
    throw new ImportError(
      'malformed',
      `The file is not UTF-8 and this browser cannot read ${ENCODING_LABELS[encoding]}: save it as UTF-8 and import it again. Nothing was changed.`,
      { cause: error },
    );
  }
}

export interface TextChunk {
  text: string;
  /** Bytes of the source consumed so far (characters for a string source). */
  bytesRead: number;
}

/** Slices of a string or byte source: big enough to be fast, small enough for smooth progress and cancel. */
export const SLICE = 1 << 20;

/** The source's size when it is known up front (bytes; characters for a string). */
export function sourceSize(source: ImportSource): number | null {
  if (typeof source === 'string') return source.length;
  if (source instanceof Uint8Array) return source.byteLength;
  if (source instanceof ArrayBuffer) return source.byteLength;
  if (isBlob(source)) return source.size;
  return null;
}

/** Whether the source can be read a second time (the encoding check reads it once before the import). */
export function isRereadable(source: ImportSource): boolean {
  return typeof source === 'string' || source instanceof Uint8Array || source instanceof ArrayBuffer || isBlob(source);
}

export function isBlob(source: unknown): source is Blob {
  return typeof Blob !== 'undefined' && source instanceof Blob;
}

function isReadableStream(source: unknown): source is ReadableStream<Uint8Array | string> {
  return typeof (source as ReadableStream | null)?.getReader === 'function';
}

async function* readStream<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** The raw pieces of a source, each a string or bytes. */
export async function* pieces(source: ImportSource): AsyncGenerator<Uint8Array | string> {
  if (typeof source === 'string') {
    for (let at = 0; at < source.length; at += SLICE) yield source.slice(at, at + SLICE);
  } else if (source instanceof Uint8Array || source instanceof ArrayBuffer) {
    const bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
    for (let at = 0; at < bytes.byteLength; at += SLICE) yield bytes.subarray(at, at + SLICE);
  } else if (isBlob(source)) {
    yield* readStream(source.stream() as ReadableStream<Uint8Array>);
  } else if (isReadableStream(source)) {
    yield* readStream(source);
  } else {
    yield* source;
  }
}

/**
 * Decoded text chunks with the running byte count; checks `signal` between chunks. The bytes are decoded
 * strictly: one that is not valid in `encoding` (which the encoding check chose for the whole file) is an
 * error, never a replacement character.
 */
export async function* textChunks(
  source: ImportSource,
  options: { encoding?: TextEncodingName; markInvalid?: boolean; signal?: AbortSignal } = {},
): AsyncGenerator<TextChunk> {
  const encoding = options.encoding ?? 'utf-8';
  const decoder = decoderFor(encoding, options.markInvalid === true);
  let bytesRead = 0;
  let first = true;
  const inMemory = typeof source === 'string' || source instanceof Uint8Array || source instanceof ArrayBuffer;
  const decode = (bytes: Uint8Array, stream: boolean): string => {
    try {
      return decoder.decode(bytes, { stream });
    } catch (error) {
      throw new ImportError(
        'malformed',
        `The file is not valid ${encoding.toUpperCase()} near byte ${bytesRead.toLocaleString('en-US')}. Nothing was changed.`,
        { cause: error },
      );
    }
  };
  for await (const piece of pieces(source)) {
    throwIfAborted(options.signal);
    let text: string;
    if (typeof piece === 'string') {
      text = piece;
      bytesRead += piece.length;
    } else {
      text = decode(piece, true);
      bytesRead += piece.byteLength;
    }
    // TextDecoder drops a byte-order mark itself; a string source may still carry one.
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    yield { text, bytesRead };
    // A source already in memory would otherwise run to the end without letting a cancel message in.
    if (inMemory) await nextTask();
  }
  const rest = decode(new Uint8Array(0), false);
  if (rest) yield { text: rest, bytesRead };
}
