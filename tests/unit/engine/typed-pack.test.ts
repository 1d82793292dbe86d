/**
 * typed-pack: plain data with typed arrays survives a round trip exactly (special numbers, every array type,
 * arrays shared by two parts), arrays come back as views on the bytes, and what is not plain data, or bytes
 * of another label or cut short, are refused.
 */
import { describe, expect, it } from 'vitest';
import { pack, PackMismatch, shapeHash, unpack } from '../../../engine/typed-pack.ts';

const LABEL = { kind: 'test-value', version: 3 };
const labelOf = (value: unknown) => ({ ...LABEL, shape: shapeHash(value) });
/** The JSON header's length (bytes 8–11) and where the arrays start after it (on 8). */
const headerLength = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
const headerText = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(16, 16 + headerLength(bytes)));

describe('typed-pack', () => {
  it('gives back the same value: every typed array type, special numbers, strings with any character, nulls', () => {
    const value = {
      size: 3,
      name: 'a\u0000b \u{1F600} \uD800 lone',
      flags: [true, false, null],
      numbers: [NaN, -0, 0, Infinity, -Infinity, 5e-324, 2 ** 53 + 2, 1.5],
      arrays: {
        u8: Uint8Array.of(0, 255),
        i8: Int8Array.of(-128, 127),
        u16: Uint16Array.of(65535),
        i16: Int16Array.of(-32768),
        u32: Uint32Array.of(4294967295, 0, 7),
        i32: Int32Array.of(-1),
        f32: Float32Array.of(1.25, NaN),
        f64: Float64Array.of(-0, NaN, 1e300, Math.PI),
        empty: new Float64Array(0),
      },
      nested: { values: ['x', null, ''], deeper: { more: [{ n: 1 }, { n: 2 }] } },
    };
    const back = unpack(pack(value, LABEL), labelOf(value)) as typeof value;
    expect(back).toEqual(value);
    expect(Object.is(back.numbers[1], -0)).toBe(true);
    expect(Object.is(back.arrays.f64[0], -0)).toBe(true);
    for (const [key, array] of Object.entries(value.arrays)) expect(back.arrays[key as keyof typeof value.arrays].constructor).toBe(array.constructor);
  });

  it('keeps a long list of strings out of the header and gives it back exactly; one a table cannot carry stays in it', () => {
    const values = Array.from({ length: 100 }, (_, i) => (i % 7 === 3 ? null : `value-${i} é \u{1F600}`));
    values[0] = '\uFEFFstarts with a byte order mark';
    values[1] = '';
    values[99] = null;
    const lone = Array.from({ length: 100 }, (_, i) => (i === 50 ? 'lone \uD800 surrogate' : `lone-${i}`));
    const nul = Array.from({ length: 100 }, (_, i) => (i === 50 ? 'a\u0000b' : `nul-${i}`));
    const value = { values, lone, nul, nulls: new Array<null>(80).fill(null), short: ['x', null] };
    const bytes = pack(value, LABEL);
    const header = headerText(bytes);
    expect(header).not.toContain('value-42');
    expect(header).toContain('lone-42');
    expect(header).toContain('nul-42');
    const back = unpack(bytes, labelOf(value)) as typeof value;
    expect(back).toEqual(value);
    expect(back.values[0]).toBe(values[0]);
  });

  it('refuses a string table whose bytes are not UTF-8', () => {
    const value = { values: Array.from({ length: 64 }, (_, i) => `entry ${i}`) };
    const bytes = pack(value, LABEL);
    // The first array after the header: the table's UTF-8 bytes.
    const first = (16 + headerLength(bytes) + 7) & ~7;
    expect(String.fromCharCode(bytes[first])).toBe('e');
    bytes[first] = 0xff;
    expect(() => unpack(bytes, labelOf(value))).toThrow(PackMismatch);
  });

  it('maps the arrays on the bytes (no copy), and stores an array reached twice once', () => {
    const shared = new Uint32Array(1000).fill(9);
    const value = { a: shared, b: { again: shared }, c: new Uint8Array(3) };
    const bytes = pack(value, LABEL);
    expect(bytes.byteLength).toBeLessThan(2 * shared.byteLength);
    const back = unpack(bytes, labelOf(value)) as typeof value;
    expect(back.a.buffer).toBe(bytes.buffer);
    expect(back.b.again).toBe(back.a);
    expect(back.a.byteOffset % 8).toBe(0);
  });

  it('reads bytes that do not start on an 8-byte boundary (copied once)', () => {
    const value = { f: Float64Array.of(1, 2, 3) };
    const bytes = pack(value, LABEL);
    const shifted = new Uint8Array(bytes.byteLength + 3).subarray(3);
    shifted.set(bytes);
    expect(unpack(shifted, labelOf(value))).toEqual(value);
  });

  it('reads getters (a lazily computed part is packed computed) and leaves undefined properties out', () => {
    let computed = 0;
    const value = { later: undefined as number | undefined };
    Object.defineProperty(value, 'lazy', { enumerable: true, get: () => Float64Array.of(++computed) });
    const back = unpack(pack(value, LABEL), labelOf(value)) as Record<string, unknown>;
    expect(back).toEqual({ lazy: Float64Array.of(1) });
    expect('later' in back).toBe(false);
  });

  it('refuses what is not plain data, naming where it is', () => {
    expect(() => pack({ a: { f: () => 1 } }, LABEL)).toThrow('value.a.f is a function');
    expect(() => pack({ m: new Map() }, LABEL)).toThrow('value.m is a Map');
    expect(() => pack({ d: new DataView(new ArrayBuffer(1)) }, LABEL)).toThrow('value.d is a DataView');
    expect(() => pack({ list: [1, undefined] }, LABEL)).toThrow('value.list[1] is a undefined');
    expect(() => pack({ big: 1n }, LABEL)).toThrow('value.big is a bigint');
    expect(() => pack({ $a: 1 }, LABEL)).toThrow('reserved');
  });

  it('refuses bytes of another kind, version or shape, cut short, or not a pack', () => {
    const value = { size: 2, ids: Float64Array.of(1, 2) };
    const bytes = pack(value, LABEL);
    const label = labelOf(value);
    expect(() => unpack(bytes, { ...label, version: 4 })).toThrow(PackMismatch);
    expect(() => unpack(bytes, { ...label, kind: 'other' })).toThrow(PackMismatch);
    expect(() => unpack(bytes, { ...label, shape: shapeHash({ ...value, added: 1 }) })).toThrow(PackMismatch);
    expect(() => unpack(bytes.subarray(0, bytes.byteLength - 8), label)).toThrow(PackMismatch);
    expect(() => unpack(bytes.subarray(0, 20), label)).toThrow(PackMismatch);
    expect(() => unpack(new TextEncoder().encode('{"kind":"test-value"}'), label)).toThrow(PackMismatch);
    expect(() => unpack(new Uint8Array(4), label)).toThrow(PackMismatch);
  });

  it('has a shape that follows keys and kinds, not sizes or contents', () => {
    const a = { n: 1, t: new Uint8Array(2), list: ['x'], o: { s: 'y', z: null } };
    const b = { o: { z: null, s: 'other' }, list: [null, 'q'], t: new Uint32Array(9), n: 7 };
    expect(shapeHash(a)).toBe(shapeHash(b));
    expect(shapeHash({ ...a, extra: 1 })).not.toBe(shapeHash(a));
    expect(shapeHash({ ...a, n: 'one' })).not.toBe(shapeHash(a));
    expect(shapeHash({ ...a, o: { s: 'y', z: new Float64Array(1) } })).not.toBe(shapeHash(a));
  });
});
