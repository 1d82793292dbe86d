/** Node's Brotli decoder for the weeks (engine/site-scanning/weeks.ts BrotliDecode). */
import { brotliDecompressSync } from 'node:zlib';
import type { BrotliDecode } from '../../../engine/site-scanning/weeks.ts';

export const nodeBrotli: BrotliDecode = (bytes, rawBytes) => {
  const decoded = brotliDecompressSync(bytes, { maxOutputLength: rawBytes });
  if (decoded.length !== rawBytes) throw new Error(`brotli: decodes to ${decoded.length} bytes, not ${rawBytes}`);
  return new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.length);
};
