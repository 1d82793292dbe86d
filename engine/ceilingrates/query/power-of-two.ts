/**
 * Sums of prices near the largest double (1.8e308) overflow long before their means or deviations would. Such
 * sums are taken over the prices divided by a power of two, which is exact, and what comes of them is multiplied
 * back: the wage statistics and the histogram's centroids do it the same way.
 */

/** The exponent e with |x| ≤ 2^e for the largest magnitude: prices times 2^-e are at most 1. */
export const exponentAbove = (magnitude: number): number => Math.ceil(Math.log2(magnitude));

/** x · 2^exponent, in two steps: 2^1024 itself is not a double, x · 2^1024 may be. */
export const times2 = (x: number, exponent: number): number => x * 2 ** Math.floor(exponent / 2) * 2 ** Math.ceil(exponent / 2);
