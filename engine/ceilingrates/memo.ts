/**
 * The engine's one way to compute something on first use and keep it for the database's lifetime: derived
 * forms of distinct values, order columns, first rows, the later-year prices.
 */

/** `compute(key)` the first time a key is asked for, the kept value afterwards. */
export function memo<K, V extends object>(compute: (key: K) => V): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = compute(key);
      kept.set(key, value);
    }
    return value;
  };
}

/** `compute()` on the first call, the kept value afterwards. */
export function lazy<V>(compute: () => V): () => V {
  let kept: { value: V } | null = null;
  return () => (kept ??= { value: compute() }).value;
}
