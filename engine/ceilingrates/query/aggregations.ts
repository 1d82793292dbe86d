/**
 * Aggregations over every matching record (not just the page): eight term aggregations (the seven fields and
 * the normalised education codes), wage statistics, percentiles, median and the wage histogram (the API reference, "Aggregations").
 *
 * One pass counts the term fields and each distinct price (by its rank in the price order) over the matches —
 * or, when they are more than half the records, over the rest, subtracted from counts of every record made at
 * bind. The statistics are summed over the matches in id order. Everything about prices — the price term
 * buckets, min/max, percentiles, histogram — is then read off the distinct-price counts, without sorting.
 */
import type { ColumnStore } from '../columns/store.ts';
import type { Dictionary } from '../columns/dictionary.ts';
import type { OrderColumn } from '../columns/order-columns.ts';
import { cumulativeCounts, priceOfRecord, reserveHistogram, wageHistogram, type HistogramBucket, type PriceCounts } from './histogram.ts';
import type { Combos } from '../columns/combos.ts';
import type { MatchSet } from './match.ts';
import { EDUCATION_COUNT_CODES, educationCountCode } from '../text.ts';
import { exponentAbove, times2 } from './power-of-two.ts';
import type { TermBucket, TermsAggregation, TopTerms } from './terms.ts';
import { roomFor, type KernelMemory } from '../kernels/kernels.ts';

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

/** education_level_counts: production's shape, `buckets` only, one per code in EDUCATION_COUNT_CODES order. */
export interface EducationCounts {
  buckets: TermBucket[];
}

export const PERCENTILES = [10, 25, 30, 35, 50, 65, 70, 75, 90] as const;
export const percentileKey = (p: number): string => p.toFixed(1);

export interface Aggregations {
  labor_category: TermsAggregation;
  security_clearance: TermsAggregation;
  worksite: TermsAggregation;
  min_years_experience: TermsAggregation;
  education_level: TermsAggregation;
  current_price: TermsAggregation;
  business_size: TermsAggregation;
  /** Absent when nothing matches (production leaves it out). */
  education_level_counts?: EducationCounts;
  wage_histogram: { buckets: HistogramBucket[] };
  histogram_percentiles: { values: Record<string, number | null> };
  median_price: { values: Record<string, number | null> };
  wage_stats: WageStats;
}

/**
 * Term sizes, production's: labor_category, current_price and min_years_experience 500, the others 10. A response
 * recorded from production on 2026-10-10 (filter=sin:541330EMI, 5,560 matches) has exactly 500 current_price
 * buckets with sum_other_doc_count 3725, and all 30 distinct experience values with sum_other_doc_count 0 (see
 * tests/unit/ceilingrates/recorded.test.ts); 10, the search engine's default, cut both short.
 */
export const TERM_SIZES = {
  labor_category: 500,
  security_clearance: 10,
  worksite: 10,
  min_years_experience: 500,
  education_level: 10,
  current_price: 500,
  business_size: 10,
} as const;

/** Exact percentiles with linear interpolation between closest ranks: position p/100 · (n − 1). */
export function percentiles(prices: PriceCounts, ps: readonly number[], { scratch }: { scratch?: Float64Array } = {}): (number | null)[] {
  const { values, m } = prices;
  const cumulative = prices.cumulative ?? cumulativeCounts(prices, scratch && scratch.length > m ? scratch : new Float64Array(m + 1));
  const n = cumulative[m];
  // The value of the k-th smallest price (0-based).
  const at = (k: number): number => values[Math.min(priceOfRecord(cumulative, m, k), m - 1)];
  return ps.map((p) => {
    if (n === 0) return null;
    const position = (p / 100) * (n - 1);
    const lo = Math.floor(position);
    const hi = Math.ceil(position);
    const low = at(lo);
    return low + (at(hi) - low) * (position - lo);
  });
}

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

/** education_level_counts from the counts per code, in EDUCATION_COUNT_CODES order, zero counts kept. */
export function educationBuckets(counts: readonly number[]): EducationCounts {
  return { buckets: EDUCATION_COUNT_CODES.map((key, i) => ({ key, doc_count: counts[i] ?? 0 })) };
}

/** The term aggregations of a search, by name (the seven fields, sized by TERM_SIZES). */
export type TermAggregations = Pick<Aggregations, keyof typeof TERM_SIZES>;

/**
 * A search's aggregations from what was counted over its matches: the term aggregations, the education
 * counts, the distinct prices with their counts (ascending) and the price sums. Percentiles, median and the
 * histogram are computed here from the distinct prices, so every store that can count them answers alike.
 */
export function aggregationsFrom(parts: {
  matches: number;
  terms: TermAggregations;
  education: EducationCounts;
  prices: PriceCounts;
  sums: PriceSums;
}): Aggregations {
  const { matches, terms, education, prices, sums } = parts;
  const [median, ...others] = percentiles(prices, [50, ...PERCENTILES]);
  const byKey: Record<string, number | null> = {};
  PERCENTILES.forEach((p, i) => (byKey[percentileKey(p)] = others[i]));
  const aggregations: Aggregations = {
    labor_category: terms.labor_category,
    security_clearance: terms.security_clearance,
    worksite: terms.worksite,
    min_years_experience: terms.min_years_experience,
    education_level: terms.education_level,
    current_price: terms.current_price,
    business_size: terms.business_size,
    education_level_counts: education,
    wage_histogram: { buckets: wageHistogram(prices) },
    histogram_percentiles: { values: byKey },
    median_price: { values: { [percentileKey(50)]: median } },
    wage_stats: statsFrom(sums),
  };
  // Production leaves education_level_counts out when nothing matches.
  if (matches === 0) delete aggregations.education_level_counts;
  return aggregations;
}

/** What an Aggregator is built from: the columns, the price order, the combinations, and kernel memory sized by `Aggregator.room`. */
export interface AggregatorSources {
  store: ColumnStore;
  priceOrder: OrderColumn;
  combos: Combos;
  kernels: KernelMemory;
  /** Term buckets (TopTerms over `Aggregator.termDicts`), shared with the index's other term aggregations. */
  topTerms: TopTerms;
  /** A buffer of the records' length in kernel memory, used while the totals are counted (no tables kept). */
  everyRow: Uint32Array;
  /** What an earlier Aggregator over the same columns computed (`tables()`), kept with the prepared columns. */
  tables?: AggregatorTables;
}

/** The largest term aggregation: labor_category, current_price and experience ask 500 buckets. */
export const LARGEST_TERMS = Math.max(...Object.values(TERM_SIZES));

/**
 * Aggregations over one database's columns; `bind` builds it once. Each record's term codes are laid out
 * row-major — labor_category, a "combo" code standing for its five small fields (clearance, worksite,
 * experience, education, business size), its price rank — so counting one matching record touches one
 * cache line. Combo counts are split back into the five fields' counts per distinct combo, not per record.
 * The passes over rows and distinct values are kernels (../kernels), over arrays held in kernel memory.
 */
export class Aggregator {
  private readonly store: ColumnStore;
  private readonly priceOrder: OrderColumn;
  private readonly kernels: KernelMemory;
  private readonly topTerms: TopTerms;
  private readonly priceKeyOfRank: Uint32Array;
  /** labor_category, then the five combo fields in COMBO_FIELDS order. */
  private readonly dicts: Dictionary[];
  private readonly packed: Uint32Array;
  /** The five small fields' codes of each combo, combo-major. */
  private readonly comboFields: Uint32Array;
  private readonly prices: Float64Array;
  /** The distinct prices, ascending (the price order's rank values). */
  private readonly distinct: Float64Array;
  private readonly totals: Counts;
  /** Each education_level code's index in EDUCATION_COUNT_CODES, or -1 when it is no bucket. */
  private readonly educationCountOfCode: Int32Array;
  /**
   * The plain price sums of listed matches, added in the counting pass (in id order, as sumsOf adds them) so
   * the prices are not read in a second pass over the rows; null when the matches were not listed.
   */
  private listedSums: { sum: number; sumOfSquares: number } | null = null;
  /** Buffers every request reuses (requests run one at a time); nothing keeps them past a request. */
  private readonly scratch: {
    counts: Counts;
    combos: Uint32Array;
    cumulative: Float64Array;
    values: Float64Array;
    counted: Float64Array;
    keys: Uint32Array;
    sums: Float64Array;
  };

  /** The dictionaries whose term buckets an Aggregator picks. */
  static termDicts(store: ColumnStore, combos: Combos): Dictionary[] {
    return [store.text.labor_category, ...combos.dicts, store.priceKeys];
  }

  /** The kernel memory an Aggregator takes (its TopTerms apart). */
  static room({ store, priceOrder, combos }: Pick<AggregatorSources, 'store' | 'priceOrder' | 'combos'>): number {
    const distinct = priceOrder.nullRank;
    const fieldLengths = combos.dicts.map((d) => [4, d.values.length] as const);
    const counts = [[4, store.text.labor_category.values.length] as const, [4, distinct + 1] as const, ...fieldLengths];
    return roomFor(
      [4, distinct],
      [4, 3 * store.size],
      combos.fieldCodes,
      store.numbers.current_price,
      [8, distinct],
      ...counts,
      ...counts,
      [4, combos.count],
      [8, distinct],
      [8, distinct],
      [8, distinct + 1],
      [4, store.priceKeys.values.length],
      [8, 2],
    );
  }

  constructor({ store, priceOrder, combos, kernels, topTerms, everyRow, tables }: AggregatorSources) {
    this.store = store;
    this.priceOrder = priceOrder;
    this.kernels = kernels;
    this.topTerms = topTerms;
    this.dicts = [store.text.labor_category, ...combos.dicts];
    const rank = priceOrder.recordRank;
    const distinct = priceOrder.nullRank;
    if (tables) {
      this.priceKeyOfRank = kernels.hold(tables.priceKeyOfRank);
      this.packed = kernels.hold(tables.packed);
    } else {
      // Each distinct price has one two-decimal key: map price ranks to term keys once.
      this.priceKeyOfRank = kernels.alloc(Uint32Array, distinct);
      const keys = store.priceKeys.codes;
      for (let r = 0; r < store.size; r++) if (rank[r] < distinct) this.priceKeyOfRank[rank[r]] = keys[r];
      this.packed = kernels.alloc(Uint32Array, store.size * 3);
      const labor = store.text.labor_category.codes;
      for (let r = 0; r < store.size; r++) {
        this.packed[3 * r] = labor[r];
        this.packed[3 * r + 1] = combos.codes[r];
        this.packed[3 * r + 2] = rank[r];
      }
    }
    reserveHistogram(distinct);
    this.comboFields = kernels.hold(combos.fieldCodes);
    this.prices = kernels.hold(store.numbers.current_price);
    this.distinct = kernels.hold(priceOrder.rankValues!);
    this.educationCountOfCode = Int32Array.from(store.text.education_level.values, (v) => {
      const code = educationCountCode(v);
      return code === null ? -1 : EDUCATION_COUNT_CODES.indexOf(code);
    });
    const emptyCounts = (): Counts => ({
      labor: kernels.alloc(Uint32Array, this.dicts[0].values.length),
      ranks: kernels.alloc(Uint32Array, distinct + 1),
      fields: this.dicts.slice(1).map((d) => kernels.alloc(Uint32Array, d.values.length)),
    });
    this.totals = tables
      ? { labor: kernels.hold(tables.totals.labor), ranks: kernels.hold(tables.totals.ranks), fields: tables.totals.fields.map((f) => kernels.hold(f)) }
      : emptyCounts();
    this.scratch = {
      counts: emptyCounts(),
      combos: kernels.alloc(Uint32Array, combos.count),
      values: kernels.alloc(Float64Array, distinct),
      counted: kernels.alloc(Float64Array, distinct),
      cumulative: kernels.alloc(Float64Array, distinct + 1),
      keys: kernels.alloc(Uint32Array, store.priceKeys.values.length),
      sums: kernels.alloc(Float64Array, 2),
    };
    if (!tables) {
      for (let r = 0; r < store.size; r++) everyRow[r] = r;
      const counted = this.matchCounts({ mask: new Uint8Array(0), count: store.size, rows: everyRow, rest: null });
      this.totals.labor.set(counted.labor);
      this.totals.ranks.set(counted.ranks);
      counted.fields.forEach((f, i) => this.totals.fields[i].set(f));
    }
  }

  /** What this computed from the columns at bind, for a later Aggregator over the same columns. */
  tables(): AggregatorTables {
    return { priceKeyOfRank: this.priceKeyOfRank, packed: this.packed, totals: this.totals };
  }

  /**
   * Counts over the matches, into the reused buffers: over listed matches directly (the five small fields
   * split from the combo counts, per combo); over many as the totals minus the rest's counts, the rest's five
   * fields counted directly (the rest is small; the combos are not).
   */
  private matchCounts({ rows, rest }: MatchSet): Counts {
    const { kernels, packed, comboFields } = this;
    const { run } = kernels;
    const at = (a: Uint32Array | Float64Array): number => kernels.at(a);
    const counts = this.scratch.counts;
    const { labor, ranks, fields } = counts;
    labor.fill(0);
    ranks.fill(0);
    for (const f of fields) f.fill(0);
    const [f0, f1, f2, f3, f4] = fields.map(at);
    this.listedSums = null;
    if (rows) {
      const { combos, sums } = this.scratch;
      combos.fill(0);
      run.countRows(at(rows), rows.length, at(packed), at(this.prices), at(labor), at(combos), at(ranks), at(sums));
      this.listedSums = { sum: sums[0], sumOfSquares: sums[1] };
      run.splitCombos(at(combos), combos.length, at(comboFields), f0, f1, f2, f3, f4);
      return counts;
    }
    run.countRowFields(at(rest!), rest!.length, at(packed), at(comboFields), at(labor), at(ranks), f0, f1, f2, f3, f4);
    const { totals } = this;
    run.subtractFrom(at(totals.labor), at(labor), labor.length);
    run.subtractFrom(at(totals.ranks), at(ranks), ranks.length);
    fields.forEach((f, i) => run.subtractFrom(at(totals.fields[i]), at(f), f.length));
    return counts;
  }

  /**
   * education_level's counts summed per normalised code (a few distinct values, not records): every code, in
   * EDUCATION_COUNT_CODES order, zero counts kept, as production answers it.
   */
  private educationCounts(education: Uint32Array): EducationCounts {
    const counts = new Array<number>(EDUCATION_COUNT_CODES.length).fill(0);
    for (let code = 0; code < education.length; code++) {
      const at = this.educationCountOfCode[code];
      if (at >= 0) counts[at] += education[code];
    }
    return educationBuckets(counts);
  }

  aggregate(match: MatchSet): Aggregations {
    const { store, priceOrder, dicts, kernels, topTerms, scratch } = this;
    const counts = this.matchCounts(match);
    const terms = [counts.labor, ...counts.fields];
    const ranks = counts.ranks;
    const keyCounts = scratch.keys.fill(0);
    const at = (a: Uint32Array | Float64Array): number => kernels.at(a);
    // Every distinct price rank is walked, even for a few matches: in a kernel that costs what the counts' fill does.
    const m = kernels.run.countRanks(
      at(ranks),
      at(this.distinct),
      at(this.priceKeyOfRank),
      priceOrder.nullRank,
      at(scratch.values),
      at(scratch.counted),
      at(scratch.cumulative),
      at(keyCounts),
    );
    const priceCounts: Required<PriceCounts> = { values: scratch.values, counts: scratch.counted, m, cumulative: scratch.cumulative };
    const count = match.count - ranks[priceOrder.nullRank];
    const min = scratch.values[0];
    const max = scratch.values[m - 1];
    // Statistics are summed over the matches in id order, so they are exactly reproducible.
    const sums = { count, ...priceSums(this.prices, match, min, max, this.listedSums ?? undefined), min, max };
    const top = (dict: Dictionary, of: Uint32Array, size: number): TermsAggregation => topTerms.of({ dict, counts: of, size });
    return aggregationsFrom({
      matches: match.count,
      terms: {
        labor_category: top(dicts[0], terms[0], TERM_SIZES.labor_category),
        security_clearance: top(dicts[1], terms[1], TERM_SIZES.security_clearance),
        worksite: top(dicts[2], terms[2], TERM_SIZES.worksite),
        min_years_experience: top(dicts[3], terms[3], TERM_SIZES.min_years_experience),
        education_level: top(dicts[4], terms[4], TERM_SIZES.education_level),
        current_price: top(store.priceKeys, keyCounts, TERM_SIZES.current_price),
        business_size: top(dicts[5], terms[5], TERM_SIZES.business_size),
      },
      education: this.educationCounts(terms[4]),
      prices: priceCounts,
      sums,
    });
  }
}

/** The Aggregator's tables built from the columns at bind: a price rank's term key, the packed rows, every record's counts. */
export interface AggregatorTables {
  priceKeyOfRank: Uint32Array;
  packed: Uint32Array;
  totals: Counts;
}

export interface Counts {
  labor: Uint32Array;
  /** By price rank; nulls at `nullRank`. */
  ranks: Uint32Array;
  /** The five combo fields' counts, in COMBO_FIELDS order. */
  fields: Uint32Array[];
}
