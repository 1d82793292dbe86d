/**
 * Pools of rates put on one price axis: each pool's histogram buckets (variable widths, its own edges)
 * re-counted into common equal-width bands by their centres, as a share of the pool's rates, so pools
 * of different sizes and spreads can be drawn over each other.
 */
import type { FiguresModel } from './figures-model.ts';

export interface Pool {
  /** "This query", "Pin 1", … */
  title: string;
  /** The query in words. */
  description: string;
  /** The pin's query string (null for the current query). */
  pin: string | null;
  model: FiguresModel | null;
}

export const BANDS = 24;

export interface CommonBins {
  lo: number;
  hi: number;
  /** BANDS + 1 edges from lo to hi. */
  edges: number[];
  /** Per pool (in order), the share of its rates in each band; null for a pool without figures. */
  shares: (number[] | null)[];
}

/**
 * The axis runs from the lowest 10th percentile to the highest 90th percentile, widened by a quarter:
 * the far outliers (a $1,000 rate) would otherwise squeeze every pool into one band.
 */
export function commonBins(pools: readonly Pool[], bands = BANDS): { bins: CommonBins | null; top: number } {
  const drawn = pools.filter((p) => p.model && p.model.histogram.length);
  if (!drawn.length) return { bins: null, top: 0 };
  const p10 = Math.min(...drawn.map((p) => p.model!.percentiles['10.0'] ?? p.model!.min ?? 0));
  const p90 = Math.max(...drawn.map((p) => p.model!.percentiles['90.0'] ?? p.model!.max ?? 0));
  const spread = Math.max(p90 - p10, 1);
  const lo = Math.max(0, p10 - spread / 4);
  const hi = p90 + spread / 4;
  const width = (hi - lo) / bands;
  const edges = Array.from({ length: bands + 1 }, (_, i) => lo + i * width);
  let top = 0;
  const shares = pools.map((p) => {
    if (!p.model || !p.model.histogram.length) return null;
    const counts = new Array<number>(bands).fill(0);
    const total = p.model.histogram.reduce((n, b) => n + b.doc_count, 0);
    const bandOf = (v: number) => Math.min(bands - 1, Math.max(0, Math.floor((v - lo) / width)));
    for (const b of p.model.histogram) {
      // A bucket's rates spread evenly over its price range (the bands it overlaps, by overlap); prices
      // outside the axis count in the end bands, so every pool's shares add up to 1.
      const first = bandOf(b.min);
      const last = bandOf(b.max);
      if (first === last || b.max <= b.min) {
        counts[first] += b.doc_count;
        continue;
      }
      for (let band = first; band <= last; band++) {
        const from = band === first ? b.min : edges[band];
        const to = band === last ? b.max : edges[band + 1];
        counts[band] += (b.doc_count * Math.max(0, to - from)) / (b.max - b.min);
      }
    }
    const share = counts.map((c) => (total ? c / total : 0));
    top = Math.max(top, ...share);
    return share;
  });
  return { bins: { lo, hi, edges, shares }, top };
}
