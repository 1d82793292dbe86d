/**
 * The WebAssembly kernels: the committed module is what its source compiles to, small enough to compile
 * synchronously on any thread, and each kernel gives what the plain loop it replaced gave, on any input.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileKernels, KERNELS_MODULE, kernelsModuleText } from '../../../tools/build-kernels.ts';
import { KernelMemory, roomFor } from '../../../engine/ceilingrates/kernels/kernels.ts';
import { TopTerms } from '../../../engine/ceilingrates/query/terms.ts';
import { foldedText } from '../../../engine/ceilingrates/query/value-forms.ts';

describe('the kernels module', () => {
  it('is what the AssemblyScript source compiles to (run `npm run build:kernels` after changing it)', async () => {
    expect(readFileSync(KERNELS_MODULE, 'utf8')).toBe(kernelsModuleText(await compileKernels()));
  }, 60_000);

  it('stays under 4 KiB, the most a page thread may compile synchronously', async () => {
    expect((await compileKernels()).length).toBeLessThan(4096);
  }, 60_000);
});

describe('KernelMemory', () => {
  it('refuses more than it was sized for, and arrays it does not hold', () => {
    const kernels = new KernelMemory(roomFor([4, 10]));
    kernels.alloc(Uint32Array, 10);
    expect(() => kernels.alloc(Uint8Array, 70_000)).toThrow(/kernel memory/);
    expect(() => kernels.at(new Uint32Array(4))).toThrow(/not held/);
  });

  it('copies an array once for every holder', () => {
    const kernels = new KernelMemory(roomFor([4, 3]));
    const source = Uint32Array.of(7, 8, 9);
    const held = kernels.hold(source);
    expect([...held]).toEqual([7, 8, 9]);
    expect(kernels.hold(source)).toBe(held);
    expect(kernels.hold(held)).toBe(held);
  });
});

describe('listMask', () => {
  it('counts the mask and lists the smaller side in row order', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 200 }), (bits) => {
        const kernels = new KernelMemory(roomFor([1, bits.length], [4, bits.length]));
        const mask = kernels.alloc(Uint8Array, bits.length);
        const out = kernels.alloc(Uint32Array, bits.length);
        bits.forEach((b, i) => (mask[i] = b ? 1 : 0));
        const count = kernels.run.listMask(kernels.at(mask), mask.length, kernels.at(out));
        const matches = bits.flatMap((b, i) => (b ? [i] : []));
        const others = bits.flatMap((b, i) => (b ? [] : [i]));
        expect(count).toBe(matches.length);
        const listed = count * 2 <= bits.length ? matches : others;
        expect([...out.subarray(0, listed.length)]).toEqual(listed);
      }),
    );
  });
});

describe('markGroups', () => {
  it('sets exactly the rows of the allowed codes', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(5), { minLength: 1, maxLength: 60 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), (codes, allow) => {
        // Rows grouped by code (rank = code here): perm lists rows by code, groupStart where each code's rows begin.
        const perm = Uint32Array.from(
          codes
            .map((c, row) => [c, row])
            .sort((a, b) => a[0] - b[0] || a[1] - b[1])
            .map(([, row]) => row),
        );
        const groupStart = new Uint32Array(7);
        for (const c of codes) groupStart[c + 1]++;
        for (let g = 0; g < 6; g++) groupStart[g + 1] += groupStart[g];
        const rank = Uint32Array.of(0, 1, 2, 3, 4, 5);
        const kernels = new KernelMemory(roomFor([1, codes.length], perm, groupStart, rank, [1, 6]));
        const mask = kernels.alloc(Uint8Array, codes.length);
        const allowed = kernels.alloc(Uint8Array, 6);
        allow.forEach((a, i) => (allowed[i] = a ? 1 : 0));
        kernels.run.markGroups(
          kernels.at(mask),
          kernels.at(kernels.hold(perm)),
          kernels.at(kernels.hold(groupStart)),
          kernels.at(kernels.hold(rank)),
          kernels.at(allowed),
          6,
        );
        expect([...mask]).toEqual(codes.map((c) => (allow[c] ? 1 : 0)));
      }),
    );
  });
});

describe('TopTerms', () => {
  it('orders by count descending then key rank, leaves out zero counts and the null value, and totals every bucket', () => {
    const valuesArb = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(valuesArb, fc.array(fc.nat(4), { maxLength: 30 }), fc.integer({ min: 1, max: 8 }), fc.boolean(), (strings, countList, size, withNull) => {
        const values: (string | null)[] = withNull ? [...strings, null] : strings;
        const order = values.map((_, i) => i).sort((a, b) => (values[a] === null ? 1 : values[b] === null ? -1 : values[a]! < values[b]! ? -1 : 1));
        const rank = new Uint32Array(values.length);
        order.forEach((code, position) => (rank[code] = position));
        const dict = { values, rank };
        const kernels = new KernelMemory(TopTerms.room([dict], 8) + roomFor([4, values.length]));
        const top = new TopTerms(kernels, [dict], 8);
        const counts = kernels.alloc(Uint32Array, values.length);
        values.forEach((_, i) => (counts[i] = countList[i] ?? 0));
        const expected = values
          .map((v, code) => ({ v, code }))
          .filter(({ v, code }) => v !== null && counts[code] > 0)
          .sort((a, b) => counts[b.code] - counts[a.code] || rank[a.code] - rank[b.code]);
        const total = expected.reduce((sum, { code }) => sum + counts[code], 0);
        const shown = expected.slice(0, size).map(({ v, code }) => ({ key: v, doc_count: counts[code] }));
        expect(top.of({ dict, counts, size })).toEqual({
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: total - shown.reduce((sum, b) => sum + b.doc_count, 0),
          buckets: shown,
        });
      }),
    );
  });
});

describe('markContaining', () => {
  it('marks exactly the values that contain the needle, as String.includes says, in any script', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'é', 'Σ', '🚀', 'x', ' '), maxLength: 8 });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 20 }), text, (values, needle) => {
        const { bytes, starts } = foldedText(values);
        const encoded = new TextEncoder().encode(needle);
        const kernels = new KernelMemory(roomFor(bytes, starts, encoded, [4, encoded.length], [1, values.length]));
        const allowed = kernels.alloc(Uint8Array, values.length);
        const [b, s, e] = [kernels.hold(bytes), kernels.hold(starts), kernels.hold(encoded)];
        const fail = kernels.alloc(Uint32Array, encoded.length);
        kernels.run.markContaining(kernels.at(b), b.length, kernels.at(s), values.length, kernels.at(e), e.length, kernels.at(fail), kernels.at(allowed));
        expect([...allowed]).toEqual(values.map((v) => (v.includes(needle) ? 1 : 0)));
      }),
    );
  });

  it('finds nothing when the needle almost matches everywhere (the search table, not a restart per byte)', () => {
    const values = Array.from({ length: 50 }, () => 'a'.repeat(2000));
    const { bytes, starts } = foldedText(values);
    const needle = new TextEncoder().encode('a'.repeat(1999) + 'b');
    const kernels = new KernelMemory(roomFor(bytes, starts, needle, [4, needle.length], [1, values.length]));
    const allowed = kernels.alloc(Uint8Array, values.length);
    const fail = kernels.alloc(Uint32Array, needle.length);
    const [b, s, e] = [kernels.hold(bytes), kernels.hold(starts), kernels.hold(needle)];
    kernels.run.markContaining(kernels.at(b), b.length, kernels.at(s), values.length, kernels.at(e), e.length, kernels.at(fail), kernels.at(allowed));
    expect(allowed.every((a) => a === 0)).toBe(true);
  });
});
