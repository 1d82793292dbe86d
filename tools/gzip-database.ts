import { gzipSync } from 'fflate';

/**
 * gzip with no timestamp or name in the header, so the same database gives the same bytes (the build's
 * sha256 and version depend on it). Build-time only: the app unpacks with the native DecompressionStream.
 */
export function gzipDatabase(raw: Uint8Array): Uint8Array {
  return gzipSync(raw, { level: 9, mtime: 0 });
}
