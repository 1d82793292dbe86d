/**
 * The price figures of a query over one contract year's price, and where a proposed price falls among them:
 * what a pricing analyst shows to justify a price. The API answers these figures for `current_price` only;
 * this computes the same figures (statistics, median, percentiles, wage histogram) with the API's own
 * functions over the same matching records, for any of the three prices. The DB worker asks it directly;
 * it is not an API route.
 */
import type { Database } from 'sql.js';
import { failure, type Failure } from '../http/failure.ts';
import { ceilingRatesIndex } from './ceiling-rates-index.ts';
import { matchedRows } from './query/match-set.ts';
import { NotAcceptable, parseQuery, sizeDetail } from './parse-query.ts';
import { sizeProblem } from '../http/request-size.ts';
import { PERCENTILES, percentiles } from './query/aggregations.ts';
import { priceSums, statsFrom, type WageStats } from './query/wage-stats.ts';
import { priceCountsOfSorted, wageHistogram, type HistogramBucket } from './query/histogram.ts';
import { lowerBound, upperBound } from './bounds.ts';
import { PRICE_FIGURES_PARAMETERS, type PriceField } from './parameters.ts';

/** Where a proposed price falls among the matching prices. */
export interface PriceCheck {
  price: number;
  /** Matching prices below it, and equal to it. */
  below: number;
  equal: number;
  /**
   * Its percentile rank: the share of matching prices below it, counting half of those equal to it
   * (0–100), so a price equal to every match ranks 50.
   */
  percentileRank: number | null;
  /** price − median, in dollars and as a percentage of the median. */
  difference: number | null;
  differencePercent: number | null;
}

export interface PriceFigures {
  field: PriceField;
  /** Matching records (in the pool, when there is one); `stats.count` is how many carry a price in this field. */
  matches: number;
  stats: WageStats;
  median: number | null;
  /** Keyed as the API's histogram_percentiles: "10.0", "25.0", … */
  percentiles: Record<string, number | null>;
  histogram: HistogramBucket[];
  check: PriceCheck | null;
  /** With a pool of exact titles: each title's matching records (under the query's filters), in the pool's order. */
  titles: { title: string; count: number }[];
}

const SELECTING = new Set(['keyword', 'search', 'filter', 'exclude']);

export type PriceFiguresAnswer = { ok: true; figures: PriceFigures } | Failure;

export function priceCheck(sorted: Float64Array, median: number | null, price: number): PriceCheck {
  const n = sorted.length;
  const below = lowerBound(sorted, n, price);
  const equal = upperBound(sorted, n, price) - below;
  return {
    price,
    below,
    equal,
    percentileRank: n ? ((below + equal / 2) / n) * 100 : null,
    difference: median === null ? null : price - median,
    differencePercent: median ? ((price - median) / median) * 100 : null,
  };
}

const TITLE = PRICE_FIGURES_PARAMETERS.find((p) => p.name === 'title')!;

/**
 * The 406 detail for a pool beyond the `title` limits (as many titles as a filter's alternatives, each as long
 * as a search text), in the API's words (`Invalid title: at most 100 values (got 150)`); null within them.
 */
export function titlePoolProblem(titles: readonly string[]): string | null {
  const problem = sizeProblem([TITLE], '', new URLSearchParams(titles.map((title) => [TITLE.name, title])));
  return problem && sizeDetail(problem);
}

/**
 * A pool of exact labor-category titles, any of which matches (as `search=labor_category:` compares one:
 * the whole value, as stored); the API ANDs several searches, so a pool is the worker's.
 */
export function titlePool(codes: ArrayLike<number>, values: readonly (string | null)[], titles: readonly string[]) {
  const slotOfTitle = new Map<string, number>();
  titles.forEach((title, slot) => slotOfTitle.has(title) || slotOfTitle.set(title, slot));
  const slotOfCode = Int32Array.from(values, (value) => (value === null ? -1 : (slotOfTitle.get(value) ?? -1)));
  const counts = new Array<number>(titles.length).fill(0);
  return {
    select(rows: Uint32Array): Uint32Array {
      const selected = new Uint32Array(rows.length);
      let n = 0;
      for (let i = 0; i < rows.length; i++) {
        const slot = slotOfCode[codes[rows[i]]];
        if (slot < 0) continue;
        counts[slot]++;
        selected[n++] = rows[i];
      }
      return selected.subarray(0, n);
    },
    counts: () => titles.map((title, i) => ({ title, count: counts[i] })),
  };
}

/**
 * Figures of `field` over the records the query (`keyword`, `search`, `filter`, `exclude`: the API's
 * parameters) matches — narrowed, when `titles` are given, to those titles (any of them); paging,
 * ordering and export are ignored. A query the API refuses is refused
 * with the API's 406 detail.
 */
export function priceFigures(
  db: Database,
  query: URLSearchParams,
  field: PriceField,
  proposed: number | null = null,
  titles: readonly string[] = [],
): PriceFiguresAnswer {
  const tooMany = titlePoolProblem(titles);
  if (tooMany) return failure(406, tooMany);
  // Only what selects records: paging and ordering cannot make the figures fail.
  const selecting = new URLSearchParams([...query].filter(([key]) => SELECTING.has(key)));
  let parsed;
  try {
    parsed = parseQuery(selecting);
  } catch (error) {
    if (error instanceof NotAcceptable) return failure(406, error.detail);
    throw error;
  }
  const index = ceilingRatesIndex(db);
  const match = index.match({ ...parsed, suggest: [], suggestContains: null });
  const pool = titles.length ? titlePool(index.store.text.labor_category.codes, index.store.text.labor_category.values, titles) : null;
  const rows = pool ? pool.select(matchedRows(match)) : matchedRows(match);
  const column = index.store.numbers[field];
  // Summed in id order, as the API sums current_price, so the figures are exactly reproducible.
  const present = new Float64Array(rows.length);
  let n = 0;
  for (let i = 0; i < rows.length; i++) {
    const v = column[rows[i]];
    if (v === v) present[n++] = v;
  }
  const sorted = present.subarray(0, n).sort();
  const counts = priceCountsOfSorted(sorted, sorted.length);
  const [min, max] = [sorted[0], sorted[n - 1]];
  const stats = statsFrom({ count: n, ...priceSums(column, { rows }, min, max), min, max });
  const [median, ...others] = percentiles(counts, [50, ...PERCENTILES]);
  const byKey: Record<string, number | null> = {};
  PERCENTILES.forEach((p, i) => (byKey[p.toFixed(1)] = others[i]));
  return {
    ok: true,
    figures: {
      field,
      matches: rows.length,
      stats,
      median,
      percentiles: byKey,
      histogram: wageHistogram(counts),
      check: proposed === null || !Number.isFinite(proposed) ? null : priceCheck(sorted, median, proposed),
      titles: pool ? pool.counts() : [],
    },
  };
}
