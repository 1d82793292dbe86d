import { readBody } from './read-body.ts';
import type { TransferFile } from './format.ts';

/** Decoders of the transfer encodings this context has (a browser: Brotli by WebAssembly; absent: gzip only). */
export type Decoders = Partial<Record<TransferFile['encoding'], (bytes: Uint8Array, rawBytes: number) => Promise<Uint8Array>>>;

/** The encodings a set of decoders reads, for `transferArtifact`. */
export function decodable(decoders: Decoders | null | undefined): Set<TransferFile['encoding']> {
  return new Set(Object.keys(decoders ?? {}) as TransferFile['encoding'][]);
}

/** The SQLite file from a verified download in the given encoding. */
export function unpackAs(
  encoding: 'gzip' | TransferFile['encoding'],
  bytes: Uint8Array,
  rawBytes: number,
  decoders: Decoders | null | undefined,
): Promise<Uint8Array> {
  if (encoding === 'gzip') return unpack(bytes, rawBytes);
  const decode = decoders?.[encoding];
  if (!decode) throw new Error(`no ${encoding} decoder here`);
  return decode(bytes, rawBytes);
}

/**
 * The SQLite file from gzip'd bytes (a verified download, or a stored import's Blob), with the native
 * DecompressionStream: in workers, service workers and Node; it runs off the thread and is several times
 * faster than a JavaScript inflater. `rawBytes` sizes the buffer up front.
 */
export function unpack(gz: Uint8Array | Blob, rawBytes: number): Promise<Uint8Array> {
  const blob = gz instanceof Blob ? gz : new Blob([gz as Uint8Array<ArrayBuffer>]);
  return readBody(new Response(blob.stream().pipeThrough(new DecompressionStream('gzip'))), rawBytes, () => {});
}

/**
 * A database file as a gzip'd Blob, for IndexedDB: a snapshot's database is mostly repeated text and shrinks
 * several times, which matters against the storage quota.
 */
export function pack(raw: Uint8Array): Promise<Blob> {
  const stream = new Blob([raw as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Response(stream).blob();
}
