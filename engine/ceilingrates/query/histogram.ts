/**
 * wage_histogram: a variable-width histogram of at most 12 buckets over the matching prices, by 1-D k-means
 * (Lloyd's iterations from equal-count starting buckets) over the distinct prices weighted by their counts.
 * Bucket edges fall between distinct prices, so equal prices never straddle two buckets; prefix sums make
 * each iteration O(k log m). See docs/decisions/0201-wage-histogram-clustering.md.
 */
import { upperBound } from '../bounds.ts';
import { exponentAbove, times2 } from './power-of-two.ts';
import { KernelMemory, roomFor } from '../kernels/kernels.ts';

export interface HistogramBucket {
  min: number;
  key: number;
  max: number;
  doc_count: number;
}

export const HISTOGRAM_BUCKETS = 12;
const MAX_ITERATIONS = 50;

/** Distinct prices ascending with how many matching records carry each. */
export interface PriceCounts {
  values: Float64Array;
  counts: Float64Array;
  /** Number of distinct prices in use. */
  m: number;
  /** Records before each distinct price (m + 1 entries), when the caller counted them already. */
  cumulative?: Float64Array;
}

/**
 * Index of the distinct price holding the k-th smallest record (0-based), given `cumulative[i]` = records
 * before distinct price i (cumulative[0] = 0, cumulative[m] = all): the last i whose cumulative[i] <= k.
 * m when k is past the last record.
 */
export function priceOfRecord(cumulative: Float64Array, m: number, k: number): number {
  return upperBound(cumulative, m + 1, k) - 1;
}

/** Runs of equal values of `sorted[0..n)` (ascending) as distinct values with counts. */
export function priceCountsOfSorted(sorted: ArrayLike<number>, n: number): PriceCounts {
  const values = new Float64Array(n);
  const counts = new Float64Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (m > 0 && values[m - 1] === sorted[i]) counts[m - 1]++;
    else {
      values[m] = sorted[i];
      counts[m++] = 1;
    }
  }
  return { values, counts, m };
}

/** Records before each distinct price, into `into` (m + 1 entries). */
export function cumulativeCounts({ counts, m }: PriceCounts, into: Float64Array): Float64Array {
  // A running total in a local: reading back the array's previous entry would chain every step through memory.
  let running = 0;
  into[0] = 0;
  for (let i = 0; i < m; i++) into[i + 1] = running += counts[i];
  return into;
}

export interface HistogramOptions {
  /** At most this many buckets (HISTOGRAM_BUCKETS). */
  buckets?: number;
}

/**
 * The histogram's arrays in kernel memory, for the weighted sums' kernels: the distinct prices and their counts
 * are copied in (whoever counted them), the prefix sums computed there. One per thread, cached for the next
 * histogram; replaced by a larger one when a histogram has more distinct prices than it holds.
 */
interface HistogramMemory {
  kernels: KernelMemory;
  values: Float64Array;
  counts: Float64Array;
  sums: Float64Array;
}
let memory: HistogramMemory | null = null;

/**
 * Sizes this thread's histogram memory for histograms of up to `m` distinct prices now: an index does it when it
 * binds, so that no request pays for a memory.
 */
export function reserveHistogram(m: number): void {
  histogramMemory(m);
}

function histogramMemory(m: number): HistogramMemory {
  if (memory && memory.values.length >= m) return memory;
  // Room to grow: the next histograms of the same data rarely have many more distinct prices.
  const capacity = Math.max(1024, 2 * m);
  const kernels = new KernelMemory(roomFor([8, capacity], [8, capacity], [8, capacity + 1]));
  memory = {
    kernels,
    values: kernels.alloc(Float64Array, capacity),
    counts: kernels.alloc(Float64Array, capacity),
    sums: kernels.alloc(Float64Array, capacity + 1),
  };
  return memory;
}

export function wageHistogram(prices: PriceCounts, { buckets: k = HISTOGRAM_BUCKETS }: HistogramOptions = {}): HistogramBucket[] {
  const { m } = prices;
  const cumulative = prices.cumulative ?? cumulativeCounts(prices, new Float64Array(m + 1));
  const records = cumulative[m];
  const held = histogramMemory(m);
  const { kernels } = held;
  const values = held.values.subarray(0, m);
  const counts = held.counts.subarray(0, m);
  values.set(prices.values.subarray(0, m));
  counts.set(prices.counts.subarray(0, m));
  const sums = held.sums;
  // Huge prices (power-of-two.ts): summed divided by 2^exponent, so their means are not NaN; 0 for any sum that
  // cannot overflow, so ordinary prices give the same sums as unscaled.
  const magnitude = m === 0 ? 0 : Math.max(Math.abs(values[0]), Math.abs(values[m - 1]));
  const exponent = magnitude * Math.max(1, records) < 1e300 ? 0 : exponentAbove(magnitude);
  const inverse = 2 ** -exponent;
  const [valuesAt, countsAt] = [kernels.at(values), kernels.at(counts)];
  kernels.run.weightedPrefix(valuesAt, countsAt, m, inverse, kernels.at(sums));
  // The key is the bucket's centroid, the mean of its prices, as the search engine's variable-width histogram
  // reports it. Summed over the bucket itself, not as a difference of prefix sums, so a one-price bucket's key is
  // its price and rounding cannot put a key outside [min, max]; scaled so huge prices keep a finite mean.
  const bucket = (start: number, end: number): HistogramBucket => {
    const min = values[start];
    const max = values[end - 1];
    const doc_count = cumulative[end] - cumulative[start];
    const sum = kernels.run.weightedSum(valuesAt, countsAt, start, end, inverse);
    const key = end - start === 1 ? min : Math.min(max, Math.max(min, times2(sum / doc_count, exponent)));
    return { min, key, max, doc_count };
  };
  if (m <= k) return Array.from({ length: m }, (_, i) => bucket(i, i + 1));

  const n = cumulative[m];
  // Edges: bucket j covers distinct prices [edges[j], edges[j+1]).
  let edges: number[] = [0];
  for (let j = 1; j < k; j++) {
    const edge = priceOfRecord(cumulative, m, (j * n) / k) + 1;
    if (edge > edges[edges.length - 1] && edge < m) edges.push(edge);
  }
  edges.push(m);

  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const centroids: number[] = [];
    for (let j = 0; j + 1 < edges.length; j++) {
      centroids.push(times2((sums[edges[j + 1]] - sums[edges[j]]) / (cumulative[edges[j + 1]] - cumulative[edges[j]]), exponent));
    }
    const next: number[] = [0];
    for (let j = 0; j + 1 < centroids.length; j++) {
      const edge = upperBound(values, m, centroids[j] / 2 + centroids[j + 1] / 2);
      if (edge > next[next.length - 1] && edge < m) next.push(edge);
    }
    next.push(m);
    const same = next.length === edges.length && next.every((e, i) => e === edges[i]);
    edges = next;
    if (same) break;
  }

  const buckets: HistogramBucket[] = [];
  for (let j = 0; j + 1 < edges.length; j++) buckets.push(bucket(edges[j], edges[j + 1]));
  return buckets;
}
