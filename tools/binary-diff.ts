/**
 * The build's side of dataset patches (dataset/artifact/binary-patch.ts): the operations that make `next` from
 * `old`, found the way rsync finds them. Every BLOCK-byte block of the old file at a multiple of BLOCK goes into
 * a hash table; a rolling hash over every BLOCK-byte window of the new file looks each one up, and a hit whose
 * bytes agree is grown backwards over the pending literals and forwards as far as both files agree. What no
 * copy covers is literal. A database whose records changed in a few fields, or moved between pages, is mostly
 * copies of its old bytes at other places.
 */
import { encodePatch, type PatchOp } from '../dataset/artifact/binary-patch.ts';

/** Small enough to find the unchanged stretch between two changed fields of a record. */
const BLOCK = 32;
const BASE = 0x01000193;

/** BASE^BLOCK mod 2^32: what the byte leaving the window weighs in the rolling hash. */
function outgoingWeight(): number {
  let w = 1;
  for (let i = 0; i < BLOCK; i++) w = Math.imul(w, BASE);
  return w;
}

function windowHash(bytes: Uint8Array, at: number): number {
  let h = 0;
  for (let i = 0; i < BLOCK; i++) h = (Math.imul(h, BASE) + bytes[at + i]) | 0;
  return h;
}

/** Mixes the rolling hash's low bits before they index the table (a polynomial hash's low bits are weak). */
const slot = (h: number, mask: number): number => (Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0) & mask;

/** The patch that makes `next` from `old`. */
export function makePatch(old: Uint8Array, next: Uint8Array): Uint8Array {
  let bits = 16;
  while (1 << bits < (old.length / BLOCK) * 2 && bits < 26) bits++;
  const mask = (1 << bits) - 1;
  const table = new Int32Array(1 << bits).fill(-1);
  for (let at = 0; at + BLOCK <= old.length; at += BLOCK) {
    const s = slot(windowHash(old, at), mask);
    if (table[s] < 0) table[s] = at;
  }
  const weight = outgoingWeight();
  const ops: PatchOp[] = [];
  const literalRuns: [number, number][] = [];
  /** Where each copy lands in `next`, where it starts in `old`, and its length. */
  const copies: [number, number, number][] = [];
  let literalStart = 0;
  let i = 0;
  let h = next.length >= BLOCK ? windowHash(next, 0) : 0;
  while (i + BLOCK <= next.length) {
    const candidate = table[slot(h, mask)];
    if (candidate >= 0 && sameBytes(old, candidate, next, i, BLOCK)) {
      let start = i;
      let from = candidate;
      while (start > literalStart && from > 0 && next[start - 1] === old[from - 1]) {
        start--;
        from--;
      }
      const end = extend(old, candidate + BLOCK, next, i + BLOCK);
      ops.push({ literal: start - literalStart, copy: end - start, from });
      copies.push([start, from, end - start]);
      literalRuns.push([literalStart, start]);
      literalStart = end;
      i = end;
      if (i + BLOCK <= next.length) h = windowHash(next, i);
      continue;
    }
    if (i + BLOCK < next.length) h = (Math.imul(h, BASE) - Math.imul(next[i], weight) + next[i + BLOCK]) | 0;
    i++;
  }
  if (literalStart < next.length) {
    ops.push({ literal: next.length - literalStart, copy: 0, from: 0 });
    literalRuns.push([literalStart, next.length]);
  }
  const literals = new Uint8Array(literalRuns.reduce((n, [a, b]) => n + b - a, 0));
  let at = 0;
  for (const [a, b] of literalRuns) {
    literals.set(next.subarray(a, b), at);
    at += b - a;
  }
  const differences = new Uint8Array(copies.reduce((n, [, , length]) => n + length, 0));
  at = 0;
  for (const [to, from, length] of copies) {
    for (let k = 0; k < length; k++) differences[at + k] = next[to + k] - old[from + k];
    at += length;
  }
  return encodePatch(ops, differences, literals, next.length);
}

/** How far a copy may run on past mismatches before it gives up (bytes since its best point). */
const GIVE_UP = 32;

/**
 * Where a copy that agrees up to (oldAt, nextAt) should end in `next`: past the bytes that agree, and on over
 * bytes that differ as long as more agree than differ (bsdiff's rule), ending where that lead was largest. A
 * field rewritten in place then costs its differing bytes, not a new operation and a literal.
 */
function extend(old: Uint8Array, oldAt: number, next: Uint8Array, nextAt: number): number {
  let best = nextAt;
  let lead = 0;
  let bestLead = 0;
  for (let n = nextAt, o = oldAt; n < next.length && o < old.length && n - best < GIVE_UP; n++, o++) {
    lead += next[n] === old[o] ? 1 : -1;
    if (lead > bestLead) {
      bestLead = lead;
      best = n + 1;
    }
  }
  return best;
}

function sameBytes(a: Uint8Array, aAt: number, b: Uint8Array, bAt: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (a[aAt + k] !== b[bAt + k]) return false;
  return true;
}
