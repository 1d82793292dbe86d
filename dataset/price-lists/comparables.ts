/**
 * Which ceiling rates are comparable to a price-list row (docs/api/price-list-review.md states the rule): the
 * same normalised title, else the longest phrase of its words (phrases.ts says which runs are phrases; of one
 * length, the one in the fewest titles) that finds the minimum, always within the row's education and experience
 * band, never from the list's own contract, and by default one rate per contract, title and price. The rates are
 * read from a ceilingrates database with one SELECT and indexed once per database, then reused by every review.
 */
import type { Database } from 'sql.js';
import { CEILINGRATES_TABLE } from '../../engine/ceilingrates/record.ts';
import { isPhrase, normaliseTitle } from './phrases.ts';
import { contractKey } from './shipped.ts';

export { normaliseTitle } from './phrases.ts';

/** How comparables are counted: the review's parameters, stated in its exports. */
export interface ComparisonOptions {
  /** Comparables a match must find to be taken and to flag a price (at least FIGURES_MINIMUM). */
  minComparables: number;
  /** One rate per contract, title and price: an offer listed under several SINs or worksites counts once. */
  onePerOffer: boolean;
}

/** The method page's minimum: a flag rests on five comparables at least. */
export const DEFAULT_OPTIONS: ComparisonOptions = { minComparables: 5, onePerOffer: true };

/** The fewest comparables that have figures (a sample standard deviation needs two): CALC's own minimum. */
export const FIGURES_MINIMUM = 2;

/** The options as a review may take them: a whole minimum of at least FIGURES_MINIMUM, else a RangeError saying so. */
export function comparisonOptions(options: Partial<ComparisonOptions> = {}): ComparisonOptions {
  const chosen = { ...DEFAULT_OPTIONS, ...options };
  if (!Number.isInteger(chosen.minComparables) || chosen.minComparables < FIGURES_MINIMUM || chosen.minComparables > 1000)
    throw new RangeError(`the minimum of comparables is a whole number from ${FIGURES_MINIMUM} to 1000, not ${options.minComparables}`);
  return chosen;
}

/** The band's rule in words, for the exports. */
export const EXPERIENCE_BAND_WORDS = "within max(2, 25%) years of the row's, edges included (no stated experience: any)";

/**
 * The experience band of a row asking `years`: within max(2, 25%) years either side, edges included (5 → 3…7,
 * 12 → 9…15). A row that states no experience is compared across every experience, an unstated one included.
 */
export function experienceBand(years: number | null): [number, number] | null {
  if (years === null) return null;
  const width = Math.max(2, years * 0.25);
  return [years - width, years + width];
}

/** Records are ordered by education, then experience, within each title: a band is one slice, found by bisection. */
const EDUCATION_STRIDE = 1000;
/** Experience above this is clamped (no rate asks more than a few decades); an unstated one keys as 0. */
const MAX_YEARS = EDUCATION_STRIDE - 2;
const yearsKey = (years: number): number => 1 + Math.min(Math.max(years, 0), MAX_YEARS);
/** A record's key counts whole years (the column is INTEGER; a stray fraction is rounded), so keys are whole. */
const recordYearsKey = (years: number): number => yearsKey(Math.round(years));
/** Records an index holds at most: a key times this plus a record number stays an exact double while keys are under 2^26. */
const RECORD_SPAN = 2 ** 26;

/** What one band asks: the education code and experience band of a row, and whose rates to leave out. */
export interface Band {
  education: string;
  years: [number, number] | null;
  contract: string;
}

/** `exact`: the normalised title itself; `phrase`: a run of its words; `none`: nothing found two comparables. */
export type MatchKind = 'exact' | 'phrase' | 'none';

/** The comparables a row found: record indices into the index's arrays, in no order. */
export interface Found {
  match: MatchKind;
  /** The normalised title or phrase that found them ('' for none). */
  phrase: string;
  /** At least the minimum: else the most specific match that found FIGURES_MINIMUM, shown for reference (no flag). */
  enough: boolean;
  /** A view of the index's scratch memory: valid until its next `comparables` or `select` call. */
  records: Int32Array;
}

export interface ComparisonIndex {
  /** Rates indexed (those with a current price). */
  readonly size: number;
  readonly prices: Float64Array;
  /** Each record's id in the database (the API's `_id`). */
  readonly ids: Float64Array;
  /** Each record's title as stored (the rates view's exact-title pool takes these), by a code shared by equal titles. */
  readonly rawTitleOf: Int32Array;
  readonly rawTitles: readonly string[];
  /** The comparables of a title within a band: the exact title's if it finds the minimum, else the most specific phrase's. */
  comparables(title: string, band: Band, options: ComparisonOptions): Found;
  /** The records one match finds within a band, exactly as `comparables` counted them (the rates view's link). */
  select(match: Exclude<MatchKind, 'none'>, phrase: string, band: Band, onePerOffer: boolean): Int32Array;
}

/**
 * Records of cached phrases at most (a phrase's records do not depend on the band), about 12 MB of the DB worker's
 * memory; past it the cache starts again. A review of 5,000 rows of the real lists gathers about 380,000.
 */
const MAX_CACHED_RECORDS = 1_000_000;

interface PhraseRecords {
  titles: Int32Array;
  /** With more than MERGE_TITLES titles: their records ordered by key (else `records` is null). */
  keys: Float64Array;
  records: Int32Array | null;
}

const EMPTY_KEYS = new Float64Array(0);
const EMPTY_TITLES = new Int32Array(0);
/** Titles a phrase may have before its records are merged into one ordered list. */
const MERGE_TITLES = 16;

/** First position in [from, to) of `keys` (ascending) whose key is ≥ `key`. */
function lowerKey(keys: Float64Array, from: number, to: number, key: number): number {
  while (from < to) {
    const mid = (from + to) >>> 1;
    if (keys[mid] < key) from = mid + 1;
    else to = mid;
  }
  return from;
}

/** A band as the index asks it: key bounds [low, high), the contract left out (-1: none), offers counted once or not. */
interface Slice {
  low: number;
  high: number;
  contract: number;
  onePerOffer: boolean;
}

/** A candidate the scan found: its words (ids), text, how many titles hold it, and how many comparables in the band. */
interface Candidate {
  match: Exclude<MatchKind, 'none'>;
  ids: Int32Array;
  text: string;
  titles: number;
  count: number;
}

class Index implements ComparisonIndex {
  readonly size: number;
  readonly prices: Float64Array;
  readonly ids: Float64Array;
  readonly rawTitles: string[];
  readonly rawTitleOf: Int32Array;
  private readonly contractOf: Int32Array;
  /** Each record's offer: records of one contract, normalised title and price share it. */
  private readonly offerOf: Int32Array;
  private readonly offerSeen: Int32Array;
  private stamp = 0;
  private readonly contractCodes = new Map<string, number>();
  private readonly educationCodes = new Map<string, number>();
  /** Distinct normalised titles, their words (as word ids), and each one's slice of `order`/`keys`. */
  private readonly titleId = new Map<string, number>();
  private readonly titleWords: Int32Array[] = [];
  private readonly start: Int32Array;
  private readonly order: Int32Array;
  private readonly keys: Float64Array;
  private readonly wordId = new Map<string, number>();
  /** Each word's titles, and each pair of adjacent words' (by the first word, then the second), ascending. */
  private readonly pairPostings: Map<number, Int32Array>[] = [];
  private readonly postings: Int32Array[] = [];
  private readonly phrases = new Map<string, PhraseRecords>();
  private cachedRecords = 0;
  private scratch = new Int32Array(1024);

  constructor(rows: readonly (readonly unknown[])[]) {
    const n = rows.length;
    if (n > RECORD_SPAN) throw new RangeError(`a review compares against at most ${RECORD_SPAN} rates, not ${n}`);
    this.size = n;
    this.prices = new Float64Array(n);
    this.ids = new Float64Array(n);
    this.rawTitleOf = new Int32Array(n);
    this.contractOf = new Int32Array(n);
    this.offerOf = new Int32Array(n);
    const rawCodes = new Map<string, number>();
    this.rawTitles = [];
    const titleOf = new Int32Array(n);
    const keyOf = new Float64Array(n);
    const postingLists: number[][] = [];
    const pairLists: Map<number, number[]>[] = [];
    // Titles repeat (a title is offered on many contracts): each distinct one is normalised and indexed once.
    const titleOfRaw: number[] = [];
    const contractCodeOfRaw = new Map<string, number>();
    const offers = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const [title, education, years, price, contract, id] = rows[i] as [string, string, number | null, number, string, number | undefined];
      this.prices[i] = price;
      this.ids[i] = id ?? i + 1;
      let raw = rawCodes.get(title);
      if (raw === undefined) {
        rawCodes.set(title, (raw = this.rawTitles.length));
        this.rawTitles.push(title);
        titleOfRaw.push(this.titleOf(normaliseTitle(title), postingLists, pairLists));
      }
      this.rawTitleOf[i] = raw;
      let contractCode = contractCodeOfRaw.get(contract);
      if (contractCode === undefined) contractCodeOfRaw.set(contract, (contractCode = this.code(this.contractCodes, contractKey(contract ?? ''))));
      this.contractOf[i] = contractCode;
      keyOf[i] = this.code(this.educationCodes, education ?? '') * EDUCATION_STRIDE + (years === null ? 0 : recordYearsKey(years));
      const t = titleOfRaw[raw];
      titleOf[i] = t;
      const offer = `${contractCode} ${t} ${price}`;
      let code = offers.get(offer);
      if (code === undefined) offers.set(offer, (code = offers.size));
      this.offerOf[i] = code;
    }
    this.offerSeen = new Int32Array(offers.size);
    for (const list of postingLists) this.postings.push(Int32Array.from(list));
    for (const pairs of pairLists) this.pairPostings.push(new Map([...pairs].map(([second, list]) => [second, Int32Array.from(list)])));

    // Records by key (packed with the record number below it: one native sort), then a stable counting sort by
    // title: each title's records are a slice ordered by key, and a band is a slice of that.
    const byKey = new Float64Array(n);
    for (let i = 0; i < n; i++) byKey[i] = keyOf[i] * RECORD_SPAN + i;
    byKey.sort();
    const titles = this.titleWords.length;
    this.start = new Int32Array(titles + 1);
    for (let i = 0; i < n; i++) this.start[titleOf[i] + 1]++;
    for (let t = 0; t < titles; t++) this.start[t + 1] += this.start[t];
    const fill = this.start.slice(0, titles);
    this.order = new Int32Array(n);
    this.keys = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const key = Math.floor(byKey[k] / RECORD_SPAN);
      const record = byKey[k] - key * RECORD_SPAN;
      const at = fill[titleOf[record]]++;
      this.order[at] = record;
      this.keys[at] = key;
    }
  }

  /** A normalised title's id, its words and adjacent pairs posted when it is new. */
  private titleOf(normal: string, postingLists: number[][], pairLists: Map<number, number[]>[]): number {
    let t = this.titleId.get(normal);
    if (t !== undefined) return t;
    t = this.titleWords.length;
    this.titleId.set(normal, t);
    const words = normal === '' ? [] : normal.split(' ');
    const ids = Int32Array.from(words, (word) => {
      let id = this.wordId.get(word);
      if (id === undefined) {
        this.wordId.set(word, (id = postingLists.length));
        postingLists.push([]);
        pairLists.push(new Map());
      }
      return id;
    });
    this.titleWords.push(ids);
    // Titles arrive in id order: a word (or a pair) twice in one title is posted once, as its list's last is this title.
    for (let k = 0; k < ids.length; k++) {
      const list = postingLists[ids[k]];
      if (list[list.length - 1] !== t) list.push(t);
      if (k + 1 === ids.length) continue;
      const pairs = pairLists[ids[k]];
      const pair = pairs.get(ids[k + 1]);
      if (!pair) pairs.set(ids[k + 1], [t]);
      else if (pair[pair.length - 1] !== t) pair.push(t);
    }
    return t;
  }

  private code(codes: Map<string, number>, value: string): number {
    let code = codes.get(value);
    if (code === undefined) codes.set(value, (code = codes.size));
    return code;
  }

  /**
   * Appends the records of `keys`/`records` in [start, end) (ordered by key) within the slice's keys, but the
   * contract's and, counting offers once, those of an offer already taken since the last `stamp`, to the scratch
   * from `count`; the new count.
   */
  private collect(keys: Float64Array, records: Int32Array, start: number, end: number, slice: Slice, count: number): number {
    const from = lowerKey(keys, start, end, slice.low);
    const to = lowerKey(keys, from, end, slice.high);
    if (count + (to - from) > this.scratch.length) {
      const grown = new Int32Array(Math.max(this.scratch.length * 2, count + (to - from)));
      grown.set(this.scratch.subarray(0, count));
      this.scratch = grown;
    }
    const { contract, onePerOffer } = slice;
    const stamp = this.stamp;
    for (let k = from; k < to; k++) {
      const record = records[k];
      if (this.contractOf[record] === contract) continue;
      if (onePerOffer) {
        const offer = this.offerOf[record];
        if (this.offerSeen[offer] === stamp) continue;
        this.offerSeen[offer] = stamp;
      }
      this.scratch[count++] = record;
    }
    return count;
  }

  /** The records of one candidate within a slice, into the scratch from its start; their count. */
  private collectMatch(match: Exclude<MatchKind, 'none'>, phrase: Int32Array, text: string, slice: Slice): number {
    this.stamp++;
    if (match === 'exact') {
      const t = this.titleId.get(text);
      return t === undefined ? 0 : this.collect(this.keys, this.order, this.start[t], this.start[t + 1], slice, 0);
    }
    const found = this.phraseRecords(phrase, text);
    if (found.records) return this.collect(found.keys, found.records, 0, found.records.length, slice, 0);
    let count = 0;
    for (const t of found.titles) count = this.collect(this.keys, this.order, this.start[t], this.start[t + 1], slice, count);
    return count;
  }

  /**
   * The titles whose words hold `phrase` (word ids) as a contiguous run and, when they are many, all their records
   * ordered by key: built once per phrase, so a band is then one slice for every later row asking the phrase.
   */
  private phraseRecords(phrase: Int32Array, text: string): PhraseRecords {
    const cached = this.phrases.get(text);
    if (cached) return cached;
    // Candidates: a word's titles, or a phrase's rarest pair of adjacent words' (far fewer than its rarest word's),
    // each then checked for the whole run.
    let rarest = this.postings[phrase[0]];
    for (let k = 0; k + 1 < phrase.length; k++) {
      const titles = this.pairPostings[phrase[k]].get(phrase[k + 1]) ?? EMPTY_TITLES;
      if (k === 0 || titles.length < rarest.length) rarest = titles;
    }
    let size = 0;
    const found: number[] = [];
    for (const t of rarest) {
      if (!containsRun(this.titleWords[t], phrase)) continue;
      found.push(t);
      size += this.start[t + 1] - this.start[t];
    }
    const titles = Int32Array.from(found);
    let entry: PhraseRecords = { titles, keys: EMPTY_KEYS, records: null };
    // A few titles are searched one slice each; many are merged once, packed with the key above the record number
    // (both whole) so that a native sort orders them by key.
    if (titles.length > MERGE_TITLES) {
      const packed = new Float64Array(size);
      let at = 0;
      for (const t of titles) {
        for (let k = this.start[t]; k < this.start[t + 1]; k++) packed[at++] = this.keys[k] * RECORD_SPAN + this.order[k];
      }
      packed.sort();
      const keys = new Float64Array(size);
      const records = new Int32Array(size);
      for (let i = 0; i < size; i++) {
        keys[i] = Math.floor(packed[i] / RECORD_SPAN);
        records[i] = packed[i] - keys[i] * RECORD_SPAN;
      }
      entry = { titles, keys, records };
    }
    if (this.cachedRecords + size > MAX_CACHED_RECORDS) {
      this.phrases.clear();
      this.cachedRecords = 0;
    }
    this.phrases.set(text, entry);
    this.cachedRecords += entry.records ? size : titles.length;
    return entry;
  }

  /** The band as key bounds and codes; null when no rate has its education code. */
  private slice(band: Band, onePerOffer: boolean): Slice | null {
    const education = this.educationCodes.get(band.education);
    if (education === undefined) return null;
    const base = education * EDUCATION_STRIDE;
    // Keys of a band: [low, high). The records' experience is whole years; the band's edges are included.
    const [low, high] = band.years === null ? [base, base + EDUCATION_STRIDE] : [base + yearsKey(band.years[0]), base + yearsKey(band.years[1]) + 1e-9];
    // A contract no rate carries leaves nothing out.
    return { low, high, contract: this.contractCodes.get(contractKey(band.contract)) ?? -1, onePerOffer };
  }

  comparables(title: string, band: Band, options: ComparisonOptions): Found {
    const none: Found = { match: 'none', phrase: '', enough: false, records: this.scratch.subarray(0, 0) };
    const normal = normaliseTitle(title);
    const slice = this.slice(band, options.onePerOffer);
    if (!slice || normal === '') return none;
    const words = normal.split(' ');
    const ids = Int32Array.from(words, (word) => this.wordId.get(word) ?? -1);
    const min = options.minComparables;
    const found = (c: Candidate, enough: boolean): Found => {
      const count = this.collectMatch(c.match, c.ids, c.text, slice);
      return { match: c.match, phrase: c.text, enough, records: this.scratch.subarray(0, count) };
    };

    // The most specific match that finds FIGURES_MINIMUM, should none find the minimum.
    let fallback: Candidate | null = null;
    if (isPhrase(words) && this.titleId.has(normal)) {
      const exact: Candidate = { match: 'exact', ids, text: normal, titles: 1, count: this.collectMatch('exact', ids, normal, slice) };
      if (exact.count >= min) return found(exact, true);
      if (exact.count >= FIGURES_MINIMUM) fallback = exact;
    }
    // Longest phrases first; of one length, the one held by the fewest titles (the leftmost on a tie).
    for (let length = words.length; length >= 1; length--) {
      let best: Candidate | null = null;
      let bestFallback: Candidate | null = null;
      for (let at = 0; at + length <= words.length; at++) {
        const run = ids.subarray(at, at + length);
        if (run.includes(-1) || !isPhrase(words.slice(at, at + length))) continue;
        const text = words.slice(at, at + length).join(' ');
        const candidate: Candidate = { match: 'phrase', ids: run, text, titles: this.phraseRecords(run, text).titles.length, count: 0 };
        candidate.count = this.collectMatch('phrase', run, text, slice);
        if (candidate.count >= min) {
          if (!best || candidate.titles < best.titles) best = candidate;
        } else if (!fallback && candidate.count >= FIGURES_MINIMUM && (!bestFallback || candidate.titles < bestFallback.titles)) bestFallback = candidate;
      }
      if (best) return found(best, true);
      fallback ??= bestFallback;
    }
    return fallback ? found(fallback, false) : none;
  }

  select(match: Exclude<MatchKind, 'none'>, phrase: string, band: Band, onePerOffer: boolean): Int32Array {
    const slice = this.slice(band, onePerOffer);
    const words = phrase === '' ? [] : phrase.split(' ');
    const ids = Int32Array.from(words, (word) => this.wordId.get(word) ?? -1);
    // A phrase a link names that is no phrase (hand-edited) or holds a word no rate has finds nothing.
    if (!slice || !isPhrase(words) || normaliseTitle(phrase) !== phrase || ids.includes(-1)) return new Int32Array(0);
    return this.scratch.slice(0, this.collectMatch(match, ids, phrase, slice));
  }
}

function containsRun(words: Int32Array, run: Int32Array): boolean {
  outer: for (let at = 0; at + run.length <= words.length; at++) {
    for (let k = 0; k < run.length; k++) if (words[at + k] !== run[k]) continue outer;
    return true;
  }
  return false;
}

/** The columns the index reads, in its row order. */
export const COMPARISON_SELECT = `SELECT labor_category, education_level, min_years_experience, current_price, idv_piid, id FROM ${CEILINGRATES_TABLE} WHERE current_price IS NOT NULL`;

/** An index over rows of COMPARISON_SELECT's columns (tests give them directly; without an id, a row's is its place + 1). */
export const comparisonIndexOf = (rows: readonly (readonly unknown[])[]): ComparisonIndex => new Index(rows);

const built = new WeakMap<Database, ComparisonIndex>();

/** The index of a database's rates, built on first use and cached as long as the database lives. */
export function comparisonIndex(db: Database): ComparisonIndex {
  let index = built.get(db);
  if (!index) {
    const result = db.exec(COMPARISON_SELECT)[0];
    built.set(db, (index = new Index(result?.values ?? [])));
  }
  return index;
}
