/**
 * Term aggregations: the buckets of the values with the most matching records, by doc_count descending then
 * key ascending, as production's search engine orders them; the counts are made by the caller, the top
 * buckets are picked by a kernel (../kernels) over counts held in kernel memory.
 */
import type { Dictionary } from '../columns/dictionary.ts';
import { roomFor, type KernelMemory } from '../kernels/kernels.ts';

export interface TermBucket {
  key: string;
  doc_count: number;
}

export interface TermsAggregation {
  doc_count_error_upper_bound: number;
  sum_other_doc_count: number;
  buckets: TermBucket[];
}

/** A term aggregation of its top buckets and the documents of every bucket (`total`): the rest are "other". */
export function bucketsAggregation(buckets: TermBucket[], total: number): TermsAggregation {
  let shown = 0;
  for (const bucket of buckets) shown += bucket.doc_count;
  return { doc_count_error_upper_bound: 0, sum_other_doc_count: total - shown, buckets };
}

/** What a term aggregation reads of a dictionary: the keys and their order. */
export type TermKeys = Pick<Dictionary, 'values' | 'rank'>;

/**
 * Buckets by doc_count descending then key ascending (the dictionary's key rank), at most `size`; a null
 * value is no bucket and no "other" document.
 */
export interface TermCounts {
  dict: TermKeys;
  /** Records per code of `dict`, in kernel memory. */
  counts: Uint32Array;
  /** At most this many buckets (at most TopTerms' `largest`). */
  size: number;
}

/** Picks top buckets with the topTerms kernel, over counts and dictionary ranks held in kernel memory. */
export class TopTerms {
  private readonly top: Uint32Array;
  private readonly total: Float64Array;
  /** Per-code counts for a caller that counts codes here (suggest-contains): as long as the longest dictionary. */
  private readonly counts: Uint32Array;
  /** Each dictionary's null value's code, or -1 (a dictionary numbers each distinct value once, null included). */
  private readonly nullCodes = new Map<Uint32Array, number>();

  /** The kernel memory a TopTerms over these dictionaries takes, for at most `largest` buckets. */
  static room(dicts: readonly TermKeys[], largest: number): number {
    return roomFor(...dicts.map((d) => d.rank), [4, largest + 1], [8, 1], [4, longest(dicts)]);
  }

  /** `dicts`: every dictionary it will be asked about (their ranks are copied in now). */
  constructor(
    private readonly kernels: KernelMemory,
    dicts: readonly TermKeys[],
    private readonly largest: number,
  ) {
    for (const dict of dicts) {
      kernels.hold(dict.rank);
      this.nullCodes.set(dict.rank, dict.values.indexOf(null));
    }
    this.top = kernels.alloc(Uint32Array, largest + 1);
    this.total = kernels.alloc(Float64Array, 1);
    this.counts = kernels.alloc(Uint32Array, longest(dicts));
  }

  of({ dict, counts, size }: TermCounts): TermsAggregation {
    const { kernels, top, total } = this;
    if (size > this.largest) throw new RangeError(`${size} buckets asked, at most ${this.largest}`);
    const { rank, values } = dict;
    const nullCode = this.nullCodes.get(rank);
    if (nullCode === undefined) throw new Error('TopTerms: a dictionary it was not built for');
    const found = kernels.run.topTerms(kernels.at(counts), kernels.at(kernels.hold(rank)), nullCode, counts.length, size, kernels.at(top), kernels.at(total));
    const buckets: TermBucket[] = [];
    for (let i = 0; i < found; i++) buckets.push({ key: values[top[i]]!, doc_count: counts[top[i]] });
    return bucketsAggregation(buckets, total[0]);
  }

  /** Codes of `dict` counted, one per record (`codes[rows[i]]` when `rows` is given, else `codes[i]`), then their top buckets. */
  count(dict: TermKeys, codes: ArrayLike<number>, size: number, rows?: ArrayLike<number>): TermsAggregation {
    const counts = this.counts.subarray(0, dict.values.length).fill(0);
    if (rows) for (let i = 0; i < rows.length; i++) counts[codes[rows[i]]]++;
    else for (let i = 0; i < codes.length; i++) counts[codes[i]]++;
    return this.of({ dict, counts, size });
  }
}

const longest = (dicts: readonly TermKeys[]): number => Math.max(0, ...dicts.map((d) => d.values.length));
