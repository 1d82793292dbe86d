/**
 * The whole platform surface the engine may use: what browsers, workers, service workers and Node all
 * provide alike. Only tsconfig.engine.json reads this file (the other projects get these from their own
 * libraries); anything else the engine touched would fail to compile there.
 */
interface URLSearchParams {
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string): boolean;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  forEach(callback: (value: string, key: string) => void): void;
  readonly size: number;
  toString(): string;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
declare var URLSearchParams: { new (init?: string | Record<string, string> | [string, string][]): URLSearchParams };

interface URL {
  readonly href: string;
  readonly origin: string;
  readonly pathname: string;
  readonly search: string;
  readonly searchParams: URLSearchParams;
}
declare var URL: { new (url: string, base?: string): URL };

interface TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare var TextEncoder: { new (): TextEncoder };

interface TextDecoder {
  decode(input?: Uint8Array): string;
}
declare var TextDecoder: { new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder };

declare var performance: { now(): number };
declare var console: { error(...data: unknown[]): void; warn(...data: unknown[]): void; log(...data: unknown[]): void };

declare function atob(data: string): string;

/** The part of WebAssembly the engine's kernels use (engine/ceilingrates/kernels). */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
  }
}
