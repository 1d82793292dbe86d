/**
 * Plain data with typed arrays in it, as one byte string and back: what an engine prepares of a bind so that a
 * later bind maps arrays instead of computing them (docs/decisions/0405). The typed arrays are laid out
 * 8-byte aligned after a JSON header that holds everything else (objects, arrays, strings, numbers), so a
 * decoded array is a view on the bytes, not a copy. Platform-free: bytes in, value out.
 *
 * Layout: "OGPK", the container version (u32 LE), the header's length (u32 LE), 4 zero bytes, the header
 * (UTF-8 JSON: kind, version, shape, value, and the array table: type, offset from the first array, length),
 * zero padding to 8, then the arrays, each starting on 8. A long list of strings (and nulls), such as a column's
 * distinct values, is not in the header but two arrays: its strings' UTF-8 bytes, NUL between them, and where its
 * nulls are. Parsing them out of the JSON header was a third of a prepared bind (a 1.3 MB header).
 *
 * Not a general serializer: a value holds only plain objects, arrays, strings, finite or special numbers,
 * booleans, null and typed arrays; anything else (a function, a class instance, a Map) is refused when
 * packing, so what is packed can never silently lose a part. Object properties that are undefined are left
 * out, as JSON leaves them. Getters are read (a lazily computed column is packed computed).
 */

export type TypedArray = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

const MAGIC = 0x4b50474f; // "OGPK" little-endian
const CONTAINER_VERSION = 2;
const PREFIX = 16;
/** Lists of strings at least this long go to a string table; shorter ones stay readable in the header. */
const STRING_TABLE_MIN = 64;

const ARRAY_TYPES = {
  Uint8Array,
  Int8Array,
  Uint16Array,
  Int16Array,
  Uint32Array,
  Int32Array,
  Float32Array,
  Float64Array,
} as const;
type ArrayTypeName = keyof typeof ARRAY_TYPES;

/** What a packed value claims to be: checked before anything is decoded. */
export interface PackLabel {
  /** What the value is (e.g. `ceilingrates-index`). */
  kind: string;
  /** The format version of that kind: a different version is not read. */
  version: number;
}

/** A packed value that cannot be read as the given kind and version (or is not a pack at all). */
export class PackMismatch extends Error {}

type EncodedNumber = { $n: 'NaN' | 'Infinity' | '-Infinity' | '-0' };
type EncodedArray = { $a: number };
/** A string table: the indexes of its UTF-8 text and of its nulls' positions in the array table, and its length. */
type EncodedStrings = { $s: [number, number, number] };

/** UTF-8 for the header and the string tables. */
const ENCODER = new TextEncoder();
/** The string tables' text: strict, so corrupt bytes are a mismatch; ignoreBOM, so a leading U+FEFF stays a string's. */
const TABLE_TEXT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A UTF-16 surrogate without its other half: UTF-8 cannot carry it (it would come back as U+FFFD). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True for a long list of strings that a table can carry (no NUL, its separator; UTF-8 whole) and nulls. */
function isStringList(value: readonly unknown[]): value is readonly (string | null)[] {
  if (value.length < STRING_TABLE_MIN) return false;
  return value.every((item) => item === null || (typeof item === 'string' && !item.includes('\u0000') && !LONE_SURROGATE.test(item)));
}

function arrayTypeName(value: unknown): ArrayTypeName | null {
  if (!ArrayBuffer.isView(value)) return null;
  const name = value.constructor.name;
  return name in ARRAY_TYPES ? (name as ArrayTypeName) : null;
}

function specialNumber(value: number): EncodedNumber | null {
  if (Number.isNaN(value)) return { $n: 'NaN' };
  if (value === Infinity) return { $n: 'Infinity' };
  if (value === -Infinity) return { $n: '-Infinity' };
  if (value === 0 && 1 / value < 0) return { $n: '-0' };
  return null;
}

function describe(value: unknown): string {
  if (typeof value !== 'object' || value === null) return `a ${typeof value}`;
  return `a ${(value as { constructor?: { name?: string } }).constructor?.name ?? 'non-plain object'}`;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The value's shape: its objects' keys and the kind of each leaf (typed array, number, string, boolean,
 * null, array), not its sizes or contents. Two binds of the same code over different data have the same
 * shape; a format whose shape changed (a field added to a store) is a different format.
 */
export function shapeOf(value: unknown): string {
  if (value === null) return '?';
  if (arrayTypeName(value)) return 'T';
  if (Array.isArray(value)) return '[]';
  switch (typeof value) {
    case 'number':
      return 'n';
    case 'string':
      return 's';
    case 'boolean':
      return 'b';
  }
  if (typeof value !== 'object') return typeof value;
  const entries = Object.keys(value)
    .sort()
    .map((key) => [key, (value as Record<string, unknown>)[key]] as const)
    .filter(([, v]) => v !== undefined);
  return `{${entries.map(([key, v]) => `${key}:${shapeOf(v)}`).join(',')}}`;
}

/** A short fingerprint of a shape (FNV-1a, 32 bits, hex): what a format records and checks. */
export function shapeHash(value: unknown): string {
  const shape = shapeOf(value);
  let hash = 0x811c9dc5;
  for (let i = 0; i < shape.length; i++) hash = Math.imul(hash ^ shape.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The value (plain data, checked here) as bytes, labelled with its kind, version and shape. */
export function pack(value: unknown, label: PackLabel): Uint8Array {
  const arrays: TypedArray[] = [];
  const arrayIndex = new Map<TypedArray, number>();
  const register = (typed: TypedArray): number => {
    // An array reached twice (a column shared by two structures) is stored once and decodes to one view.
    let index = arrayIndex.get(typed);
    if (index === undefined) {
      index = arrays.length;
      arrays.push(typed);
      arrayIndex.set(typed, index);
    }
    return index;
  };
  const encode = (v: unknown, path: string): unknown => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return specialNumber(v) ?? v;
    if (typeof v !== 'object') throw new TypeError(`pack: ${path} is ${describe(v)}`);
    if (arrayTypeName(v)) return { $a: register(v as TypedArray) } satisfies EncodedArray;
    if (Array.isArray(v) && isStringList(v)) {
      const nulls = Uint32Array.from(v.flatMap((item, i) => (item === null ? [i] : [])));
      const text = ENCODER.encode(v.map((item) => item ?? '').join('\u0000'));
      return { $s: [register(text), register(nulls), v.length] } satisfies EncodedStrings;
    }
    if (Array.isArray(v)) {
      return Array.from(v, (item, i) => encode(item, `${path}[${i}]`));
    }
    if (ArrayBuffer.isView(v) || !isPlainObject(v)) throw new TypeError(`pack: ${path} is ${describe(v)}`);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v)) {
      if (key.startsWith('$')) throw new TypeError(`pack: ${path}.${key}: keys starting with $ are reserved`);
      const item = (v as Record<string, unknown>)[key];
      if (item !== undefined) out[key] = encode(item, `${path}.${key}`);
    }
    return out;
  };
  const encoded = encode(value, 'value');
  // Offsets count from the start of the arrays (after the header), so the header does not depend on its own length.
  const align = (n: number) => (n + 7) & ~7;
  let end = 0;
  const table = arrays.map((a): [ArrayTypeName, number, number] => {
    const at = end;
    end = align(at + a.byteLength);
    return [arrayTypeName(a)!, at, a.length];
  });
  const header: Header = { kind: label.kind, version: label.version, shape: shapeHash(value), value: encoded, arrays: table };
  const headerBytes = ENCODER.encode(JSON.stringify(header));
  const start = align(PREFIX + headerBytes.length);
  const bytes = new Uint8Array(start + end);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, CONTAINER_VERSION, true);
  view.setUint32(8, headerBytes.length, true);
  bytes.set(headerBytes, PREFIX);
  arrays.forEach((a, i) => bytes.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), start + table[i][1]));
  return bytes;
}

/**
 * The value packed in `bytes`, its typed arrays as views on them (the bytes must not be changed afterwards).
 * Throws PackMismatch unless the bytes are a whole pack of this kind, version and shape.
 */
export function unpack(bytes: Uint8Array, label: PackLabel & { shape: string }): unknown {
  const { header, start } = readHeader(bytes);
  if (header.kind !== label.kind || header.version !== label.version || header.shape !== label.shape) {
    throw new PackMismatch(`packed ${header.kind} v${header.version} (shape ${header.shape}), expected ${label.kind} v${label.version} (shape ${label.shape})`);
  }
  // Views need aligned offsets: bytes that do not start on 8 are copied once.
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const views = header.arrays.map(([type, offset, length], i) => {
    const Type = Object.hasOwn(ARRAY_TYPES, type) ? ARRAY_TYPES[type] : null;
    const at = start + offset;
    if (
      !Type ||
      !Number.isInteger(offset) ||
      !Number.isInteger(length) ||
      offset % 8 !== 0 ||
      length < 0 ||
      at + length * Type.BYTES_PER_ELEMENT > aligned.byteLength
    ) {
      throw new PackMismatch(`packed array ${i} lies outside the bytes`);
    }
    return new Type(aligned.buffer as ArrayBuffer, aligned.byteOffset + at, length);
  });
  const decode = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item = v[i] as unknown;
        if (item !== null && typeof item === 'object') v[i] = decode(item);
      }
      return v;
    }
    const record = v as Record<string, unknown>;
    if ('$a' in record) {
      const view = views[record.$a as number];
      if (!view) throw new PackMismatch('packed value names a missing array');
      return view;
    }
    if ('$n' in record) return Number(record.$n);
    if ('$s' in record) return stringList(record.$s, views);
    for (const key of Object.keys(record)) record[key] = decode(record[key]);
    return record;
  };
  return decode(header.value);
}

/** A string table back as its list: one decoding and one native split, no step per string in script. */
function stringList(encoded: unknown, views: readonly TypedArray[]): (string | null)[] {
  const [textAt, nullsAt, length] = Array.isArray(encoded) ? (encoded as unknown[]) : [];
  const bytes = typeof textAt === 'number' ? views[textAt] : undefined;
  const nulls = typeof nullsAt === 'number' ? views[nullsAt] : undefined;
  if (!(bytes instanceof Uint8Array) || !(nulls instanceof Uint32Array)) throw new PackMismatch('packed value names a missing string table');
  let text: string;
  try {
    text = TABLE_TEXT.decode(bytes);
  } catch {
    throw new PackMismatch('packed string table is not UTF-8');
  }
  const list: (string | null)[] = text.split('\u0000');
  if (list.length !== length) throw new PackMismatch('packed string table does not add up');
  for (const i of nulls) {
    if (list[i] !== '') throw new PackMismatch('packed string table does not add up');
    list[i] = null;
  }
  return list;
}

interface Header {
  kind: string;
  version: number;
  shape: string;
  value: unknown;
  arrays: [ArrayTypeName, number, number][];
}

/** The header, and where the arrays start. */
function readHeader(bytes: Uint8Array): { header: Header; start: number } {
  if (bytes.byteLength < PREFIX) throw new PackMismatch('packed bytes too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new PackMismatch('packed bytes are not a pack');
  if (view.getUint32(4, true) !== CONTAINER_VERSION) throw new PackMismatch(`packed pack of container version ${view.getUint32(4, true)}`);
  const length = view.getUint32(8, true);
  if (PREFIX + length > bytes.byteLength) throw new PackMismatch('packed bytes cut short');
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(PREFIX, PREFIX + length))) as Header;
  } catch {
    throw new PackMismatch('packed header is not JSON');
  }
  if (!header || typeof header.kind !== 'string' || typeof header.version !== 'number' || typeof header.shape !== 'string' || !Array.isArray(header.arrays)) {
    throw new PackMismatch('packed header lacks its label');
  }
  return { header, start: (PREFIX + length + 7) & ~7 };
}
