/**
 * Numeric columns: each record's rank among the distinct values, and the term-key dictionaries built from those
 * ranks (sorting only the distinct keys).
 */
import { lowerBound } from '../bounds.ts';
import { codesByFirstAppearance, narrow, type Dictionary } from './dictionary.ts';
import { compareBytes } from '../text.ts';

/** A numeric column's distinct values ascending and each record's position among them (null: after them all). */
export interface NumberRanks {
  distinct: Float64Array;
  /** `distinct.length` for null. */
  rank: Uint32Array;
}

/**
 * Ranks without a Map or a comparator: an open-addressing hash over the numbers' bits finds the distinct
 * values in one pass, a native sort orders just those, and each record's rank is its value's position. Equal
 * numbers share a rank, -0 and 0 included (as `===` sees them); -0 stands for both when any record holds it,
 * as it would come first in a sort of every record's value.
 */
export function rankNumbers(values: Float64Array): NumberRanks {
  const size = values.length;
  let capacity = 16;
  while (capacity < size * 2) capacity *= 2;
  const mask = capacity - 1;
  const slotValue = new Float64Array(capacity);
  const slotCode = new Int32Array(capacity).fill(-1);
  const codeOf = new Int32Array(size);
  const firstValues = new Float64Array(size);
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  let distinct = 0;
  let negativeZero = false;
  for (let r = 0; r < size; r++) {
    const v = values[r];
    if (v !== v) {
      codeOf[r] = -1;
      continue;
    }
    if (v === 0 && 1 / v < 0) negativeZero = true;
    bits[0] = v === 0 ? 0 : v;
    let slot = (Math.imul(words[0] ^ Math.imul(words[1], 0x9e3779b1), 0x85ebca6b) >>> 0) & mask;
    let code = slotCode[slot];
    while (code >= 0 && slotValue[slot] !== v) {
      slot = (slot + 1) & mask;
      code = slotCode[slot];
    }
    if (code < 0) {
      code = distinct++;
      slotCode[slot] = code;
      slotValue[slot] = v;
      firstValues[code] = v === 0 ? 0 : v;
    }
    codeOf[r] = code;
  }
  const sorted = firstValues.slice(0, distinct).sort();
  // Position of each code's value in the sorted values (they are distinct, so a binary search finds it).
  const rankOfCode = new Uint32Array(distinct);
  for (let c = 0; c < distinct; c++) rankOfCode[c] = lowerBound(sorted, distinct, firstValues[c]);
  if (negativeZero) sorted[lowerBound(sorted, distinct, 0)] = -0;
  const rank = new Uint32Array(size);
  for (let r = 0; r < size; r++) {
    const c = codeOf[r];
    rank[r] = c < 0 ? distinct : rankOfCode[c];
  }
  return { distinct: sorted, rank };
}

/**
 * A column of numbers keyed as strings for term aggregations (NaN, i.e. null, is no bucket), exactly as a
 * DictionaryBuilder fed every record's key and built in byte order would build it: production's term keys are
 * keyword strings, so `"10"` comes before `"3"`. The key is a function of the number that never decreases with
 * it (toFixed, String), so it is computed once per distinct number, walking them ascending: equal keys are
 * neighbours. Only the distinct keys (tens of thousands at most) are then sorted as strings, once, at bind.
 */
export function keyDictionary(ranks: NumberRanks, key: (v: number) => string): Dictionary {
  const { distinct, rank } = ranks;
  const n = distinct.length;
  // Group of each rank (slot n is null's, the last group): one group per distinct key.
  const groupOfRank = new Uint32Array(n + 1);
  const groupKeys: (string | null)[] = [];
  let previous: string | null = null;
  for (let k = 0; k < n; k++) {
    const text = key(distinct[k]);
    if (k === 0 || text !== previous) groupKeys.push(text);
    groupOfRank[k] = groupKeys.length - 1;
    previous = text;
  }
  let hasNull = false;
  for (let r = 0; r < rank.length && !hasNull; r++) hasNull = rank[r] === n;
  if (hasNull) groupKeys.push(null);
  groupOfRank[n] = groupKeys.length - 1;

  // Codes by first appearance in the records; every group has a record, being made of the values records hold.
  const groups = groupKeys.length;
  const groupOfRecord = new Uint32Array(rank.length);
  for (let r = 0; r < rank.length; r++) groupOfRecord[r] = groupOfRank[rank[r]];
  const { codes, codeOf: codeOfGroup, positionOf } = codesByFirstAppearance(groupOfRecord, groups)!;
  const values = Array.from(positionOf, (g) => groupKeys[g]);
  // Keys are distinct, so the byte order has no ties; null (the last group) stays last.
  const byKey = Array.from({ length: hasNull ? groups - 1 : groups }, (_, g) => g).sort((a, b) => compareBytes(groupKeys[a]!, groupKeys[b]!));
  if (hasNull) byKey.push(groups - 1);
  const byRank = Uint32Array.from(byKey, (g) => codeOfGroup[g]);
  const keyRank = new Uint32Array(groups);
  byRank.forEach((code, position) => (keyRank[code] = position));
  return { values, codes: narrow(codes, groups), rank: keyRank, byRank };
}
