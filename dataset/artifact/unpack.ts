import { readBody } from './read-body.ts';
import type { TransferFile } from './format.ts';

/** A decoder fed a file's bytes in order (as a download delivers them, or all at once); `finish` gives the database. */
export interface IncrementalDecoder {
  push(bytes: Uint8Array): void;
  /** The decoded file, once every byte has been pushed; throws when the bytes do not decode to it. */
  finish(): Uint8Array;
  /** Lets its memory go without finishing (safe after finish too). */
  free(): void;
}

/**
 * Decoders of the transfer encodings this context has, each made for one file of the given decoded size (a
 * browser: Brotli by WebAssembly; absent: gzip only).
 */
export type Decoders = Partial<Record<TransferFile['encoding'], (rawBytes: number) => Promise<IncrementalDecoder>>>;

/** The encodings a set of decoders reads, for `transferArtifact`. */
export function decodable(decoders: Decoders | null | undefined): Set<TransferFile['encoding']> {
  return new Set(Object.keys(decoders ?? {}) as TransferFile['encoding'][]);
}

/** The SQLite file from a verified download in the given encoding. */
export async function unpackAs(
  encoding: 'gzip' | TransferFile['encoding'],
  bytes: Uint8Array,
  rawBytes: number,
  decoders: Decoders | null | undefined,
): Promise<Uint8Array> {
  if (encoding === 'gzip') return unpack(bytes, rawBytes);
  return decodeWhole(await decoderFor(encoding, rawBytes, decoders), bytes);
}

/** A whole file through a decoder made for it, which is freed whatever happens. */
export function decodeWhole(decoder: IncrementalDecoder, bytes: Uint8Array): Uint8Array {
  try {
    decoder.push(bytes);
    return decoder.finish();
  } finally {
    decoder.free();
  }
}

/** A decoder of this encoding for one file. */
export function decoderFor(encoding: TransferFile['encoding'], rawBytes: number, decoders: Decoders | null | undefined): Promise<IncrementalDecoder> {
  const make = decoders?.[encoding];
  if (!make) throw new Error(`no ${encoding} decoder here`);
  return make(rawBytes);
}

/**
 * The SQLite file from gzip'd bytes (a verified download, a stored import: a Blob when an earlier version kept it), with the native
 * DecompressionStream: in workers, service workers and Node; it runs off the thread and is several times
 * faster than a JavaScript inflater. `rawBytes` sizes the buffer up front.
 */
export function unpack(gz: Uint8Array | Blob, rawBytes: number): Promise<Uint8Array> {
  const blob = gz instanceof Blob ? gz : new Blob([gz as Uint8Array<ArrayBuffer>]);
  return readBody(new Response(blob.stream().pipeThrough(new DecompressionStream('gzip'))), rawBytes, () => {});
}

/**
 * A database file gzip'd, for IndexedDB: a snapshot's database is mostly repeated text and shrinks several times,
 * which matters against the storage quota. Bytes, not a Blob: WebKit's IndexedDB refuses Blob values ("Error
 * preparing Blob/File data to be stored in object store"), and Chromium moves a large value to a file of its own.
 */
export async function pack(raw: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([raw as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
