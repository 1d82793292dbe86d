import wasmUrl from 'brotli-dec-wasm/web/bg.wasm?url';
import { BrotliInto } from '../../dataset/artifact/brotli-stream.ts';
import type { Decoders } from '../../dataset/artifact/unpack.ts';
import type { BrotliDecode } from '../../engine/site-scanning/weeks.ts';

let decoder: Promise<typeof import('brotli-dec-wasm/web')> | null = null;

/**
 * The browsers' Brotli decoder for the datasets' transfer copies: a 200 KB WebAssembly build of the reference
 * decoder (DecompressionStream has no Brotli in Chromium), its script and wasm loaded and compiled on first use,
 * off the way of a later visit that opens the unpacked copy kept on this machine (in the DB worker a chunk of its
 * own; the service worker's build inlines it, having no `import()`).
 */
export const browserDecoders: Decoders = {
  async br(rawBytes) {
    const { DecompressStream } = await loaded();
    return new BrotliInto(new DecompressStream(), rawBytes);
  },
};

/** The decoder's wasm file's URL, as built: a service worker reads it from its precache (`wasm` below). */
export const brotliWasmUrl: string = wasmUrl;

function loaded(wasm?: () => Promise<Response>): Promise<typeof import('brotli-dec-wasm/web')> {
  decoder ??= import('brotli-dec-wasm/web').then(async (module) => {
    await module.default({ module_or_path: wasm ? await wasm() : wasmUrl });
    return module;
  });
  decoder.catch(() => (decoder = null));
  return decoder;
}

/**
 * The same decoder, loaded first, for the weeks' blocks of records: a record is read inside a synchronous request
 * (engine/site-scanning/weeks.ts), so each block decodes in one call. `wasm`: where the decoder's wasm file is read
 * (a service worker's own fetch would bypass its precache and fail offline).
 */
export async function browserBrotliSync(wasm?: () => Promise<Response>): Promise<BrotliDecode> {
  const { DecompressStream } = await loaded(wasm);
  return (bytes, rawBytes) => {
    const into = new BrotliInto(new DecompressStream(), rawBytes);
    try {
      into.push(bytes);
      return into.finish();
    } finally {
      into.free();
    }
  };
}
