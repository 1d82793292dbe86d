/**
 * wage_histogram: a variable-width histogram of at most 12 buckets over the sorted matching prices, by 1-D
 * k-means (Lloyd's iterations from equal-count starting centroids). Bucket edges are value thresholds found
 * by binary search, so equal prices never straddle two buckets; prefix sums make each iteration
 * O(k log n). See docs/decisions/0201-wage-histogram-clustering.md.
 */
export interface HistogramBucket {
  min: number;
  key: number;
  max: number;
  doc_count: number;
}

export const HISTOGRAM_BUCKETS = 12;
const MAX_ITERATIONS = 50;

/** First index in sorted[0..n) whose value is greater than `value`. */
function upperBound(sorted: Float64Array, n: number, value: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function bucket(sorted: Float64Array, start: number, end: number): HistogramBucket {
  const min = sorted[start];
  const max = sorted[end - 1];
  return { min, key: (min + max) / 2, max, doc_count: end - start };
}

/** `sorted[0..n)` ascending, no NaN. */
export function wageHistogram(sorted: Float64Array, n: number, k = HISTOGRAM_BUCKETS): HistogramBucket[] {
  if (n === 0) return [];
  // Run starts of distinct values: with k or fewer distinct prices, each is its own bucket.
  const distinctStarts: number[] = [];
  for (let i = 0; i < n && distinctStarts.length <= k; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinctStarts.push(i);
  if (distinctStarts.length <= k) {
    return distinctStarts.map((start, i) => bucket(sorted, start, i + 1 < distinctStarts.length ? distinctStarts[i + 1] : n));
  }

  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + sorted[i];
  const mean = (start: number, end: number): number => (prefix[end] - prefix[start]) / (end - start);

  // Edges: bucket j covers [edges[j], edges[j+1]).
  let edges: number[] = [0];
  for (let j = 1; j < k; j++) {
    const at = Math.floor((j * n) / k);
    // Snap to the end of the run of equal values so a value never spans two buckets.
    const snapped = upperBound(sorted, n, sorted[at - 1]);
    if (snapped > edges[edges.length - 1] && snapped < n) edges.push(snapped);
  }
  edges.push(n);

  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const centroids: number[] = [];
    for (let j = 0; j + 1 < edges.length; j++) centroids.push(mean(edges[j], edges[j + 1]));
    const next: number[] = [0];
    for (let j = 0; j + 1 < centroids.length; j++) {
      const edge = upperBound(sorted, n, (centroids[j] + centroids[j + 1]) / 2);
      if (edge > next[next.length - 1] && edge < n) next.push(edge);
    }
    next.push(n);
    const same = next.length === edges.length && next.every((e, i) => e === edges[i]);
    edges = next;
    if (same) break;
  }

  const buckets: HistogramBucket[] = [];
  for (let j = 0; j + 1 < edges.length; j++) buckets.push(bucket(sorted, edges[j], edges[j + 1]));
  return buckets;
}
