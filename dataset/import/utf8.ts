/**
 * UTF-8 at the byte level, for the two things the platform's TextDecoder cannot do: count how much of a
 * file is valid UTF-8 (to tell a UTF-8 file with a stray byte from a Windows-1252 one), and decode a UTF-8
 * file with a stray byte so that the byte is marked, not silently replaced, and its row can be rejected.
 */

/**
 * Stands for one byte that is not valid UTF-8 in a file decoded by MarkingUtf8Decoder. U+FFFF is a
 * noncharacter: text has no business holding it, so a row that does is rejected either way.
 */
export const INVALID_MARK = '\uFFFF';

/**
 * Length of the UTF-8 sequence starting at `at`: 1–4 when valid, 0 when the bytes end before it does,
 * -1 when the byte at `at` does not start a valid sequence (then it alone is skipped).
 */
export function sequenceLength(bytes: Uint8Array, at: number): number {
  const b = bytes[at];
  if (b < 0x80) return 1;
  const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
  if (need < 0) return -1;
  for (let k = 1; k <= need; k++) {
    if (at + k >= bytes.length) return 0;
    const next = bytes[at + k];
    // The second byte's range is narrower after E0, ED, F0 and F4 (no overlong forms, no surrogates).
    const low = k === 1 && b === 0xe0 ? 0xa0 : k === 1 && b === 0xf0 ? 0x90 : 0x80;
    const high = k === 1 && b === 0xed ? 0x9f : k === 1 && b === 0xf4 ? 0x8f : 0xbf;
    if (next < low || next > high) return -1;
  }
  return need + 1;
}

function joined(carry: Uint8Array, bytes: Uint8Array): Uint8Array {
  if (carry.length === 0) return bytes;
  const all = new Uint8Array(carry.length + bytes.length);
  all.set(carry);
  all.set(bytes, carry.length);
  return all;
}

/** Counts, over a file read piece by piece, its valid multi-byte characters and its invalid bytes. */
export class Utf8Census {
  multiByte = 0;
  invalid = 0;
  /** Offset and value of the first invalid byte, or null. */
  first: { offset: number; byte: number } | null = null;
  private carry = new Uint8Array(0);
  private offset = 0;

  add(piece: Uint8Array, final = false): void {
    const bytes = joined(this.carry, piece);
    const base = this.offset - this.carry.length;
    let at = 0;
    while (at < bytes.length) {
      const length = sequenceLength(bytes, at);
      if (length === 0 && !final) break;
      if (length <= 0) {
        this.invalid++;
        this.first ??= { offset: base + at, byte: bytes[at] };
        at++;
      } else {
        if (length > 1) this.multiByte++;
        at += length;
      }
    }
    this.carry = bytes.slice(at);
    this.offset += piece.length;
  }

  end(): void {
    this.add(new Uint8Array(0), true);
  }
}

/** A streaming UTF-8 decoder that turns each invalid byte into INVALID_MARK (TextDecoder's shape). */
export class MarkingUtf8Decoder {
  // ignoreBOM: a U+FEFF after a marked byte is the file's own; the import drops only the file's first.
  private readonly utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  private carry = new Uint8Array(0);

  decode(piece: Uint8Array = new Uint8Array(0), options: { stream?: boolean } = {}): string {
    const bytes = joined(this.carry, piece);
    const parts: string[] = [];
    let spanStart = 0;
    let at = 0;
    while (at < bytes.length) {
      const length = sequenceLength(bytes, at);
      if (length === 0 && options.stream) break;
      if (length > 0) {
        at += length;
        continue;
      }
      if (at > spanStart) parts.push(this.utf8.decode(bytes.subarray(spanStart, at)));
      parts.push(INVALID_MARK);
      at++;
      spanStart = at;
    }
    if (at > spanStart) parts.push(this.utf8.decode(bytes.subarray(spanStart, at)));
    this.carry = bytes.slice(at);
    return parts.join('');
  }
}
