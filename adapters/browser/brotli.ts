import wasmUrl from 'brotli-dec-wasm/web/bg.wasm?url';
import { BrotliInto } from '../../dataset/artifact/brotli-stream.ts';
import type { Decoders } from '../../dataset/artifact/unpack.ts';

let decoder: Promise<typeof import('brotli-dec-wasm/web')> | null = null;

/**
 * The browsers' Brotli decoder for the datasets' transfer copies: a 200 KB WebAssembly build of the reference
 * decoder (DecompressionStream has no Brotli in Chromium), its script and wasm loaded and compiled on first use,
 * off the way of a later visit that opens the unpacked copy kept on this machine (in the DB worker a chunk of its
 * own; the service worker's build inlines it, having no `import()`).
 */
export const browserDecoders: Decoders = {
  async br(rawBytes) {
    decoder ??= import('brotli-dec-wasm/web').then(async (module) => {
      await module.default({ module_or_path: wasmUrl });
      return module;
    });
    const { DecompressStream } = await decoder;
    return new BrotliInto(new DecompressStream(), rawBytes);
  },
};
