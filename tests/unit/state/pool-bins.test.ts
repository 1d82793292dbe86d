import { describe, expect, it } from 'vitest';
import { commonBins, type Pool } from '../../../ui/components/rates-view/pool-bins.ts';
import type { FiguresModel } from '../../../ui/components/rates-view/figures-model.ts';

const model = (buckets: [number, number, number][]): FiguresModel => ({
  field: 'current_price',
  matches: 0,
  count: buckets.reduce((n, b) => n + b[2], 0),
  avg: null,
  median: null,
  std: null,
  min: buckets[0][0],
  max: buckets.at(-1)![1],
  percentiles: { '10.0': buckets[0][0], '90.0': buckets.at(-1)![1] },
  histogram: buckets.map(([min, max, doc_count]) => ({ min, max, key: (min + max) / 2, doc_count })),
  check: null,
});
const pool = (m: FiguresModel | null): Pool => ({ title: '', description: '', pin: null, model: m });

describe('pools on one price axis', () => {
  it('gives each pool shares that add up to 1, its rates spread over its buckets’ ranges', () => {
    const { bins, top } = commonBins(
      [
        pool(
          model([
            [50, 60, 10],
            [60, 100, 30],
          ]),
        ),
        pool(
          model([
            [40, 40, 5],
            [200, 300, 5],
          ]),
        ),
        pool(null),
      ],
      10,
    );
    expect(bins!.edges).toHaveLength(11);
    for (const shares of bins!.shares.slice(0, 2)) expect(shares!.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(bins!.shares[2]).toBeNull();
    expect(top).toBe(Math.max(...bins!.shares.flatMap((s) => s ?? [])));
    // A single-price bucket lands whole in its band.
    const band = Math.floor((40 - bins!.lo) / ((bins!.hi - bins!.lo) / 10));
    expect(bins!.shares[1]![band]).toBeCloseTo(0.5, 9);
  });

  it('draws nothing without figures', () => {
    expect(commonBins([pool(null)]).bins).toBeNull();
  });
});
