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
 * Decodes a Brotli file whose decoded size is known (the manifest's) straight into one buffer of that size, fed
 * its bytes in order as they come (a download's reads, or the whole file at once): the decoder hands out a few
 * MiB at a time, so memory holds the output and one step, not a second copy of the database. A stream that ends
 * early, goes on after its end, or decodes to another size is an error.
 */
export class BrotliInto {
  private readonly out: Uint8Array;
  private written = 0;
  private done = false;
  private freed = false;

  constructor(
    private readonly stream: BrotliStream,
    private readonly rawBytes: number,
    private readonly sizes = { inputBytes: INPUT_BYTES, outputBytes: OUTPUT_BYTES },
  ) {
    this.out = new Uint8Array(rawBytes);
  }

  /** The next bytes of the file. */
  push(input: Uint8Array): void {
    if (this.freed) throw new Error('brotli: the decoder was freed');
    let read = 0;
    while (read < input.length || !this.done) {
      if (this.done) throw new Error('brotli: the file goes on after its stream ends');
      const step = this.stream.decompress(input.subarray(read, Math.min(read + this.sizes.inputBytes, input.length)), this.sizes.outputBytes);
      const { buf, code, input_offset } = step;
      step.free();
      if (this.written + buf.length > this.rawBytes) throw new Error(`brotli: the file decodes to more than the manifest's ${this.rawBytes} bytes`);
      this.out.set(buf, this.written);
      this.written += buf.length;
      read += input_offset;
      if (code === 1) this.done = true;
      // Needs more input than this push holds: the next push goes on.
      else if (code === 2 && read >= input.length) return;
    }
  }

  /** The decoded file, once every byte has been pushed. */
  finish(): Uint8Array {
    this.free();
    if (!this.done) throw new Error('brotli: the file ends before its stream does');
    if (this.written !== this.rawBytes) throw new Error(`brotli: the file decodes to ${this.written} bytes, the manifest says ${this.rawBytes}`);
    return this.out;
  }

  /** Lets the decoder's memory go (the WebAssembly stream); safe to call more than once. */
  free(): void {
    if (this.freed) return;
    this.freed = true;
    this.stream.free();
  }
}
