/**
 * The floor: the least work any implementation must do for the aggregations. The matching records' fields
 * are already laid out contiguously in typed arrays (prepared outside the timing), so the timed part is one
 * sequential pass counting the seven term fields and each distinct price and summing the statistics, then
 * reading the percentiles, histogram and top buckets off the counts. Matching, ordering the page and the
 * `_source` reads are not in it: it is a lower bound, not an alternative.
 */
import type { CeilingRatesIndex } from '../../engine/ceilingrates/ceiling-rates-index.ts';
import { percentiles, PERCENTILES } from '../../engine/ceilingrates/query/aggregations.ts';
import { wageHistogram, type PriceCounts } from '../../engine/ceilingrates/query/histogram.ts';

export interface FloorInput {
  /** Per term field (labor_category, security_clearance, worksite, experience, education, business_size): codes of the matches. */
  codes: Uint32Array[];
  sizes: number[];
  /** Price rank (in the price order) and price of each match. */
  priceRank: Uint32Array;
  price: Float64Array;
  distinctPrices: Float64Array;
}

export function floorInput(index: CeilingRatesIndex, rows: Uint32Array): FloorInput {
  const { store } = index;
  const dicts = [
    store.text.labor_category,
    store.text.security_clearance,
    store.text.worksite,
    store.experienceKeys,
    store.text.education_level,
    store.text.business_size,
  ];
  const order = index.orders.get('current_price');
  return {
    codes: dicts.map((d) => Uint32Array.from(rows, (r) => d.codes[r])),
    sizes: dicts.map((d) => d.values.length),
    priceRank: Uint32Array.from(rows, (r) => order.recordRank[r]),
    price: Float64Array.from(rows, (r) => store.numbers.current_price[r]),
    distinctPrices: order.rankValues!,
  };
}

/** The `size` largest counts (ties by code): a sorted buffer most counts fail to enter at once. */
function top(counts: Uint32Array, size: number): number {
  const best: number[] = [];
  for (let code = 0; code < counts.length; code++) {
    const c = counts[code];
    if (c === 0 || (best.length === size && c <= counts[best[size - 1]])) continue;
    let at = best.length === size ? size - 1 : best.length;
    while (at > 0 && c > counts[best[at - 1]]) at--;
    best.splice(at, 0, code);
    if (best.length > size) best.pop();
  }
  return best.length;
}

export function floorPass(input: FloorInput): number {
  const [a0, a1, a2, a3, a4, a5] = input.codes;
  const counts = input.sizes.map((n) => new Uint32Array(n));
  const [c0, c1, c2, c3, c4, c5] = counts;
  const { priceRank, price, distinctPrices } = input;
  const rankCounts = new Uint32Array(distinctPrices.length + 1);
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < price.length; i++) {
    c0[a0[i]]++;
    c1[a1[i]]++;
    c2[a2[i]]++;
    c3[a3[i]]++;
    c4[a4[i]]++;
    c5[a5[i]]++;
    rankCounts[priceRank[i]]++;
    const p = price[i];
    if (p === p) {
      sum += p;
      squares += p * p;
    }
  }
  const pc: PriceCounts = { values: new Float64Array(distinctPrices.length), counts: new Float64Array(distinctPrices.length), m: 0 };
  for (let r = 0; r < distinctPrices.length; r++) {
    if (rankCounts[r] === 0) continue;
    pc.values[pc.m] = distinctPrices[r];
    pc.counts[pc.m++] = rankCounts[r];
  }
  let checksum = sum + squares + wageHistogram(pc).length;
  for (const v of percentiles(pc, [50, ...PERCENTILES])) checksum += v ?? 0;
  counts.forEach((c, i) => (checksum += top(c, i === 0 ? 500 : 10)));
  return checksum;
}
