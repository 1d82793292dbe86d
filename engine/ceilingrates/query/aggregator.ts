/**
 * The aggregations of a match set: its rows counted, then the counts read as the aggregations. The same for
 * every store: the in-memory index counts its own match sets, a database's door the match sets of the rows the
 * database found (query/match-set.ts), over the same per-row codes.
 *
 * Each row's term codes are laid out row-major — labor_category, a "combo" code standing for its five small
 * fields (clearance, worksite, experience, education, business size), its price rank — so counting one
 * matching row touches one cache line. Combo counts are split back into the five fields' counts per distinct
 * combo, not per row. Over the matches when they are listed; otherwise over the rest, subtracted from every
 * row's counts. The passes over rows and distinct values are kernels (../kernels), over kernel memory.
 */
import { reserveHistogram, type PriceCounts } from './histogram.ts';
import { COMBO_FIELDS, type Combos } from '../columns/combos.ts';
import type { MatchSet } from './match-set.ts';
import { EDUCATION_COUNT_CODES, educationCountCode } from '../text.ts';
import { aggregationsFrom, educationBuckets, TERM_SIZES, type Aggregations, type EducationCounts } from './aggregations.ts';
import { priceSums } from './wage-stats.ts';
import type { TermKeys, TermsAggregation, TopTerms } from './terms.ts';
import type { Codes } from '../columns/dictionary.ts';
import { roomFor, type KernelMemory } from '../kernels/kernels.ts';

/** The dictionaries an Aggregator's buckets are keyed by. */
export interface CountedDictionaries {
  labor: TermKeys;
  /** The five combination fields', in COMBO_FIELDS order. */
  comboDicts: readonly TermKeys[];
  priceKeys: TermKeys;
}

/** What an Aggregator counts and how it names the counts; kernel memory sized by `Aggregator.room`. */
export interface AggregatorSources extends CountedDictionaries {
  /** The five combination fields' codes of each combination, combination-major. */
  comboFields: Uint32Array;
  /** The distinct prices ascending: a price rank's price. */
  distinct: Float64Array;
  /** Each row's price (NaN for none): the statistics are summed over them in row order. */
  prices: Float64Array;
  /** The rows' codes, each price rank's key, and every row's counts when an earlier count cached them. */
  rows: CountedRows;
  kernels: KernelMemory;
  /** Term buckets (TopTerms over `Aggregator.termDicts`), shared with the store's other term aggregations. */
  topTerms: TopTerms;
  /** A buffer of the rows' length in kernel memory, used while every row's counts are counted (none given). */
  everyRow: Uint32Array;
}

/** The sizes an Aggregator's kernel memory is computed from. */
export interface AggregatorShape {
  rows: number;
  /** Distinct prices. */
  distinct: number;
  labor: number;
  comboFields: readonly number[];
  combos: number;
  priceKeys: number;
}

/**
 * Aggregations over one store's rows, built once per store. `aggregate` counts a match set's rows
 * (`matchCounts`) and reads the counts (`aggregationsOfCounts`).
 */
export class Aggregator {
  private readonly kernels: KernelMemory;
  private readonly topTerms: TopTerms;
  private readonly priceKeyOfRank: Uint32Array;
  /** labor_category, then the five combo fields in COMBO_FIELDS order. */
  private readonly dicts: TermKeys[];
  private readonly priceKeys: TermKeys;
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
   * The plain price sums of listed matches, added in the counting pass (in id order, as priceSums adds them) so
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
  static termDicts({ labor, comboDicts, priceKeys }: CountedDictionaries): TermKeys[] {
    return [labor, ...comboDicts, priceKeys];
  }

  /** The kernel memory an Aggregator takes (its TopTerms and its rows' codes apart: `CountedRows`). */
  static room({ rows, distinct, labor, comboFields, combos, priceKeys }: AggregatorShape): number {
    const counts = [[4, labor] as const, [4, distinct + 1] as const, ...comboFields.map((n) => [4, n] as const)];
    return roomFor(
      [4, 5 * combos],
      [8, rows],
      [8, distinct],
      ...counts,
      ...counts,
      [4, combos],
      [8, distinct],
      [8, distinct],
      [8, distinct + 1],
      [4, priceKeys],
      [8, 2],
    );
  }

  constructor({ labor, comboDicts, priceKeys, comboFields, distinct, prices, rows, kernels, topTerms, everyRow }: AggregatorSources) {
    this.kernels = kernels;
    this.topTerms = topTerms;
    this.dicts = [labor, ...comboDicts];
    this.priceKeys = priceKeys;
    this.priceKeyOfRank = kernels.hold(rows.priceKeyOfRank);
    this.packed = kernels.hold(rows.packed);
    reserveHistogram(distinct.length);
    this.comboFields = kernels.hold(comboFields);
    this.prices = kernels.hold(prices);
    this.distinct = kernels.hold(distinct);
    const education = comboDicts[COMBO_FIELDS.indexOf('education_level')];
    this.educationCountOfCode = Int32Array.from(education.values, (v) => {
      const code = educationCountCode(v);
      return code === null ? -1 : EDUCATION_COUNT_CODES.indexOf(code);
    });
    const emptyCounts = (): Counts => ({
      labor: kernels.alloc(Uint32Array, labor.values.length),
      ranks: kernels.alloc(Uint32Array, distinct.length + 1),
      fields: comboDicts.map((d) => kernels.alloc(Uint32Array, d.values.length)),
    });
    const { totals } = rows;
    this.totals = totals
      ? { labor: kernels.hold(totals.labor), ranks: kernels.hold(totals.ranks), fields: totals.fields.map((f) => kernels.hold(f)) }
      : emptyCounts();
    this.scratch = {
      counts: emptyCounts(),
      combos: kernels.alloc(Uint32Array, comboFields.length / 5),
      values: kernels.alloc(Float64Array, distinct.length),
      counted: kernels.alloc(Float64Array, distinct.length),
      cumulative: kernels.alloc(Float64Array, distinct.length + 1),
      keys: kernels.alloc(Uint32Array, priceKeys.values.length),
      sums: kernels.alloc(Float64Array, 2),
    };
    if (!totals) {
      const size = prices.length;
      for (let r = 0; r < size; r++) everyRow[r] = r;
      const counted = this.matchCounts({ mask: new Uint8Array(0), count: size, rows: everyRow.subarray(0, size), rest: null });
      this.totals.labor.set(counted.labor);
      this.totals.ranks.set(counted.ranks);
      counted.fields.forEach((f, i) => this.totals.fields[i].set(f));
    }
  }

  /** The rows' codes as counted, with every row's counts, for a later Aggregator over the same rows. */
  rows(): Required<CountedRows> {
    return { priceKeyOfRank: this.priceKeyOfRank, packed: this.packed, totals: this.totals };
  }

  /** Every row's counts: per labor category, per price rank, per code of each combination field (COMBO_FIELDS order). */
  everyRowCounts(): Readonly<Counts> {
    return this.totals;
  }

  aggregate(match: MatchSet): Aggregations {
    const counts = this.matchCounts(match);
    // Statistics are summed over the matches in id order, so they are exactly reproducible.
    return this.aggregationsOfCounts(counts, match.count, (min, max) => priceSums(this.prices, match, min, max, this.listedSums ?? undefined));
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
   * The aggregations of `matches` rows from their counts: the distinct prices with counts (and each price
   * key's count) by a walk of the price ranks, every term aggregation's top buckets (one top-k, the kernel's),
   * the education counts, and the price sums `sums` adds once the smallest and largest price are known.
   */
  private aggregationsOfCounts(
    counts: Counts,
    matches: number,
    sums: (min: number, max: number) => { sum: number; sumOfSquares: number; exponent?: number },
  ): Aggregations {
    const { dicts, kernels, topTerms, scratch } = this;
    const terms = [counts.labor, ...counts.fields];
    const { ranks } = counts;
    const keyCounts = scratch.keys.fill(0);
    const at = (a: Uint32Array | Float64Array): number => kernels.at(a);
    const nullRank = this.distinct.length;
    // Every distinct price rank is walked, even for a few matches: in a kernel that costs what the counts' fill does.
    const m = kernels.run.countRanks(
      at(ranks),
      at(this.distinct),
      at(this.priceKeyOfRank),
      nullRank,
      at(scratch.values),
      at(scratch.counted),
      at(scratch.cumulative),
      at(keyCounts),
    );
    const priceCounts: Required<PriceCounts> = { values: scratch.values, counts: scratch.counted, m, cumulative: scratch.cumulative };
    const min = scratch.values[0];
    const max = scratch.values[m - 1];
    const top = (dict: TermKeys, of: Uint32Array, size: number): TermsAggregation => topTerms.of({ dict, counts: of, size });
    return aggregationsFrom({
      matches,
      terms: {
        labor_category: top(dicts[0], terms[0], TERM_SIZES.labor_category),
        security_clearance: top(dicts[1], terms[1], TERM_SIZES.security_clearance),
        worksite: top(dicts[2], terms[2], TERM_SIZES.worksite),
        min_years_experience: top(dicts[3], terms[3], TERM_SIZES.min_years_experience),
        education_level: top(dicts[4], terms[4], TERM_SIZES.education_level),
        current_price: top(this.priceKeys, keyCounts, TERM_SIZES.current_price),
        business_size: top(dicts[5], terms[5], TERM_SIZES.business_size),
      },
      education: this.educationCounts(terms[4]),
      prices: priceCounts,
      sums: { count: matches - ranks[nullRank], ...sums(min, max), min, max },
    });
  }

  /**
   * education_level's counts summed per normalised code (a few distinct values, not records): every code, in
   * EDUCATION_COUNT_CODES order, zero counts included, as production answers it.
   */
  private educationCounts(education: Uint32Array): EducationCounts {
    const counts = new Array<number>(EDUCATION_COUNT_CODES.length).fill(0);
    for (let code = 0; code < education.length; code++) {
      const at = this.educationCountOfCode[code];
      if (at >= 0) counts[at] += education[code];
    }
    return educationBuckets(counts);
  }
}

/**
 * What an Aggregator counts per row: its labor category, combination and price rank (the distinct prices'
 * count for none), three codes a row; each price rank's two-decimal key; every row's counts, once counted.
 */
export interface CountedRows {
  packed: Uint32Array;
  priceKeyOfRank: Uint32Array;
  totals?: Counts;
}

/** The kernel memory a store's CountedRows of `rows` rows and `distinct` prices take, when it places them there itself. */
export const countedRowsRoom = (rows: number, distinct: number): number => roomFor([4, 3 * rows], [4, distinct]);

/**
 * The counted rows of columns (each row's labor code, combination and price rank, and its price key), placed in
 * kernel memory. A price rank's key is the key of any row holding that price: each distinct price has one.
 */
export function countedRows(
  kernels: KernelMemory,
  { labor, combos, priceRanks, distinct, priceKeys }: { labor: Codes; combos: Pick<Combos, 'codes'>; priceRanks: Codes; distinct: number; priceKeys: Codes },
): CountedRows {
  const size = labor.length;
  const priceKeyOfRank = kernels.alloc(Uint32Array, distinct);
  for (let r = 0; r < size; r++) if (priceRanks[r] < distinct) priceKeyOfRank[priceRanks[r]] = priceKeys[r];
  const packed = kernels.alloc(Uint32Array, size * 3);
  for (let r = 0; r < size; r++) {
    packed[3 * r] = labor[r];
    packed[3 * r + 1] = combos.codes[r];
    packed[3 * r + 2] = priceRanks[r];
  }
  return { packed, priceKeyOfRank };
}

export interface Counts {
  labor: Uint32Array;
  /** By price rank; nulls at the distinct prices' count. */
  ranks: Uint32Array;
  /** The five combo fields' counts, in COMBO_FIELDS order. */
  fields: Uint32Array[];
}
