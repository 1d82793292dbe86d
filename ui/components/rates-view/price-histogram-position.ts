import type { HistogramBucket } from '../../api/api-types.ts';

/**
 * Where a price falls along the bars. The buckets have variable widths and can leave gaps (a price
 * outlier makes its own bucket), so each bar gets the same width and a price is placed inside its
 * bucket by interpolation; prices in a gap sit on the boundary.
 */
export function pricePosition(buckets: readonly HistogramBucket[], value: number, barWidth: number): number {
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    if (value < b.min) return i * barWidth;
    if (value <= b.max) return (i + (b.max > b.min ? (value - b.min) / (b.max - b.min) : 0.5)) * barWidth;
  }
  return buckets.length * barWidth;
}
