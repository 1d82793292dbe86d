/**
 * A patch that turns one database file into the next version's: what a browser that keeps the old file
 * downloads instead of the whole new one, when it is smaller (docs/decisions/0407). Platform-free: bytes in,
 * bytes out; the build writes patches (tools/binary-diff.ts), the dataset host applies them.
 *
 * Layout (before the transfer's Brotli): "OGPD", the format version (u32 LE), the new file's length (u32 LE),
 * the length of the operations (u32 LE), the operations, every copied byte's difference from the old byte
 * (mod 256), then every literal byte. An operation is three LEB128 numbers: how many literal bytes come next,
 * how many bytes are then copied from the old file, and where that copy starts, as a zigzag-encoded distance
 * from where the previous copy ended. As in bsdiff, a copy may span a few changed bytes (a field rewritten in
 * place): their differences are non-zero, the rest are zeros that compress to almost nothing. The three
 * streams are apart so the compressor sees each kind with its own statistics.
 */

const MAGIC = 0x4450474f; // "OGPD" little-endian
const FORMAT_VERSION = 1;
const HEADER = 16;

/** Bytes that are not a whole patch of this format, or a patch of another old file. */
export class PatchMismatch extends Error {}

/** One step of a patch: `literal` new bytes, then `copy` bytes of the old file from `from`. */
export interface PatchOp {
  literal: number;
  copy: number;
  from: number;
}

/**
 * The patch's bytes for these operations: `differences` holds one byte per copied byte, `literals` the rest
 * (their lengths add up to `newLength`).
 */
export function encodePatch(ops: readonly PatchOp[], differences: Uint8Array, literals: Uint8Array, newLength: number): Uint8Array {
  const encoded: number[] = [];
  const push = (n: number) => {
    while (n >= 0x80) {
      encoded.push((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    encoded.push(n);
  };
  let lastEnd = 0;
  for (const { literal, copy, from } of ops) {
    push(literal);
    push(copy);
    const distance = copy === 0 ? 0 : from - lastEnd;
    push(distance >= 0 ? distance * 2 : -distance * 2 - 1);
    if (copy > 0) lastEnd = from + copy;
  }
  const bytes = new Uint8Array(HEADER + encoded.length + differences.length + literals.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT_VERSION, true);
  view.setUint32(8, newLength, true);
  view.setUint32(12, encoded.length, true);
  bytes.set(encoded, HEADER);
  bytes.set(differences, HEADER + encoded.length);
  bytes.set(literals, HEADER + encoded.length + differences.length);
  return bytes;
}

/**
 * The new file: `patch` applied to `old`. Throws PatchMismatch when the patch is malformed, reads outside the
 * old file, or does not fill exactly the length it states; the caller still checks the result's sha256.
 */
export function applyPatch(old: Uint8Array, patch: Uint8Array): Uint8Array {
  if (patch.length < HEADER) throw new PatchMismatch('the patch is shorter than its header');
  const view = new DataView(patch.buffer, patch.byteOffset, patch.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== FORMAT_VERSION) throw new PatchMismatch('not a patch of this format');
  const newLength = view.getUint32(8, true);
  const opsEnd = HEADER + view.getUint32(12, true);
  if (opsEnd > patch.length) throw new PatchMismatch('the operations run past the patch');
  const out = new Uint8Array(newLength);
  let at = HEADER;
  let written = 0;
  let lastEnd = 0;
  const read = (): number => {
    let n = 0;
    let scale = 1;
    for (;;) {
      if (at >= opsEnd) throw new PatchMismatch('an operation is cut short');
      const byte = patch[at++];
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) return n;
      scale *= 0x80;
      if (scale > 2 ** 49) throw new PatchMismatch('a number in the patch is too long');
    }
  };
  // The differences come first, one per copied byte: their end (where the literals start) is the copies' total.
  const ops: number[] = [];
  let copied = 0;
  while (at < opsEnd) {
    const literal = read();
    const copy = read();
    ops.push(literal, copy, read());
    copied += copy;
  }
  let differenceAt = opsEnd;
  let literalAt = opsEnd + copied;
  if (literalAt > patch.length) throw new PatchMismatch('the differences run past the patch');
  for (let k = 0; k < ops.length; k += 3) {
    const literal = ops[k];
    const copy = ops[k + 1];
    const zigzag = ops[k + 2];
    if (literal > newLength - written || literalAt + literal > patch.length) throw new PatchMismatch('literal bytes past the end');
    out.set(patch.subarray(literalAt, literalAt + literal), written);
    literalAt += literal;
    written += literal;
    if (copy === 0) continue;
    const from = lastEnd + (zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2);
    if (from < 0 || from + copy > old.length || copy > newLength - written) throw new PatchMismatch('a copy reads outside the old file');
    // Most differences are zero: the copy goes whole, then the few changed bytes are added.
    out.set(old.subarray(from, from + copy), written);
    addDifferences(out, written, patch, differenceAt, copy);
    differenceAt += copy;
    written += copy;
    lastEnd = from + copy;
  }
  if (written !== newLength || literalAt !== patch.length) throw new PatchMismatch(`the patch makes ${written} of ${newLength} bytes`);
  return out;
}

/**
 * out[at + j] += patch[from + j] for j < length, skipping zeros four at a time where the patch's bytes can be read
 * as aligned 32-bit words (nearly all of a database's differences are zero).
 */
function addDifferences(out: Uint8Array, at: number, patch: Uint8Array, from: number, length: number): void {
  let j = 0;
  const misaligned = (patch.byteOffset + from) & 3;
  const head = Math.min(length, misaligned === 0 ? 0 : 4 - misaligned);
  for (; j < head; j++) if (patch[from + j] !== 0) out[at + j] += patch[from + j];
  const words = new Uint32Array(patch.buffer, patch.byteOffset + from + j, (length - j) >>> 2);
  for (let w = 0; w < words.length; w++, j += 4) {
    if (words[w] === 0) continue;
    for (let k = j; k < j + 4; k++) if (patch[from + k] !== 0) out[at + k] += patch[from + k];
  }
  for (; j < length; j++) if (patch[from + j] !== 0) out[at + j] += patch[from + j];
}
