/**
 * A match plan (match-plan.ts) executed over the columns held in memory: each condition's allowed codes applied
 * to a mask over the rows in one tight pass over the codes, ranges through the values' order where that reads
 * fewer rows, and the match set listed from the mask (match-set.ts).
 */
import { rowOfId, type ColumnStore } from '../columns/store.ts';
import type { Codes } from '../columns/dictionary.ts';
import { SEARCH_FIELDS, type SearchField } from '../parse-query.ts';
import type { OrderColumn, OrderColumns } from '../columns/order-columns.ts';
import { COMBO_FIELDS, comboDictionary, type ComboField, type Combos } from '../columns/combos.ts';
import { lowerBound, upperBound } from '../bounds.ts';
import { roomFor } from '../kernels/kernels.ts';
import { matchSetOf, type MatchBuffers, type MatchSet } from './match-set.ts';
import { inRanges, type CodeCondition, type MatchPlan, type RangeCondition } from './match-plan.ts';

/** What matching reads: the columns, the fields' value orders, the combinations, and its buffers. */
export interface MatchSources {
  store: ColumnStore;
  orders: OrderColumns;
  combos: Combos;
  /** The request buffers in kernel memory; the match set is views into them, valid until their next use. */
  scratch: MatchScratch;
}

/** A search field's rows grouped by value, as markGroups reads them: code c's rows are perm[groupStart[rank[c]] ..]. */
interface FieldGroups {
  perm: Uint32Array;
  groupStart: Uint32Array;
  rank: Uint32Array;
}

/**
 * What matching holds in kernel memory, allocated once per index: the match buffers, one text condition's
 * allowed values (as many as the largest search field has) and each search field's groups of rows.
 */
export interface MatchScratch extends MatchBuffers {
  allowed: Uint8Array;
  groups: Record<SearchField, FieldGroups>;
}

function fieldGroups(store: ColumnStore, orders: OrderColumns, field: SearchField): FieldGroups {
  const { perm, groupStart } = orders.get(field);
  return { perm, groupStart, rank: store.text[field].rank };
}

const largestSearchField = (store: ColumnStore): number => Math.max(...SEARCH_FIELDS.map((field) => store.text[field].values.length));

/** The kernel memory MatchScratch takes beside its match buffers. */
export function matchScratchRoom(store: ColumnStore, orders: OrderColumns): number {
  const groups = SEARCH_FIELDS.map((field) => fieldGroups(store, orders, field));
  return roomFor([1, largestSearchField(store)], ...groups.flatMap(({ perm, groupStart, rank }) => [perm, groupStart, rank]));
}

export function matchScratch(buffers: MatchBuffers, store: ColumnStore, orders: OrderColumns): MatchScratch {
  const { kernels } = buffers;
  const held = <T>(make: (field: SearchField) => T) => Object.fromEntries(SEARCH_FIELDS.map((field) => [field, make(field)])) as Record<SearchField, T>;
  return {
    ...buffers,
    allowed: kernels.alloc(Uint8Array, largestSearchField(store)),
    groups: held((field) => {
      const { perm, groupStart, rank } = fieldGroups(store, orders, field);
      return { perm: kernels.hold(perm), groupStart: kernels.hold(groupStart), rank: kernels.hold(rank) };
    }),
  };
}

/**
 * A wide range leaves out a prefix and a suffix of the field's value order: clear just those rows
 * (nulls included, they sort last). Returns false when a scan is cheaper.
 */
function selectInRangeByOrder(mask: Uint8Array, column: OrderColumn, lo: number, hi: number): boolean {
  const values = column.rankValues;
  if (!values || !(lo <= hi)) return false;
  const first = lowerBound(values, column.nullRank, lo);
  const after = upperBound(values, column.nullRank, hi);
  const { perm, groupStart } = column;
  const start = groupStart[first];
  const end = groupStart[after];
  if (start + (perm.length - end) > perm.length / 4) return false;
  for (let i = 0; i < start; i++) mask[perm[i]] = 0;
  for (let i = end; i < perm.length; i++) mask[perm[i]] = 0;
  return true;
}

/** The mask four rows at a time where it can be (0/1 bytes), to skip runs of non-matching rows a word at a time. */
function maskWords(mask: Uint8Array): Uint32Array {
  return mask.byteOffset % 4 === 0 ? new Uint32Array(mask.buffer, mask.byteOffset, mask.length >>> 2) : new Uint32Array(0);
}

/**
 * Clears the rows whose value is not allowed. Words of four cleared rows are skipped; within a word the test is
 * branch-free (mask and allowed hold 0 or 1), as a mispredicted test per row cost more than reading `allowed`.
 */
function selectAllowed(mask: Uint8Array, codes: Codes, allowed: Uint8Array): void {
  const words = maskWords(mask);
  for (let w = 0; w < words.length; w++) {
    if (words[w] === 0) continue;
    const r = 4 * w;
    mask[r] &= allowed[codes[r]];
    mask[r + 1] &= allowed[codes[r + 1]];
    mask[r + 2] &= allowed[codes[r + 2]];
    mask[r + 3] &= allowed[codes[r + 3]];
  }
  for (let r = 4 * words.length; r < mask.length; r++) mask[r] &= allowed[codes[r]];
}

function selectInRanges(mask: Uint8Array, values: Float64Array, ranges: RangeCondition['ranges']): void {
  if (ranges.length === 1) {
    const [lo, hi] = ranges[0];
    const words = maskWords(mask);
    for (let w = 0; w < words.length; w++) {
      if (words[w] === 0) continue;
      for (let r = 4 * w; r < 4 * w + 4; r++) {
        const v = values[r];
        mask[r] &= v >= lo && v <= hi ? 1 : 0;
      }
    }
    for (let r = 4 * words.length; r < mask.length; r++) {
      const v = values[r];
      mask[r] &= v >= lo && v <= hi ? 1 : 0;
    }
    return;
  }
  for (let r = 0; r < mask.length; r++) {
    if (mask[r] === 0) continue;
    if (!inRanges(values[r], ranges)) mask[r] = 0;
  }
}

/**
 * Several ranges of a numeric field through its distinct values: each range marks a run of ranks (two
 * binary searches), then one pass selects the rows whose rank is marked. Linear in the ranges plus the rows,
 * where testing every range on every row was their product. False when the field has no value order.
 */
function selectInRangesByRank(mask: Uint8Array, column: OrderColumn, ranges: RangeCondition['ranges']): boolean {
  const values = column.rankValues;
  if (!values) return false;
  const m = column.nullRank;
  // Run starts +1, run ends -1: a prefix sum tells whether any range covers a rank.
  const cover = new Int32Array(m + 1);
  for (const [lo, hi] of ranges) {
    if (!(lo <= hi)) continue;
    const first = lowerBound(values, m, lo);
    const after = upperBound(values, m, hi);
    if (first >= after) continue;
    cover[first]++;
    cover[after]--;
  }
  // Null rows (rank m) never match: allowed[m] stays 0.
  const allowed = new Uint8Array(m + 1);
  for (let rank = 0, depth = 0; rank < m; rank++) {
    depth += cover[rank];
    allowed[rank] = depth > 0 ? 1 : 0;
  }
  selectAllowed(mask, column.recordRank, allowed);
  return true;
}

/** The price ranges: a wide one through the price order, several through the distinct prices, else a pass. */
function selectPrices(mask: Uint8Array, { store, orders }: MatchSources, ranges: RangeCondition['ranges']): void {
  const column = orders.get('current_price');
  if (ranges.length === 1 && selectInRangeByOrder(mask, column, ranges[0][0], ranges[0][1])) return;
  if (ranges.length > 1 && selectInRangesByRank(mask, column, ranges)) return;
  selectInRanges(mask, store.numbers.current_price, ranges);
}

/** Which values of one combo field a condition allows (the five small fields; see columns/combos.ts). */
interface FieldTable {
  field: number;
  allowed: Uint8Array;
}

const COMBO: ReadonlySet<string> = new Set(COMBO_FIELDS);
const isComboField = (field: string): field is ComboField => COMBO.has(field);

/** Experience ranges as the combination field's allowed term keys (each key is its number's shortest form). */
function experienceTable(store: ColumnStore, ranges: RangeCondition['ranges']): FieldTable {
  const { values } = comboDictionary(store, 'min_years_experience');
  const allowed = new Uint8Array(values.length);
  for (let code = 0; code < values.length; code++) allowed[code] = inRanges(values[code] === null ? NaN : Number(values[code]), ranges) ? 1 : 0;
  return { field: COMBO_FIELDS.indexOf('min_years_experience'), allowed };
}

/**
 * Conditions on the five combo fields: ANDed per field, decided per combination, applied in one pass over the
 * records' combinations.
 */
function applyComboTables(mask: Uint8Array, combos: Combos, tables: FieldTable[]): void {
  if (tables.length === 0) return;
  const ok = new Uint8Array(combos.count).fill(1);
  const { fieldCodes } = combos;
  for (let c = 0; c < combos.count; c++) {
    for (const { field, allowed } of tables) {
      if (allowed[fieldCodes[5 * c + field]] === 0) {
        ok[c] = 0;
        break;
      }
    }
  }
  selectAllowed(mask, combos.codes, ok);
}

/** A condition on one search field (search, suggest-contains' text) or all three (keyword): any field's value passes. */
function applyCondition(mask: Uint8Array, store: ColumnStore, condition: CodeCondition): void {
  if (condition.length === 1) return selectAllowed(mask, store.text[condition[0].field].codes, condition[0].allowed);
  const [a, b, c] = condition.map((part) => part.allowed);
  const [ca, cb, cc] = condition.map((part) => store.text[part.field].codes);
  const words = maskWords(mask);
  for (let w = 0; w < words.length; w++) {
    if (words[w] === 0) continue;
    for (let r = 4 * w; r < 4 * w + 4; r++) mask[r] &= a[ca[r]] | b[cb[r]] | c[cc[r]];
  }
  for (let r = 4 * words.length; r < mask.length; r++) mask[r] &= a[ca[r]] | b[cb[r]] | c[cc[r]];
}

const onSearchFields = (condition: CodeCondition): boolean => condition.every(({ field }) => (SEARCH_FIELDS as readonly string[]).includes(field));

/** How many records a condition's values carry, from the fields' groups of rows by value. */
function postingsSize({ kernels, allowed: room, groups }: MatchScratch, condition: CodeCondition): number {
  let total = 0;
  for (const { field, allowed } of condition) {
    const { groupStart, rank } = groups[field as SearchField];
    room.set(allowed);
    total += kernels.run.groupsSize(kernels.at(groupStart), kernels.at(rank), kernels.at(room), allowed.length);
  }
  return total;
}

/** Start from nothing and set the rows a condition's values carry (a record with two passing fields is set twice). */
function markPostings({ kernels, mask, allowed: room, groups }: MatchScratch, condition: CodeCondition): void {
  mask.fill(0);
  for (const { field, allowed } of condition) {
    const { perm, groupStart, rank } = groups[field as SearchField];
    room.set(allowed);
    kernels.run.markGroups(kernels.at(mask), kernels.at(perm), kernels.at(groupStart), kernels.at(rank), kernels.at(room), allowed.length);
  }
}

/** The records a plan selects: every condition, minus the excluded ids. */
export function matchRecords(sources: MatchSources, plan: MatchPlan): MatchSet {
  const { store, orders, combos, scratch } = sources;
  const mask = scratch.mask.fill(1);
  const searched = plan.codes.filter(onSearchFields);
  // A selective search-field condition sets its few rows through the fields' groups of rows by value instead of
  // testing every record; the other conditions then only clear.
  if (searched.length > 0) {
    const sizes = searched.map((c) => postingsSize(scratch, c));
    const smallest = sizes.indexOf(Math.min(...sizes));
    if (sizes[smallest] * 4 < store.size) {
      markPostings(scratch, searched[smallest]);
      searched.splice(smallest, 1);
    }
  }
  // Each pass skips the words of rows the passes before it cleared: the usually narrow list fields (SIN,
  // category, subcategory) go first, then the combo fields in one pass, then the usually wide price ranges.
  const tables: FieldTable[] = [];
  for (const condition of plan.codes) {
    if (onSearchFields(condition)) continue;
    const [{ field, allowed }] = condition;
    if (isComboField(field)) tables.push({ field: COMBO_FIELDS.indexOf(field), allowed });
    else selectAllowed(mask, store.text[field].codes, allowed);
  }
  for (const { field, ranges } of plan.ranges) {
    // A wide experience range is cheapest through the value order; otherwise it joins the combo fields.
    if (field !== 'min_years_experience') continue;
    if (ranges.length === 1 && selectInRangeByOrder(mask, orders.get(field), ranges[0][0], ranges[0][1])) continue;
    tables.push(experienceTable(store, ranges));
  }
  applyComboTables(mask, combos, tables);
  for (const { field, ranges } of plan.ranges) if (field === 'current_price') selectPrices(mask, sources, ranges);
  for (const condition of searched) applyCondition(mask, store, condition);
  for (const id of plan.exclude) {
    const row = rowOfId(store, id);
    if (row >= 0) mask[row] = 0;
  }
  return matchSetOf(scratch);
}
