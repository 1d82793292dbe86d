/**
 * A rate's `codes`, written by the load into `ceilingrate_rows` and held by the labor category's index: its
 * combination of the five small fields, price rank (−1 for no price), labor category and place in the store as
 * 4-byte big-endian integers, then its id as an 8-byte one. A search returns the codes of its matches (or of
 * the rates a wide search leaves out) concatenated, one pass of one aggregate over a stored column (building
 * the bytes per row in the statement, `int4send(…) || …`, cost more than finding the rows). Node reads
 * everything else off them: the counts, the places the price sums are added over, and a page in price or id
 * order.
 */

/** Bytes per rate. */
export const ROW_CODES = 24;
const PRICE_AT = 4;
const LABOR_AT = 8;
const PLACE_AT = 12;
const ID_AT = 16;

/** A rate's codes as COPY's text format writes a bytea (hex). */
export function rowCodes(combo: number, priceRank: number | null, labor: number, place: number, id: number): string {
  const bytes = Buffer.alloc(ROW_CODES);
  bytes.writeInt32BE(combo, 0);
  bytes.writeInt32BE(priceRank ?? -1, PRICE_AT);
  bytes.writeInt32BE(labor, LABOR_AT);
  bytes.writeInt32BE(place, PLACE_AT);
  bytes.writeBigInt64BE(BigInt(id), ID_AT);
  return `\\x${bytes.toString('hex')}`;
}

/**
 * Every rate's codes from its columns (rowCodes' bytes): a database of schema 5 or before had the columns only,
 * and a load of the websites alone migrates it without writing its rates again.
 */
export const FILL_ROW_CODES = `UPDATE ceilingrate_rows SET codes =
  int4send(c_combo) || int4send(coalesce(o_current_price, -1)) || int4send(c_labor_category) || int4send(pos) || int8send(id)`;

/** The codes of every row of `relation` (holding `codes`), concatenated; null for no row. */
export const rowsOf = (relation: string): string => `SELECT string_agg(codes, ''::bytea) FROM ${relation}`;

/** What rows contribute to the counts of one set, per code, added (sign 1) or taken away (sign −1) into `into`. */
export type Counted = (into: Float64Array, set: number, sign: number) => void;

/** Rates' codes as Postgres sent them, read once into columns (the id stays in the bytes: a page reads a few). */
export interface RowCodes {
  n: number;
  combo: Int32Array;
  price: Int32Array;
  labor: Int32Array;
  place: Int32Array;
  /** Each rate's offset in the bytes. */
  at: Int32Array;
  bytes: Uint8Array;
}

/**
 * The codes Postgres sent (null for no rate) of a store of `records`, as columns, each rate once: a keyword's
 * parts (ceilingrates-query.ts matchBranches) send a rate matching in two fields twice.
 */
export function rowCodesOf(bytes: Uint8Array | null, records: number): RowCodes {
  const data = bytes ?? new Uint8Array(0);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const sent = data.byteLength / ROW_CODES;
  const rows: RowCodes = {
    n: 0,
    combo: new Int32Array(sent),
    price: new Int32Array(sent),
    labor: new Int32Array(sent),
    place: new Int32Array(sent),
    at: new Int32Array(sent),
    bytes: data,
  };
  if (sent === 0) return rows;
  const seen = new Uint32Array((records + 31) >>> 5);
  let n = 0;
  for (let at = 0; at < data.byteLength; at += ROW_CODES) {
    const place = view.getInt32(at + PLACE_AT);
    const bit = 1 << (place & 31);
    if (seen[place >>> 5] & bit) continue;
    seen[place >>> 5] |= bit;
    rows.combo[n] = view.getInt32(at);
    rows.price[n] = view.getInt32(at + PRICE_AT);
    rows.labor[n] = view.getInt32(at + LABOR_AT);
    rows.place[n] = place;
    rows.at[n++] = at;
  }
  rows.n = n;
  return rows;
}

/** The rates' counts of a set (ceilingrates-groups.ts COMBO_SET, PRICE_SET, LABOR_SET), per code; no price is no code. */
export const fromRows =
  (rows: RowCodes): Counted =>
  (into, set, sign) => {
    const codes = [rows.combo, rows.price, rows.labor][set - 1];
    for (let i = 0; i < rows.n; i++) {
      const code = codes[i];
      if (code >= 0) into[code] += sign;
    }
  };

/**
 * The places in the store of the priced rates, ascending (the engine's id order), of a store of `records`: as
 * bits of a bitmap read in order, not a sort.
 */
export function placesOf(rows: RowCodes, records: number): Int32Array {
  const bits = new Uint32Array((records + 31) >>> 5);
  let n = 0;
  for (let i = 0; i < rows.n; i++) {
    if (rows.price[i] < 0) continue;
    const place = rows.place[i];
    bits[place >>> 5] |= 1 << (place & 31);
    n++;
  }
  const places = new Int32Array(n);
  for (let word = 0, k = 0; word < bits.length; word++) {
    for (let w = bits[word]; w !== 0; w &= w - 1) places[k++] = (word << 5) + 31 - Math.clz32(w & -w);
  }
  return places;
}

/** A page's order that the codes hold: by price (nulls last either way), then id; or by id alone (null). */
export type CodesOrder = { desc: boolean } | null;

/**
 * The ids of a page of the rates, in `order`: rows `offset` to `offset + size`. `ranks` is the number of price
 * ranks and `records` the store's size (a place is below it). In price order the rates are first counted per
 * rank, so only those up to the page's last rank are sorted; each by one exact integer key, its rank's then
 * its place's (below 2^53 up to 94 million rates). Store order is id order, so a place stands for the id.
 */
export function pageOf(rows: RowCodes, order: CodesOrder, offset: number, size: number, ranks: number, records: number): number[] {
  const { n, price, place } = rows;
  if (size === 0 || offset >= n) return [];
  const end = Math.min(n, offset + size);
  // Each rate's rank in the order (no price last, either way).
  const rankOf = (i: number): number => (price[i] < 0 ? ranks : order!.desc ? ranks - 1 - price[i] : price[i]);
  // The rates that can be on the page (in price order, those up to the page's last rank), by row.
  let candidates: Int32Array;
  if (order === null) candidates = Int32Array.from({ length: n }, (_, i) => i);
  else {
    const perRank = new Int32Array(ranks + 1);
    for (let i = 0; i < n; i++) perRank[rankOf(i)]++;
    let last = 0;
    for (let seen = perRank[0]; seen < end;) seen += perRank[++last];
    let count = 0;
    for (let rank = 0; rank <= last; rank++) count += perRank[rank];
    candidates = new Int32Array(count);
    for (let i = 0, k = 0; i < n; i++) if (rankOf(i) <= last) candidates[k++] = i;
  }
  const keys = new Float64Array(candidates.length);
  const rowAt = new Map<number, number>();
  candidates.forEach((i, k) => {
    keys[k] = (order === null ? 0 : rankOf(i) * records) + place[i];
    rowAt.set(place[i], i);
  });
  const view = new DataView(rows.bytes.buffer, rows.bytes.byteOffset, rows.bytes.byteLength);
  const ids: number[] = [];
  for (const key of smallest(keys, end).subarray(offset)) ids.push(Number(view.getBigInt64(rows.at[rowAt.get(key % records)!] + ID_AT)));
  return ids;
}

/**
 * The `k` smallest keys, ascending. A page is a few of tens of thousands of matches: the keys are partitioned
 * around the k-th (quickselect, in place) and only those below it sorted.
 */
export function smallest(keys: Float64Array, k: number): Float64Array {
  if (k >= keys.length) return keys.sort();
  let lo = 0;
  let hi = keys.length - 1;
  while (hi > lo) {
    // Median of three as the pivot: sorted runs (codes in index order) stay linear.
    const mid = (lo + hi) >>> 1;
    const pivot = median(keys[lo], keys[mid], keys[hi]);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (keys[i] < pivot) i++;
      while (keys[j] > pivot) j--;
      if (i <= j) {
        const t = keys[i];
        keys[i++] = keys[j];
        keys[j--] = t;
      }
    }
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else break;
  }
  return keys.subarray(0, k).sort();
}

const median = (a: number, b: number, c: number): number => Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
