import type { IncrementalDecoder } from './unpack.ts';
import { joinBytes } from './join-bytes.ts';

/** Bytes handed to the decoder at once. */
const PIECE_BYTES = 512 * 1024;

/**
 * A transfer copy decoded while it downloads: each read is pushed into the decoder as it arrives, so the
 * decode (600 ms for the rates' Brotli copy in the browser) no longer waits for the last byte. The output is
 * used only if the decoder was fed exactly the file that passed the sha256 check, from its first byte to its
 * last, in order; anything else (a gap, a cached copy read whole, a decoding error) gives it up, and the
 * verified bytes are decoded after the download as before, which then says what is wrong with them.
 */
export class EarlyDecode {
  private decoder: Promise<IncrementalDecoder> | null = null;
  /** The offset the next bytes must start at. */
  private next = 0;
  private broken = false;
  /** Which attempt's bytes are being fed: a push of an earlier attempt never touches the current one. */
  private attempt = 0;
  /** Bytes fed but not yet handed to the decoder (see pushPiece). */
  private batch: Uint8Array[] = [];
  private batchBytes = 0;
  /** Pushes run one after another (the decoder is made asynchronously, once). */
  private work: Promise<void> = Promise.resolve();

  constructor(
    private readonly make: () => Promise<IncrementalDecoder>,
    /** Bytes handed to the decoder at once (the last piece may be smaller). */
    private readonly pieceBytes = PIECE_BYTES,
  ) {}

  /** The download's `onBytes`. */
  readonly feed = (bytes: Uint8Array, offset: number): void => {
    // An attempt from 0 again (the kept bytes were suspect): start a new decoder.
    if (offset === 0 && this.next > 0) {
      this.giveUp();
      this.broken = false;
      this.next = 0;
      this.attempt++;
    }
    if (this.broken) return;
    if (offset !== this.next) {
      this.giveUp();
      return;
    }
    this.next += bytes.length;
    this.batch.push(bytes);
    this.batchBytes += bytes.length;
    if (this.batchBytes >= this.pieceBytes) this.pushPiece();
  };

  /**
   * Hands the bytes gathered so far to the decoder, as one piece: a network read is often a few KiB, and each
   * decoder step prepares MiBs of output, so a step per read made the download 500 ms slower instead of faster.
   */
  private pushPiece(): void {
    if (this.batchBytes === 0) return;
    const bytes = joinBytes(this.batch, this.batchBytes);
    this.batch = [];
    this.batchBytes = 0;
    const decoder = (this.decoder ??= this.make());
    const attempt = this.attempt;
    const current = () => attempt === this.attempt && !this.broken;
    this.work = this.work
      .then(async () => {
        if (current()) (await decoder).push(bytes);
      })
      .catch(() => {
        if (current()) this.giveUp();
      });
  }

  /** The decoded file, if the decoder was fed exactly `total` bytes from 0 and they decode; else null. */
  async result(total: number): Promise<Uint8Array | null> {
    if (!this.broken) this.pushPiece();
    await this.settled();
    if (this.broken || this.next !== total || !this.decoder) {
      this.drop();
      await this.settled();
      return null;
    }
    const decoder = await this.decoder;
    this.decoder = null;
    try {
      return decoder.finish();
    } catch {
      return null;
    } finally {
      decoder.free();
    }
  }

  /** Until nothing more is queued (a push that fails queues the decoder's release behind itself). */
  private async settled(): Promise<void> {
    for (let work = this.work; ; work = this.work) {
      await work;
      if (work === this.work) return;
    }
  }

  /** The download failed: the decoder is let go. */
  abandon(): void {
    this.giveUp();
  }

  private giveUp(): void {
    this.broken = true;
    this.batch = [];
    this.batchBytes = 0;
    this.drop();
  }

  /** Frees the current decoder once its pushes are done. */
  private drop(): void {
    const decoder = this.decoder;
    this.decoder = null;
    if (decoder) this.work = this.work.then(async () => (await decoder).free()).catch(() => {});
  }
}
