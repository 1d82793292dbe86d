import init, { DecompressStream } from 'brotli-dec-wasm/web';
import wasmUrl from 'brotli-dec-wasm/web/bg.wasm?url';
import { BrotliInto } from '../../dataset/artifact/brotli-stream.ts';
import type { Decoders } from '../../dataset/artifact/unpack.ts';

let ready: Promise<unknown> | null = null;

/**
 * The browsers' Brotli decoder for the datasets' transfer copies: a 200 KB WebAssembly build of the reference
 * decoder (DecompressionStream has no Brotli in Chromium), compiled on first use, off the way of a later visit
 * that opens the unpacked copy kept on this machine.
 */
export const browserDecoders: Decoders = {
  async br(rawBytes) {
    ready ??= init({ module_or_path: wasmUrl });
    await ready;
    return new BrotliInto(new DecompressStream(), rawBytes);
  },
};
