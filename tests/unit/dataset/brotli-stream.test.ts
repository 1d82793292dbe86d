/**
 * The browsers' Brotli decoding of the datasets' transfer copies: the same WebAssembly decoder and loop the DB
 * worker runs (adapters/browser/brotli.ts), here fed the wasm from the package, over what the build writes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initSync, DecompressStream } from 'brotli-dec-wasm/web';
import { BrotliInto } from '../../../dataset/artifact/brotli-stream.ts';
import { decodeWhole } from '../../../dataset/artifact/unpack.ts';
import { brotliDatabase } from '../../../adapters/node/datasets/dataset-writer.ts';

let raw: Uint8Array;
let br: Uint8Array;

beforeAll(() => {
  initSync({ module: readFileSync(createRequire(import.meta.url).resolve('brotli-dec-wasm/web/bg.wasm')) });
  // Long-range repeats, as a database's pages have.
  raw = new Uint8Array(600_017);
  for (let i = 0; i < raw.length; i++) raw[i] = (Math.imul(i % 70_001, 2654435761) >>> 27) + (i % 3);
  br = brotliDatabase(raw);
});

describe('BrotliInto, the whole file at once', () => {
  it('decodes a transfer copy step by step into one buffer of the manifest size', () => {
    expect(br.length).toBeLessThan(raw.length);
    expect(decodeWhole(new BrotliInto(new DecompressStream(), raw.length), br)).toEqual(raw);
    // Many small steps: input and output cross step boundaries.
    expect(decodeWhole(new BrotliInto(new DecompressStream(), raw.length, { inputBytes: 1000, outputBytes: 4096 }), br)).toEqual(raw);
  });

  it('refuses a file that ends early, or decodes to another size than the manifest says', () => {
    expect(() => decodeWhole(new BrotliInto(new DecompressStream(), raw.length), br.subarray(0, br.length >> 1))).toThrow(/ends before|more than/);
    expect(() => decodeWhole(new BrotliInto(new DecompressStream(), raw.length - 1), br)).toThrow(/more than the manifest/);
    expect(() => decodeWhole(new BrotliInto(new DecompressStream(), raw.length + 1), br)).toThrow(/decodes to \d+ bytes, the manifest says/);
  });
});

describe('BrotliInto, fed as a download arrives', () => {
  it('decodes the same file from pieces cut anywhere', () => {
    for (const piece of [10_007]) {
      const decoder = new BrotliInto(new DecompressStream(), raw.length);
      for (let at = 0; at < br.length; at += piece) decoder.push(br.subarray(at, at + piece));
      expect(decoder.finish(), `pieces of ${piece}`).toEqual(raw);
    }
  });

  it('refuses bytes after the stream ends, and a finish before it does', () => {
    const longer = new BrotliInto(new DecompressStream(), raw.length);
    expect(() => longer.push(new Uint8Array([...br, 0, 1, 2]))).toThrow(/goes on after its stream ends/);
    longer.free();
    const shorter = new BrotliInto(new DecompressStream(), raw.length);
    shorter.push(br.subarray(0, br.length - 10));
    expect(() => shorter.finish()).toThrow(/ends before its stream does/);
  });
});
