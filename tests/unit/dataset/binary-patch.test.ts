/**
 * Dataset patches: what the build makes (tools/binary-diff.ts) the browser applies back to the very bytes of the
 * new file, for any edit of the old one; and bytes that are not such a patch are refused, never half applied.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { brotliCompressSync } from 'node:zlib';
import { applyPatch, encodePatch, PatchMismatch } from '../../../dataset/artifact/binary-patch.ts';
import { makePatch } from '../../../tools/binary-diff.ts';
import { generatedDatabase } from '../../../harness/engine.ts';

/** An edit of a file: bytes replaced in place, inserted, deleted, or a stretch moved elsewhere. */
const edit = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 300 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ kind: fc.constant('move' as const), at: fc.nat(), to: fc.nat(), length: fc.integer({ min: 1, max: 500 }) }),
);

type Edit = typeof edit extends fc.Arbitrary<infer E> ? E : never;

function applyEdits(old: Uint8Array, edits: readonly Edit[]): Uint8Array {
  const bytes = [...old];
  for (const e of edits) {
    const at = bytes.length ? e.at % (bytes.length + 1) : 0;
    if (e.kind === 'replace') bytes.splice(at, e.bytes.length, ...e.bytes);
    else if (e.kind === 'insert') bytes.splice(at, 0, ...e.bytes);
    else if (e.kind === 'delete') bytes.splice(at, e.length);
    else {
      const moved = bytes.splice(at, e.length);
      bytes.splice(bytes.length ? e.to % (bytes.length + 1) : 0, 0, ...moved);
    }
  }
  return new Uint8Array(bytes);
}

/** Bytes with repeats in them, as a database has (records alike, page headers), not uniform noise. */
const fileBytes = fc
  .array(fc.uint8Array({ minLength: 1, maxLength: 200 }), { minLength: 1, maxLength: 60 })
  .chain((pieces) =>
    fc.array(fc.nat(pieces.length - 1), { minLength: 1, maxLength: 120 }).map((order) => new Uint8Array(order.flatMap((i) => [...pieces[i]]))),
  );

describe('a dataset patch', () => {
  it('applied to the old file gives the new file exactly, whatever the edits', () => {
    fc.assert(
      fc.property(fileBytes, fc.array(edit, { maxLength: 12 }), (old, edits) => {
        const next = applyEdits(old, edits);
        expect(applyPatch(old, makePatch(old, next))).toEqual(next);
      }),
      { numRuns: 300 },
    );
  });

  it('of a database whose records changed is mostly copies: far smaller than the new file', async () => {
    const db = await generatedDatabase('websites', 400);
    const old = db.export();
    db.run('UPDATE websites SET final_url_live = 1 - final_url_live WHERE rowid % 7 = 0');
    db.run('DELETE FROM websites WHERE rowid % 50 = 0');
    const next = db.export();
    db.close();
    const patch = makePatch(old, next);
    expect(applyPatch(old, patch)).toEqual(next);
    // Unchanged bytes cost a zero difference each, which the transfer's Brotli all but removes.
    expect(brotliCompressSync(patch).length).toBeLessThan(brotliCompressSync(next).length / 4);
  });

  it('of identical files is one copy', () => {
    const bytes = new Uint8Array(5000).map((_, i) => (i * 31) % 251);
    const patch = makePatch(bytes, bytes);
    expect(applyPatch(bytes, patch)).toEqual(bytes);
    expect(patch.length - bytes.length).toBeLessThan(32);
  });

  it('that is cut, damaged or made for another file is refused with PatchMismatch', () => {
    const old = new Uint8Array(4000).map((_, i) => (i * 7) % 256);
    const next = applyEdits(old, [
      { kind: 'insert', at: 100, bytes: new Uint8Array([1, 2, 3]) },
      { kind: 'delete', at: 3000, length: 40 },
    ]);
    const patch = makePatch(old, next);
    expect(() => applyPatch(old, patch.subarray(0, patch.length - 1))).toThrow(PatchMismatch);
    expect(() => applyPatch(old, patch.subarray(0, 10))).toThrow(PatchMismatch);
    expect(() => applyPatch(old.subarray(0, 2000), patch)).toThrow(PatchMismatch);
    const wrongMagic = patch.slice();
    wrongMagic[0] ^= 0xff;
    expect(() => applyPatch(old, wrongMagic)).toThrow(PatchMismatch);
    // A copy that claims more bytes than the new file has.
    expect(() => applyPatch(old, encodePatch([{ literal: 0, copy: 10, from: 0 }], new Uint8Array(10), new Uint8Array(0), 5))).toThrow(PatchMismatch);
  });

  it('never throws anything but PatchMismatch on arbitrary bytes', () => {
    const old = new Uint8Array(1000).map((_, i) => i % 256);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (bytes, withHeader) => {
        const patch = withHeader ? new Uint8Array([0x4f, 0x47, 0x50, 0x44, 1, 0, 0, 0, ...bytes]) : bytes;
        try {
          applyPatch(old, patch);
        } catch (error) {
          expect(error).toBeInstanceOf(PatchMismatch);
        }
      }),
      { numRuns: 500 },
    );
  });
});
