import { gunzipDatabase } from './artifact.ts';
import { readBody } from './read-body.ts';

/**
 * A database file as a gzip'd Blob, for IndexedDB: a snapshot's database is mostly repeated text and shrinks
 * several times, which matters against the storage quota. Native CompressionStream (workers, service workers).
 */
export async function gzipToBlob(bytes: Uint8Array): Promise<Blob> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Response(stream).blob();
}

/** The database file back from a stored gzip'd Blob; `rawBytes` sizes the buffer up front. */
export async function gunzipBlob(blob: Blob, rawBytes: number): Promise<Uint8Array> {
  if (typeof DecompressionStream === 'undefined') return gunzipDatabase(new Uint8Array(await blob.arrayBuffer()));
  return readBody(new Response(blob.stream().pipeThrough(new DecompressionStream('gzip'))), rawBytes, () => {});
}
