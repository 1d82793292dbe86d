/** One step of a streaming Brotli decoder (the shape of brotli-dec-wasm's `DecompressStream`). */
export interface BrotliStep {
  buf: Uint8Array;
  /** 1: done; 2: needs more input; 3: needs more output. */
  code: number;
  /** Bytes of the given input consumed. */
  input_offset: number;
  free(): void;
}

export interface BrotliStream {
  decompress(input: Uint8Array, outputSize: number): BrotliStep;
  free(): void;
}

const INPUT_BYTES = 1 << 20;
const OUTPUT_BYTES = 4 << 20;

/**
 * Decode a Brotli file whose decoded size is known (the manifest's) straight into one buffer of that size:
 * the decoder hands out a few MiB at a time, so memory holds the input, the output and one step, not a second
 * copy of the database. A stream that ends early, or decodes to another size, is an error.
 */
export function decodeBrotliInto(
  stream: BrotliStream,
  input: Uint8Array,
  rawBytes: number,
  { inputBytes = INPUT_BYTES, outputBytes = OUTPUT_BYTES } = {},
): Uint8Array {
  const out = new Uint8Array(rawBytes);
  let written = 0;
  let read = 0;
  try {
    for (;;) {
      const step = stream.decompress(input.subarray(read, Math.min(read + inputBytes, input.length)), outputBytes);
      const { buf, code, input_offset } = step;
      step.free();
      if (written + buf.length > rawBytes) throw new Error(`brotli: the file decodes to more than the manifest's ${rawBytes} bytes`);
      out.set(buf, written);
      written += buf.length;
      read += input_offset;
      if (code === 1) break;
      if (code === 2 && read >= input.length) throw new Error('brotli: the file ends before its stream does');
    }
  } finally {
    stream.free();
  }
  if (written !== rawBytes) throw new Error(`brotli: the file decodes to ${written} bytes, the manifest says ${rawBytes}`);
  return out;
}
