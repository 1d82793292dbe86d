/**
 * Any file the caller has (a string, bytes, a Blob/File, a byte or text stream) as a stream of text chunks,
 * decoded as UTF-8 with the BOM dropped. Runs in Node and in a worker: only TextDecoder, Blob and streams.
 */
import { throwIfAborted } from './errors.ts';

export type ImportSource =
  | string
  | Uint8Array
  | ArrayBuffer
  | Blob
  | ReadableStream<Uint8Array | string>
  | AsyncIterable<Uint8Array | string>;

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

function isBlob(source: unknown): source is Blob {
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
async function* pieces(source: ImportSource): AsyncGenerator<Uint8Array | string> {
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

/** Lets messages (a cancel) reach a worker between chunks of a source that is already in memory. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Windows-1252 (a spreadsheet's "CSV" on Windows), when the platform's TextDecoder knows it. */
function legacyDecoder(): TextDecoder | null {
  try {
    return new TextDecoder('windows-1252');
  } catch {
    return null;
  }
}

/**
 * Decoded text chunks with the running byte count; checks `signal` between chunks. Bytes are read as
 * UTF-8; from the first piece that is not valid UTF-8 on, as Windows-1252 (`onLegacyEncoding` is told).
 */
export async function* textChunks(source: ImportSource, signal?: AbortSignal, onLegacyEncoding?: (byteOffset: number) => void): AsyncGenerator<TextChunk> {
  let decoder = new TextDecoder('utf-8', { fatal: true });
  let legacy = false;
  let bytesRead = 0;
  let first = true;
  const inMemory = typeof source === 'string' || source instanceof Uint8Array || source instanceof ArrayBuffer;
  const decode = (bytes: Uint8Array, stream: boolean): string => {
    if (legacy) return decoder.decode(bytes, { stream });
    try {
      return decoder.decode(bytes, { stream });
    } catch {
      decoder = legacyDecoder() ?? new TextDecoder('utf-8');
      legacy = true;
      onLegacyEncoding?.(bytesRead);
      return decoder.decode(bytes, { stream });
    }
  };
  for await (const piece of pieces(source)) {
    throwIfAborted(signal);
    let text: string;
    if (typeof piece === 'string') {
      text = piece;
      bytesRead += piece.length;
    } else {
      text = decode(piece, true);
      bytesRead += piece.byteLength;
    }
    if (first && text.length > 0) {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    yield { text, bytesRead };
    // A source already in memory would otherwise run to the end without letting a cancel message in.
    if (inMemory) await nextTask();
  }
  const rest = decode(new Uint8Array(0), false);
  if (rest) yield { text: rest, bytesRead };
}
