/**
 * The floor: the least work any implementation must do for the aggregations, given the matching records
 * already in typed arrays, in price order (prepared outside the timing). One fused pass counts the seven
 * term fields, sums the statistics and lays out the sorted prices; then the percentiles and the top
 * buckets are read off. Matching, ordering the page and `_source` reads are not in it, so it is a lower bound.
 */
import type { ColumnStore, Dictionary } from '../../worker/engine/ceilingrates/columns.ts';
import { percentile, PERCENTILES } from '../../worker/engine/ceilingrates/aggregations.ts';
import { wageHistogram } from '../../worker/engine/ceilingrates/histogram.ts';

export interface FloorInput {
  /** Matching rows in ascending price order (null prices last). */
  rowsByPrice: Uint32Array;
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

export function floorPass(store: ColumnStore, input: FloorInput): number {
  const { rowsByPrice } = input;
  const dicts: Dictionary[] = [
    store.text.labor_category,
    store.text.security_clearance,
    store.text.worksite,
    store.experienceKeys,
    store.text.education_level,
    store.priceKeys,
    store.text.business_size,
  ];
  const counts = dicts.map((d) => new Uint32Array(d.values.length));
  const [c0, c1, c2, c3, c4, c5, c6] = counts;
  const [d0, d1, d2, d3, d4, d5, d6] = dicts.map((d) => d.codes);
  const prices = store.numbers.current_price;
  const sorted = new Float64Array(rowsByPrice.length);
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < rowsByPrice.length; i++) {
    const r = rowsByPrice[i];
    c0[d0[r]]++;
    c1[d1[r]]++;
    c2[d2[r]]++;
    c3[d3[r]]++;
    c4[d4[r]]++;
    c5[d5[r]]++;
    c6[d6[r]]++;
    const p = prices[r];
    if (p === p) {
      sorted[n++] = p;
      sum += p;
      squares += p * p;
    }
  }
  let checksum = sum + squares;
  for (const p of PERCENTILES) checksum += percentile(sorted, n, p) ?? 0;
  checksum += wageHistogram(sorted, n).length;
  counts.forEach((c, i) => (checksum += top(c, i === 0 ? 500 : 10)));
  return checksum;
}
