/**
 * A transfer copy decoded while it downloads (dataset/artifact/early-decode.ts): the output is used only when the
 * decoder saw the whole file in order from byte 0; anything else gives it up (null), and a restart from 0 starts
 * a new decoder. A fake decoder here: it keeps what it is fed and "decodes" by reversing it.
 */
import { describe, expect, it } from 'vitest';
import { EarlyDecode } from '../../../dataset/artifact/early-decode.ts';
import type { IncrementalDecoder } from '../../../dataset/artifact/unpack.ts';

function fakeDecoders(failOn?: number) {
  const made: { fed: number[]; freed: boolean; pushes: number }[] = [];
  const make = async (): Promise<IncrementalDecoder> => {
    const state = { fed: [] as number[], freed: false, pushes: 0 };
    made.push(state);
    return {
      push(bytes) {
        if (state.freed) throw new Error('freed');
        state.pushes++;
        for (const b of bytes) {
          if (b === failOn) throw new Error('corrupt');
          state.fed.push(b);
        }
      },
      finish: () => Uint8Array.from(state.fed).reverse(),
      free: () => void (state.freed = true),
    };
  };
  return { made, make };
}

const FILE = Uint8Array.from({ length: 40 }, (_, i) => i + 1);

describe('EarlyDecode', () => {
  it("gives the decoder's output when it was fed the whole file in order, in pieces", async () => {
    const { made, make } = fakeDecoders();
    const early = new EarlyDecode(make, 1);
    for (let at = 0; at < FILE.length; at += 7) early.feed(FILE.subarray(at, at + 7), at);
    expect(await early.result(FILE.length)).toEqual(FILE.slice().reverse());
    expect(made).toHaveLength(1);
    expect(made[0].freed).toBe(true);
  });

  it('gives up on a gap, a short file, or a decoding error (null: the verified bytes are decoded afterwards)', async () => {
    const gaps = fakeDecoders();
    const gap = new EarlyDecode(gaps.make, 1);
    gap.feed(FILE.subarray(0, 10), 0);
    gap.feed(FILE.subarray(20, 40), 20);
    expect(await gap.result(FILE.length)).toBeNull();
    expect(gaps.made.map((d) => d.freed)).toEqual([true]);

    const short = new EarlyDecode(fakeDecoders().make, 1);
    short.feed(FILE.subarray(0, 30), 0);
    expect(await short.result(FILE.length)).toBeNull();

    const { made, make } = fakeDecoders(25);
    const corrupt = new EarlyDecode(make, 1);
    corrupt.feed(FILE.subarray(0, 20), 0);
    corrupt.feed(FILE.subarray(20, 40), 20);
    expect(await corrupt.result(FILE.length)).toBeNull();
    expect(made.every((d) => d.freed)).toBe(true);
  });

  it('starts a new decoder when the download starts again from 0, and uses only the new one', async () => {
    const { made, make } = fakeDecoders();
    const early = new EarlyDecode(make, 1);
    early.feed(Uint8Array.of(9, 9, 9), 0);
    early.feed(FILE.subarray(0, 25), 0);
    early.feed(FILE.subarray(25), 25);
    expect(await early.result(FILE.length)).toEqual(FILE.slice().reverse());
    expect(made).toHaveLength(2);
    expect(made.map((d) => d.freed)).toEqual([true, true]);
  });

  it('a resumed download feeds its kept bytes first, then the rest', async () => {
    const early = new EarlyDecode(fakeDecoders().make, 1);
    early.feed(FILE.subarray(0, 16), 0);
    early.feed(FILE.subarray(16), 16);
    expect(await early.result(FILE.length)).toEqual(FILE.slice().reverse());
  });

  it("hands the decoder the network's small reads gathered into larger pieces", async () => {
    const { made, make } = fakeDecoders();
    const early = new EarlyDecode(make, 16);
    for (let at = 0; at < FILE.length; at += 3) early.feed(FILE.subarray(at, at + 3), at);
    expect(await early.result(FILE.length)).toEqual(FILE.slice().reverse());
    // 14 reads of 3 bytes: pieces of 18, 18 and the last 4.
    expect(made[0].pushes).toBe(3);
  });
});
