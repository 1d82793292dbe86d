/**
 * The compiled kernels (assembly/index.ts) and the one linear memory they run over. An index sizes its memory
 * once, when it binds, for every array a kernel reads or writes: columns are copied in, request buffers are
 * allocated in it, and JavaScript reads and writes the same arrays as views. The memory never grows, because
 * growing would detach every view.
 */
import type { TypedArray } from '../../typed-pack.ts';
import { KERNELS_WASM } from './kernels-wasm.ts';

/** The kernels' signatures: every pointer is a byte address in the memory; see assembly/index.ts. */
export interface KernelFunctions {
  listMask(mask: number, n: number, out: number): number;
  groupsSize(groupStart: number, rank: number, allowed: number, codes: number): number;
  markGroups(mask: number, perm: number, groupStart: number, rank: number, allowed: number, codes: number): void;
  countRows(rows: number, n: number, packed: number, prices: number, labor: number, combos: number, ranks: number, sums: number): void;
  splitCombos(combos: number, n: number, fieldCodes: number, f0: number, f1: number, f2: number, f3: number, f4: number): void;
  countRowFields(
    rows: number,
    n: number,
    packed: number,
    fieldCodes: number,
    labor: number,
    ranks: number,
    f0: number,
    f1: number,
    f2: number,
    f3: number,
    f4: number,
  ): void;
  subtractFrom(total: number, part: number, n: number): void;
  countRanks(ranks: number, distinct: number, keyOf: number, n: number, values: number, counts: number, cumulative: number, keyCounts: number): number;
  topTerms(counts: number, rank: number, nullCode: number, n: number, size: number, top: number, total: number): number;
  weightedPrefix(values: number, counts: number, m: number, inverse: number, sums: number): void;
  weightedSum(values: number, counts: number, start: number, end: number, inverse: number): number;
  markContaining(text: number, textLength: number, starts: number, n: number, needle: number, m: number, fail: number, allowed: number): void;
}

type ArrayType<T extends TypedArray> = { new (buffer: ArrayBuffer, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number };

const PAGE = 65536;
const align = (n: number): number => (n + 7) & ~7;

/** Compiled once per thread: the module is small, so compiling it synchronously is allowed everywhere, a page's thread included. */
let compiled: WebAssembly.Module | null = null;
function kernelModule(): WebAssembly.Module {
  if (!compiled) compiled = new WebAssembly.Module(Uint8Array.from(atob(KERNELS_WASM), (c) => c.charCodeAt(0)));
  return compiled;
}

/** Bytes an array, or an array of `length` elements of `bytesPerElement`, takes in kernel memory. */
export function roomFor(...arrays: (TypedArray | readonly [bytesPerElement: number, length: number])[]): number {
  let total = 0;
  for (const a of arrays) total += align('byteLength' in a ? a.byteLength : a[0] * a[1]);
  return total;
}

export class KernelMemory {
  readonly run: KernelFunctions;
  private readonly buffer: ArrayBuffer;
  private used = 0;
  /** The copies `hold` made, by the array copied. */
  private readonly held = new WeakMap<TypedArray, TypedArray>();

  /** `bytes`: everything the memory will hold (`roomFor` the arrays), allocated now. */
  constructor(readonly bytes: number) {
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE)) });
    this.run = new WebAssembly.Instance(kernelModule(), { env: { memory } }).exports as unknown as KernelFunctions;
    this.buffer = memory.buffer;
    // Each kernel once with nothing to do, so the engine compiles it now (WebAssembly functions are compiled on
    // their first call) rather than in the first request. Nothing is allocated yet: the few results written go
    // to address 0 as zeros.
    for (const kernel of Object.values(this.run)) if (typeof kernel === 'function') (kernel as (...args: number[]) => unknown)(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /** A zeroed array of `length` in the memory. */
  alloc<T extends TypedArray>(Type: ArrayType<T>, length: number): T {
    const at = this.used;
    const size = align(Type.BYTES_PER_ELEMENT * length);
    if (at + size > this.buffer.byteLength) throw new RangeError(`kernel memory: ${at + size} bytes wanted, ${this.buffer.byteLength} sized`);
    this.used = at + size;
    return new Type(this.buffer, at, length);
  }

  /** The array's copy in the memory, made on the first call for that array (columns that several users read). */
  hold<T extends TypedArray>(array: T): T {
    if (array.buffer === this.buffer) return array;
    let placed = this.held.get(array) as T | undefined;
    if (!placed) {
      placed = this.alloc(array.constructor as ArrayType<T>, array.length);
      placed.set(array as never);
      this.held.set(array, placed);
    }
    return placed;
  }

  /** The byte address of an array held here: an array elsewhere would make a kernel read other bytes, so it throws. */
  at(array: TypedArray): number {
    if (array.buffer !== this.buffer) throw new Error('kernel memory: the array is not held here');
    return array.byteOffset;
  }
}
