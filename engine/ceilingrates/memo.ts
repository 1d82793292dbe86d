/**
 * The engine's one way to compute something on first use and cache it for the database's lifetime: derived
 * forms of distinct values, order columns, first rows, the later-year prices. What is cached stays a plain
 * field (not hidden in a closure), so the index's memory can be measured by walking it.
 */

/** `compute(key)` the first time a key is asked for, the cached value afterwards. */
export class Memo<K, V extends object> {
  private readonly cached: Map<K, V>;

  /** `known`: values computed earlier (prepared by another bind), returned as if computed here. */
  constructor(
    private readonly compute: (key: K) => V,
    known: Iterable<readonly [K, V]> = [],
  ) {
    this.cached = new Map(known);
  }

  get(key: K): V {
    let value = this.cached.get(key);
    if (value === undefined) {
      value = this.compute(key);
      this.cached.set(key, value);
    }
    return value;
  }
}

/** `compute()` on the first call, the cached value afterwards. */
export class Lazy<V extends object | string> {
  private value: V | null = null;

  constructor(private readonly compute: () => V) {}

  get(): V {
    return (this.value ??= this.compute());
  }
}
