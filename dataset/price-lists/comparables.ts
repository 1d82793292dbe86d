/**
 * Which ceiling rates are comparable to a price-list row (docs/api/price-list-review.md states the rule): the
 * same normalised title, else a phrase of its words broadened until at least two are found, always within the
 * row's education and experience band and never from the list's own contract. The rates are read from a
 * ceilingrates database with one SELECT and indexed once per database, then reused by every review of it.
 */
import type { Database } from 'sql.js';
import { CEILINGRATES_TABLE } from '../../engine/ceilingrates/record.ts';
import { contractKey } from './shipped.ts';

/** Comparables a phrase must find before it is taken (CALC's price-list analysis asked for two). */
export const MIN_COMPARABLES = 2;

/** Lower case, every run of characters that are not letters or digits one space, trimmed. */
export const normaliseTitle = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

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

/** The comparables a phrase found: record indices into the index's arrays, in no order. */
export interface Found {
  phrase: string;
  exact: boolean;
  /** A view of the index's scratch memory: valid until its next `comparables` call. */
  records: Int32Array;
}

export interface ComparisonIndex {
  /** Rates indexed (those with a current price). */
  readonly size: number;
  readonly prices: Float64Array;
  /** Each record's title as stored (the rates view's exact-title pool takes these), by a code shared by equal titles. */
  readonly rawTitleOf: Int32Array;
  readonly rawTitles: readonly string[];
  /** The comparables of a title within a band: the exact title's if at least MIN_COMPARABLES, else the broadened phrase's. */
  comparables(title: string, band: Band): Found;
}

/** Records of cached phrases at most (a phrase's records do not depend on the band); past it the cache starts again. */
const MAX_CACHED_RECORDS = 4_000_000;

interface PhraseRecords {
  keys: Float64Array;
  records: Int32Array;
}

/** First position in [from, to) of `keys` (ascending) whose key is ≥ `key`. */
function lowerKey(keys: Float64Array, from: number, to: number, key: number): number {
  while (from < to) {
    const mid = (from + to) >>> 1;
    if (keys[mid] < key) from = mid + 1;
    else to = mid;
  }
  return from;
}

class Index implements ComparisonIndex {
  readonly size: number;
  readonly prices: Float64Array;
  readonly rawTitles: string[];
  readonly rawTitleOf: Int32Array;
  private readonly contractOf: Int32Array;
  private readonly contractCodes = new Map<string, number>();
  private readonly educationCodes = new Map<string, number>();
  /** Distinct normalised titles, their words (as word ids), and each one's slice of `order`/`keys`. */
  private readonly titleId = new Map<string, number>();
  private readonly titleWords: Int32Array[] = [];
  private readonly start: Int32Array;
  private readonly order: Int32Array;
  private readonly keys: Float64Array;
  private readonly wordId = new Map<string, number>();
  /** Each word's titles, ascending. */
  private readonly postings: Int32Array[] = [];
  private readonly phrases = new Map<string, PhraseRecords>();
  private cachedRecords = 0;
  private scratch = new Int32Array(1024);

  constructor(rows: readonly (readonly unknown[])[]) {
    const n = rows.length;
    if (n > RECORD_SPAN) throw new RangeError(`a review compares against at most ${RECORD_SPAN} rates, not ${n}`);
    this.size = n;
    this.prices = new Float64Array(n);
    this.rawTitleOf = new Int32Array(n);
    this.contractOf = new Int32Array(n);
    const rawCodes = new Map<string, number>();
    this.rawTitles = [];
    const titleOf = new Int32Array(n);
    const keyOf = new Float64Array(n);
    const postingLists: number[][] = [];
    for (let i = 0; i < n; i++) {
      const [title, education, years, price, contract] = rows[i] as [string, string, number | null, number, string];
      this.prices[i] = price;
      let raw = rawCodes.get(title);
      if (raw === undefined) {
        rawCodes.set(title, (raw = this.rawTitles.length));
        this.rawTitles.push(title);
      }
      this.rawTitleOf[i] = raw;
      this.contractOf[i] = this.code(this.contractCodes, contractKey(contract ?? ''));
      keyOf[i] = this.code(this.educationCodes, education ?? '') * EDUCATION_STRIDE + (years === null ? 0 : recordYearsKey(years));
      const normal = normaliseTitle(title);
      let t = this.titleId.get(normal);
      if (t === undefined) {
        t = this.titleWords.length;
        this.titleId.set(normal, t);
        const words = normal === '' ? [] : normal.split(' ');
        const ids = Int32Array.from(words, (word) => {
          let id = this.wordId.get(word);
          if (id === undefined) {
            this.wordId.set(word, (id = postingLists.length));
            postingLists.push([]);
          }
          return id;
        });
        this.titleWords.push(ids);
        // A word twice in one title is one posting.
        for (const id of new Set(ids)) postingLists[id].push(t);
      }
      titleOf[i] = t;
    }
    for (const list of postingLists) this.postings.push(Int32Array.from(list));

    // Counting sort by title, then each title's records by key: the bands are slices.
    const titles = this.titleWords.length;
    this.start = new Int32Array(titles + 1);
    for (let i = 0; i < n; i++) this.start[titleOf[i] + 1]++;
    for (let t = 0; t < titles; t++) this.start[t + 1] += this.start[t];
    const fill = this.start.slice(0, titles);
    this.order = new Int32Array(n);
    for (let i = 0; i < n; i++) this.order[fill[titleOf[i]]++] = i;
    this.keys = new Float64Array(n);
    for (let t = 0; t < titles; t++) {
      const slice = this.order.subarray(this.start[t], this.start[t + 1]);
      slice.sort((a, b) => keyOf[a] - keyOf[b]);
      for (let k = this.start[t]; k < this.start[t + 1]; k++) this.keys[k] = keyOf[this.order[k]];
    }
  }

  private code(codes: Map<string, number>, value: string): number {
    let code = codes.get(value);
    if (code === undefined) codes.set(value, (code = codes.size));
    return code;
  }

  /** Appends the records of `keys`/`records` (ordered by key) within [low, high) but the contract's to the scratch. */
  private collect(keys: Float64Array, records: Int32Array, low: number, high: number, contract: number): number {
    const from = lowerKey(keys, 0, keys.length, low);
    const to = lowerKey(keys, from, keys.length, high);
    if (to - from > this.scratch.length) this.scratch = new Int32Array(Math.max(this.scratch.length * 2, to - from));
    let count = 0;
    for (let k = from; k < to; k++) {
      const record = records[k];
      if (this.contractOf[record] !== contract) this.scratch[count++] = record;
    }
    return count;
  }

  /**
   * Every record of the titles whose words hold `phrase` (word ids) as a contiguous run, ordered by key: built once
   * per phrase, so a band is one slice of it for every later row asking the phrase.
   */
  private phraseRecords(phrase: Int32Array, text: string): PhraseRecords {
    const cached = this.phrases.get(text);
    if (cached) return cached;
    // Candidates from the word with the fewest titles; each is then checked for the run.
    let rarest = this.postings[phrase[0]];
    for (const id of phrase) if (this.postings[id].length < rarest.length) rarest = this.postings[id];
    let size = 0;
    const titles: number[] = [];
    for (const t of rarest) {
      if (!containsRun(this.titleWords[t], phrase)) continue;
      titles.push(t);
      size += this.start[t + 1] - this.start[t];
    }
    // Each record packed with its key above it (keys and record numbers are whole): a native sort orders them by key.
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
    const found = { keys, records };
    if (this.cachedRecords + size > MAX_CACHED_RECORDS) {
      this.phrases.clear();
      this.cachedRecords = 0;
    }
    this.phrases.set(text, found);
    this.cachedRecords += size;
    return found;
  }

  comparables(title: string, band: Band): Found {
    const normal = normaliseTitle(title);
    const education = this.educationCodes.get(band.education);
    // A contract no rate carries leaves nothing out.
    const contract = this.contractCodes.get(contractKey(band.contract)) ?? -1;
    if (education === undefined || normal === '') return { phrase: '', exact: false, records: new Int32Array(0) };
    const base = education * EDUCATION_STRIDE;
    // Keys of a band: [low, high). The records' experience is whole years; the band's edges are included.
    const [low, high] = band.years === null ? [base, base + EDUCATION_STRIDE] : [base + yearsKey(band.years[0]), base + yearsKey(band.years[1]) + 1e-9];

    const exact = this.titleId.get(normal);
    if (exact !== undefined) {
      const [from, to] = [this.start[exact], this.start[exact + 1]];
      const count = this.collect(this.keys.subarray(from, to), this.order.subarray(from, to), low, high, contract);
      if (count >= MIN_COMPARABLES) return { phrase: normal, exact: true, records: this.scratch.subarray(0, count) };
    }

    const words = normal.split(' ');
    const ids = words.map((word) => this.wordId.get(word) ?? -1);
    // Longest phrases first; of one length, the phrase finding the most (the leftmost on a tie), collected again
    // once chosen so that the scratch holds only its records.
    for (let length = words.length; length >= 1; length--) {
      let best: { phrase: Int32Array; text: string; count: number } | null = null;
      for (let at = 0; at + length <= words.length; at++) {
        const phrase = Int32Array.from(ids.slice(at, at + length));
        if (phrase.includes(-1)) continue;
        const text = words.slice(at, at + length).join(' ');
        const { keys, records } = this.phraseRecords(phrase, text);
        const count = this.collect(keys, records, low, high, contract);
        if (count >= MIN_COMPARABLES && (!best || count > best.count)) best = { phrase, text, count };
      }
      if (best) {
        const { keys, records } = this.phraseRecords(best.phrase, best.text);
        const count = this.collect(keys, records, low, high, contract);
        return { phrase: best.text, exact: false, records: this.scratch.subarray(0, count) };
      }
    }
    return { phrase: '', exact: false, records: this.scratch.subarray(0, 0) };
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
export const COMPARISON_SELECT = `SELECT labor_category, education_level, min_years_experience, current_price, idv_piid FROM ${CEILINGRATES_TABLE} WHERE current_price IS NOT NULL`;

/** An index over rows of COMPARISON_SELECT's columns (tests give them directly). */
export const comparisonIndexOf = (rows: readonly (readonly unknown[])[]): ComparisonIndex => new Index(rows);

const built = new WeakMap<Database, ComparisonIndex>();

/** The index of a database's rates, built on first use and kept as long as the database is. */
export function comparisonIndex(db: Database): ComparisonIndex {
  let index = built.get(db);
  if (!index) {
    const result = db.exec(COMPARISON_SELECT)[0];
    built.set(db, (index = new Index(result?.values ?? [])));
  }
  return index;
}
