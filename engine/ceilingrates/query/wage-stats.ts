/**
 * wage_stats: count, min, max, mean, sums and deviations of the matching prices (the API reference,
 * "Aggregations"), from their sums. The sums are added in id order, so they are exactly reproducible whichever
 * store found the rows, and scaled by a power of two when plain sums of huge prices would overflow.
 */
import { exponentAbove, times2 } from './power-of-two.ts';

export interface WageStats {
  count: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  /** 0 when nothing matches; null when the sum is beyond the doubles (prices near 1.8e308). */
  sum: number | null;
  sum_of_squares: number | null;
  variance: number | null;
  variance_population: number | null;
  /** `"NaN"` (a string, as production writes it) when `count` is 1: the sample variance divides by n − 1 = 0. */
  variance_sampling: Sampled;
  std_deviation: number | null;
  std_deviation_population: number | null;
  std_deviation_sampling: Sampled;
  std_deviation_bounds: {
    upper: number | null;
    lower: number | null;
    upper_population: number | null;
    lower_population: number | null;
    upper_sampling: Sampled;
    lower_sampling: Sampled;
  };
}

/** A sample statistic: a number, null (nothing matches, or beyond the doubles) or production's `"NaN"` for one price. */
export type Sampled = number | null | 'NaN';

/**
 * The sums a WageStats is computed from: over the non-null prices of the matches, each price divided by
 * 2^`exponent` (`priceSums`); `exponent` is 0, plain sums, unless those would overflow.
 */
export interface PriceSums {
  count: number;
  sum: number;
  sumOfSquares: number;
  min: number;
  max: number;
  exponent?: number;
}

/** A statistic beyond the doubles (a sum of huge prices) has no value JSON can hold: null, not Infinity. */
const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** Which rows a sum is over: those listed in `rows` or, when it is null, every row but those in `rest` (ascending). */
export interface SummedRows {
  rows: ArrayLike<number> | null;
  rest?: ArrayLike<number> | null;
}

/** Σv and Σv² over the prices of the rows in row order, NaN skipped, each price times `factor`. */
function sumsOf(prices: Float64Array, { rows, rest }: SummedRows, factor: number): { sum: number; sumOfSquares: number } {
  let sum = 0;
  let sumOfSquares = 0;
  if (rows) {
    for (let i = 0; i < rows.length; i++) {
      const v = prices[rows[i]] * factor;
      if (v === v) {
        sum += v;
        sumOfSquares += v * v;
      }
    }
    return { sum, sumOfSquares };
  }
  // "All but the rest": the stretches between the rest's rows, with no mask test.
  const skip = rest ?? [];
  let from = 0;
  for (let i = 0; i <= skip.length; i++) {
    const to = i < skip.length ? skip[i] : prices.length;
    for (let r = from; r < to; r++) {
      const v = prices[r] * factor;
      if (v === v) {
        sum += v;
        sumOfSquares += v * v;
      }
    }
    from = to + 1;
  }
  return { sum, sumOfSquares };
}

/**
 * The sums of the prices of `over`'s rows, whose smallest and largest are `min` and `max`, added in id order so
 * they are exactly reproducible. Plain sums, unless those overflow (prices near the largest double, 1.8e308,
 * whose sum and squares' sum overflow long before their mean or deviation would): then summed again with every
 * price divided by a power of two that brings it to at most 1, which is exact, so the scaled sums are the plain
 * sums' values to the same rounding.
 */
export function priceSums(
  prices: Float64Array,
  over: SummedRows,
  min: number,
  max: number,
  /** The plain sums when the caller has summed them already, in the same order. */
  summed?: { sum: number; sumOfSquares: number },
): Pick<PriceSums, 'sum' | 'sumOfSquares' | 'exponent'> {
  const plain = summed ?? sumsOf(prices, over, 1);
  const magnitude = Math.max(Math.abs(min), Math.abs(max));
  if ((Number.isFinite(plain.sum) && Number.isFinite(plain.sumOfSquares)) || !Number.isFinite(magnitude)) return plain;
  const exponent = exponentAbove(magnitude);
  return { ...sumsOf(prices, over, 2 ** -exponent), exponent };
}

export function statsFrom({ count, sum, sumOfSquares, min, max, exponent = 0 }: PriceSums): WageStats {
  if (count === 0) {
    return {
      count: 0,
      min: null,
      max: null,
      avg: null,
      sum: 0,
      sum_of_squares: null,
      variance: null,
      variance_population: null,
      variance_sampling: null,
      std_deviation: null,
      std_deviation_population: null,
      std_deviation_sampling: null,
      std_deviation_bounds: { upper: null, lower: null, upper_population: null, lower_population: null, upper_sampling: null, lower_sampling: null },
    };
  }
  // In scaled units (exponent 0: the prices themselves), then back: the mean and deviations of huge prices
  // are doubles even when their sums are not.
  const avg = times2(sum / count, exponent);
  const spread = sumOfSquares - (sum * sum) / count;
  const scaledPopulation = Math.max(0, spread / count);
  // One price: n − 1 is 0, and production (its search engine) writes the sample statistics as the string "NaN".
  const scaledSampling = count > 1 ? Math.max(0, spread / (count - 1)) : null;
  const population = times2(scaledPopulation, 2 * exponent);
  const sampling = scaledSampling === null ? null : times2(scaledSampling, 2 * exponent);
  const stdPopulation = times2(Math.sqrt(scaledPopulation), exponent);
  const stdSampling = scaledSampling === null ? null : times2(Math.sqrt(scaledSampling), exponent);
  return {
    count,
    min,
    max,
    avg: finite(avg),
    sum: finite(times2(sum, exponent)),
    sum_of_squares: finite(times2(sumOfSquares, 2 * exponent)),
    variance: finite(population),
    variance_population: finite(population),
    variance_sampling: sampling === null ? 'NaN' : finite(sampling),
    std_deviation: finite(stdPopulation),
    std_deviation_population: finite(stdPopulation),
    std_deviation_sampling: stdSampling === null ? 'NaN' : finite(stdSampling),
    std_deviation_bounds: {
      upper: finite(avg + 2 * stdPopulation),
      lower: finite(avg - 2 * stdPopulation),
      upper_population: finite(avg + 2 * stdPopulation),
      lower_population: finite(avg - 2 * stdPopulation),
      upper_sampling: stdSampling === null ? 'NaN' : finite(avg + 2 * stdSampling),
      lower_sampling: stdSampling === null ? 'NaN' : finite(avg - 2 * stdSampling),
    },
  };
}
