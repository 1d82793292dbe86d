/**
 * The one binary search of the ceiling-rates engine, over an ascending Float64Array (ids, distinct prices,
 * cumulative counts, string offsets). Typed to one array kind so the hot loops that call it stay monomorphic.
 */

/** First index in `values[0..n)` whose value is >= `value` (n when none is). */
export function lowerBound(values: Float64Array, n: number, value: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in `values[0..n)` whose value is > `value` (n when none is). */
export function upperBound(values: Float64Array, n: number, value: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
