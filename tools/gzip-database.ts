import { gzipSync } from 'fflate';
import { brotliCompressSync, constants } from 'node:zlib';

/**
 * gzip with no timestamp or name in the header, so the same database gives the same bytes (the build's
 * sha256 and version depend on it). Build-time only: the app unpacks with the native DecompressionStream.
 */
export function gzipDatabase(raw: Uint8Array): Uint8Array {
  return gzipSync(raw, { level: 9, mtime: 0 });
}

/**
 * The browser's transfer copy of a database: Brotli at its highest quality with a 16 MiB window, which finds the
 * repeats a database's pages spread far apart (websites 12.8 MB gzip -9 → 5.7 MB; docs/decisions/0406).
 * Deterministic like gzipDatabase. Build-time only: the app decodes it with a WebAssembly Brotli decoder.
 */
export function brotliDatabase(raw: Uint8Array): Uint8Array {
  return brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
}
