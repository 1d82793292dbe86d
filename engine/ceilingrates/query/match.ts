/**
 * The matching set of a query as a mask over rows. Each condition is decided once per DISTINCT value of
 * its field (a few thousand strings, not 250,000 rows), then applied in one tight pass over the codes.
 */
import { rowOfId, type ColumnStore } from '../columns/store.ts';
import type { Codes, Dictionary } from '../columns/dictionary.ts';
import { SEARCH_FIELDS, type CeilingRatesQuery, type FieldText, type Filter, type SearchField } from '../parse-query.ts';
import { ceilingRatesParameter } from '../parameters.ts';
import type { OrderColumn, OrderColumns } from '../columns/order-columns.ts';
import { COMBO_FIELDS, comboDictionary, type ComboField, type Combos } from '../columns/combos.ts';
import { lowerBound, upperBound } from '../bounds.ts';
import { clearanceClass, containsWords, fold } from '../text.ts';
import type { FoldedText, ValueForms } from './value-forms.ts';
import { roomFor, type KernelMemory } from '../kernels/kernels.ts';

/** What matching reads. `orders` and `combos`, when built, make wide ranges, selective text and the small fields' filters cheaper. */
export interface MatchSources {
  store: ColumnStore;
  forms: ValueForms;
  orders?: OrderColumns;
  combos?: Combos;
}

export interface MatchOptions extends MatchSources {
  query: CeilingRatesQuery;
  /** suggest-contains' text, matched like keyword but in its one field. */
  contains?: FieldText | null;
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
 * What matching keeps in kernel memory, allocated once per index: the mask and the listed rows (the records'
 * length each), one text condition's allowed values (as many as the largest search field has), each search
 * field's groups of rows and folded text, and room for a folded needle and its search table.
 */
export interface MatchScratch {
  kernels: KernelMemory;
  mask: Uint8Array;
  rows: Uint32Array;
  allowed: Uint8Array;
  groups: Record<SearchField, FieldGroups>;
  texts: Record<SearchField, FoldedText>;
  needle: Uint8Array;
  fail: Uint32Array;
}

function fieldGroups(store: ColumnStore, orders: OrderColumns, field: SearchField): FieldGroups {
  const { perm, groupStart } = orders.get(field);
  return { perm, groupStart, rank: store.text[field].rank };
}

const largestSearchField = (store: ColumnStore): number => Math.max(...SEARCH_FIELDS.map((field) => store.text[field].values.length));

/**
 * The most UTF-8 bytes a folded keyword or suggest-contains text takes: lower-casing at most doubles a text's
 * UTF-16 length (U+0130 becomes two units) and a unit takes at most three bytes.
 */
const NEEDLE_BYTES = 6 * Math.max(ceilingRatesParameter('keyword').maxLength ?? 0, ceilingRatesParameter('suggest-contains').maxLength ?? 0);

/** The kernel memory MatchScratch takes. */
export function matchScratchRoom(store: ColumnStore, orders: OrderColumns, texts: Record<SearchField, FoldedText>): number {
  const groups = SEARCH_FIELDS.map((field) => fieldGroups(store, orders, field));
  return roomFor(
    [1, store.size],
    [4, store.size],
    [1, largestSearchField(store)],
    ...groups.flatMap(({ perm, groupStart, rank }) => [perm, groupStart, rank]),
    ...SEARCH_FIELDS.flatMap((field) => [texts[field].bytes, texts[field].starts]),
    [1, NEEDLE_BYTES],
    [4, NEEDLE_BYTES],
  );
}

export function matchScratch(kernels: KernelMemory, store: ColumnStore, orders: OrderColumns, texts: Record<SearchField, FoldedText>): MatchScratch {
  const held = <T>(make: (field: SearchField) => T) => Object.fromEntries(SEARCH_FIELDS.map((field) => [field, make(field)])) as Record<SearchField, T>;
  return {
    kernels,
    mask: kernels.alloc(Uint8Array, store.size),
    rows: kernels.alloc(Uint32Array, store.size),
    allowed: kernels.alloc(Uint8Array, largestSearchField(store)),
    groups: held((field) => {
      const { perm, groupStart, rank } = fieldGroups(store, orders, field);
      return { perm: kernels.hold(perm), groupStart: kernels.hold(groupStart), rank: kernels.hold(rank) };
    }),
    texts: held((field) => ({ bytes: kernels.hold(texts[field].bytes), starts: kernels.hold(texts[field].starts) })),
    needle: kernels.alloc(Uint8Array, NEEDLE_BYTES),
    fail: kernels.alloc(Uint32Array, NEEDLE_BYTES),
  };
}

export interface MatchSet {
  mask: Uint8Array;
  count: number;
  /** Matching rows ascending (id order), listed when they are at most half the records. */
  rows: Uint32Array | null;
  /** Otherwise the other rows: wide queries aggregate by subtracting these from the totals. */
  rest: Uint32Array | null;
}

/** The matching rows in id order, listed from the mask if the match set did not list them. */
export function matchedRows(match: MatchSet): Uint32Array {
  if (match.rows) return match.rows;
  const rows = new Uint32Array(match.count);
  for (let r = 0, i = 0; r < match.mask.length; r++) if (match.mask[r] !== 0) rows[i++] = r;
  return rows;
}

/**
 * A wide range leaves out a prefix and a suffix of the field's value order: clear just those rows
 * (nulls included, they sort last). Returns false when a scan is cheaper.
 */
function keepInRangeByOrder(mask: Uint8Array, column: OrderColumn, lo: number, hi: number): boolean {
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

/** Which distinct values of a dictionary pass a test. */
function allowedValues(dict: Dictionary, test: (value: string | null, code: number) => boolean): Uint8Array {
  const allowed = new Uint8Array(dict.values.length);
  for (let code = 0; code < dict.values.length; code++) allowed[code] = test(dict.values[code], code) ? 1 : 0;
  return allowed;
}

/** The mask four rows at a time where it can be (0/1 bytes), to skip runs of non-matching rows a word at a time. */
function maskWords(mask: Uint8Array): Uint32Array {
  return mask.byteOffset % 4 === 0 ? new Uint32Array(mask.buffer, mask.byteOffset, mask.length >>> 2) : new Uint32Array(0);
}

/**
 * Clears the rows whose value is not allowed. Words of four cleared rows are skipped; within a word the test is
 * branch-free (mask and allowed hold 0 or 1), as a mispredicted test per row cost more than reading `allowed`.
 */
function keepAllowed(mask: Uint8Array, codes: Codes, allowed: Uint8Array): void {
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

function keepInRanges(mask: Uint8Array, values: Float64Array, ranges: readonly (readonly [number, number])[]): void {
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
    const v = values[r];
    if (!ranges.some(([lo, hi]) => v >= lo && v <= hi)) mask[r] = 0;
  }
}

/**
 * Several ranges of a numeric field through its distinct values: each range marks a run of ranks (two
 * binary searches), then one pass keeps the rows whose rank is marked. Linear in the ranges plus the rows,
 * where testing every range on every row was their product. False when the field has no value order.
 */
function keepInRangesByRank(mask: Uint8Array, column: OrderColumn, ranges: readonly (readonly [number, number])[]): boolean {
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
  keepAllowed(mask, column.recordRank, allowed);
  return true;
}

/** Which values of one combo field a filter accepts (the five small fields; see columns/combos.ts). */
interface FieldTable {
  field: number;
  allowed: Uint8Array;
}

function comboFieldTable(store: ColumnStore, filter: Filter): FieldTable | null {
  const table = (field: ComboField, test: (value: string | null) => boolean): FieldTable => ({
    field: COMBO_FIELDS.indexOf(field),
    allowed: allowedValues(comboDictionary(store, field), (v) => test(v)),
  });
  switch (filter.name) {
    case 'education_level':
    case 'business_size': {
      const wanted = new Set(filter.values);
      return table(filter.name, (v) => v !== null && wanted.has(v));
    }
    case 'site':
      return table('worksite', (v) => v !== null && filter.phrases.some((p) => containsWords(v, p)));
    case 'security_clearance':
      return table('security_clearance', (v) => {
        const cls = clearanceClass(v);
        return cls !== null && filter.classes.includes(cls);
      });
    case 'min_years_experience': {
      const wanted = new Set(filter.values);
      return table('min_years_experience', (v) => v !== null && wanted.has(Number(v)));
    }
    case 'experience_range':
      return table('min_years_experience', (v) => {
        const n = v === null ? NaN : Number(v);
        return filter.ranges.some(([lo, hi]) => n >= lo && n <= hi);
      });
    default:
      return null;
  }
}

/** Whether a value's parts (a few SIN codes or list elements) include a wanted one: per part, not per alternative. */
function intersects(parts: ReadonlySet<string>, wanted: ReadonlySet<string>): boolean {
  for (const part of parts) if (wanted.has(part)) return true;
  return false;
}

/** The filters that are not on a combo field: price, SIN and the category lists. */
function applyFilter(mask: Uint8Array, { store, forms, orders }: MatchSources, filter: Filter): void {
  const { text, numbers } = store;
  if (filter.name === 'price_range' && orders && filter.ranges.length === 1) {
    if (keepInRangeByOrder(mask, orders.get('current_price'), filter.ranges[0][0], filter.ranges[0][1])) return;
  }
  switch (filter.name) {
    case 'price_range':
    case 'current_price': {
      const ranges = filter.name === 'price_range' ? filter.ranges : filter.values.map((v) => [v, v] as const);
      if (ranges.length > 1 && orders && keepInRangesByRank(mask, orders.get('current_price'), ranges)) return;
      return keepInRanges(mask, numbers.current_price, ranges);
    }
    case 'sin': {
      const sets = forms.sinSets.get();
      const wanted = new Set(filter.codes);
      keepAllowed(
        mask,
        text.sin.codes,
        allowedValues(text.sin, (_, code) => intersects(sets[code], wanted)),
      );
      return;
    }
    case 'category':
    case 'subcategory': {
      const sets = forms.listSets.get(filter.name);
      const dict = text[filter.name];
      const wanted = new Set(filter.values);
      keepAllowed(
        mask,
        dict.codes,
        allowedValues(dict, (_, code) => intersects(sets[code], wanted)),
      );
      return;
    }
    default:
      throw new Error(`filter ${filter.name} belongs to a combo field`);
  }
}

/**
 * Filters on the five combo fields: ANDed per field, decided per combination, applied in one pass (or,
 * without combos, one pass per field).
 */
function applyComboFilters(mask: Uint8Array, { store, combos }: MatchSources, tables: FieldTable[]): void {
  if (tables.length === 0) return;
  if (!combos) {
    for (const { field, allowed } of tables) keepAllowed(mask, comboDictionary(store, COMBO_FIELDS[field]).codes, allowed);
    return;
  }
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
  keepAllowed(mask, combos.codes, ok);
}

const UTF8 = new TextEncoder();

/** Records whose field contains the (trimmed, case-folded) text: keyword and suggest-contains. */
export function containsTable(scratch: MatchScratch, forms: ValueForms, field: SearchField, text: string): Uint8Array {
  const needle = fold(text.trim());
  if (needle.includes('\u0000')) {
    // A NUL in the needle could span two values of the joined text: each value is tested on its own.
    const folded = forms.folded.get(field);
    const allowed = new Uint8Array(folded.length);
    for (let code = 0; code < folded.length; code++) allowed[code] = folded[code].includes(needle) ? 1 : 0;
    return allowed;
  }
  const { kernels, needle: room, fail, texts } = scratch;
  const { read, written } = UTF8.encodeInto(needle, room);
  if (read < needle.length) throw new RangeError(`a folded text of ${needle.length} units is beyond the needle's room`);
  const { bytes, starts } = texts[field];
  const n = starts.length - 1;
  const allowed = scratch.allowed.subarray(0, n).fill(0);
  kernels.run.markContaining(kernels.at(bytes), bytes.length, kernels.at(starts), n, kernels.at(room), written, kernels.at(fail), kernels.at(allowed));
  return allowed.slice();
}

/** A text condition: which values of which fields pass (a record passes when any of its fields' values does). */
type TextCondition = { field: SearchField; allowed: Uint8Array }[];

/** The whole stored value equals the text exactly: case-sensitive, untrimmed (production's term query on a keyword). */
function searchCondition(store: ColumnStore, search: FieldText): TextCondition {
  const dict = store.text[search.field];
  return [{ field: search.field, allowed: allowedValues(dict, (v) => v === search.text) }];
}

function keywordCondition(scratch: MatchScratch, forms: ValueForms, keyword: string): TextCondition {
  return SEARCH_FIELDS.map((field) => ({ field, allowed: containsTable(scratch, forms, field, keyword) }));
}

function applyCondition(mask: Uint8Array, store: ColumnStore, condition: TextCondition): void {
  if (condition.length === 1) return keepAllowed(mask, store.text[condition[0].field].codes, condition[0].allowed);
  const [a, b, c] = condition.map((part) => part.allowed);
  const [ca, cb, cc] = condition.map((part) => store.text[part.field].codes);
  const words = maskWords(mask);
  for (let w = 0; w < words.length; w++) {
    if (words[w] === 0) continue;
    for (let r = 4 * w; r < 4 * w + 4; r++) mask[r] &= a[ca[r]] | b[cb[r]] | c[cc[r]];
  }
  for (let r = 4 * words.length; r < mask.length; r++) mask[r] &= a[ca[r]] | b[cb[r]] | c[cc[r]];
}

/** How many records a condition's values carry, from the fields' groups of rows by value. */
function postingsSize({ kernels, allowed: room, groups }: MatchScratch, condition: TextCondition): number {
  let total = 0;
  for (const { field, allowed } of condition) {
    const { groupStart, rank } = groups[field];
    room.set(allowed);
    total += kernels.run.groupsSize(kernels.at(groupStart), kernels.at(rank), kernels.at(room), allowed.length);
  }
  return total;
}

/** Start from nothing and set the rows a condition's values carry (a record with two passing fields is set twice). */
function markPostings({ kernels, mask, allowed: room, groups }: MatchScratch, condition: TextCondition): void {
  mask.fill(0);
  for (const { field, allowed } of condition) {
    const { perm, groupStart, rank } = groups[field];
    room.set(allowed);
    kernels.run.markGroups(kernels.at(mask), kernels.at(perm), kernels.at(groupStart), kernels.at(rank), kernels.at(room), allowed.length);
  }
}

/** The records a query selects: search AND keyword AND every filter (AND suggest-contains' text), minus the excluded ids. */
export function matchRecords(options: MatchOptions): MatchSet {
  const { store, forms, orders, query, contains, scratch } = options;
  const mask = scratch.mask.fill(1);
  const conditions = query.searches.map((search) => searchCondition(store, search));
  if (query.keyword !== null) conditions.push(keywordCondition(scratch, forms, query.keyword));
  if (contains) conditions.push([{ field: contains.field, allowed: containsTable(scratch, forms, contains.field, contains.text) }]);
  // A selective text condition sets its few rows through the fields' groups of rows by value instead of
  // testing every record; the other conditions then only clear.
  if (conditions.length > 0) {
    const sizes = conditions.map((c) => postingsSize(scratch, c));
    const smallest = sizes.indexOf(Math.min(...sizes));
    if (sizes[smallest] * 4 < store.size) {
      markPostings(scratch, conditions[smallest]);
      conditions.splice(smallest, 1);
    }
  }
  const tables: FieldTable[] = [];
  const prices: Filter[] = [];
  // Each pass skips the words of rows the passes before it cleared: the usually narrow list fields (SIN,
  // category, subcategory) go first, then the combo fields in one pass, then the usually wide price ranges.
  for (const filter of query.filters) {
    // A wide experience range is cheapest through the value order; otherwise it joins the combo filters.
    if (filter.name === 'experience_range' && orders && filter.ranges.length === 1) {
      if (keepInRangeByOrder(mask, orders.get('min_years_experience'), filter.ranges[0][0], filter.ranges[0][1])) continue;
    }
    const table = comboFieldTable(store, filter);
    if (table) tables.push(table);
    else if (filter.name === 'price_range' || filter.name === 'current_price') prices.push(filter);
    else applyFilter(mask, options, filter);
  }
  applyComboFilters(mask, options, tables);
  for (const filter of prices) applyFilter(mask, options, filter);
  for (const condition of conditions) applyCondition(mask, store, condition);
  for (const id of query.exclude) {
    const row = rowOfId(store, id);
    if (row >= 0) mask[row] = 0;
  }
  return matchSetOf(scratch);
}

/** Counts the mask and lists the smaller side (the matches, or the records left out) into the scratch rows. */
function matchSetOf({ kernels, mask, rows }: MatchScratch): MatchSet {
  const count = kernels.run.listMask(kernels.at(mask), mask.length, kernels.at(rows));
  const matchesListed = count * 2 <= mask.length;
  const list = rows.subarray(0, matchesListed ? count : mask.length - count);
  return matchesListed ? { mask, count, rows: list, rest: null } : { mask, count, rows: null, rest: list };
}
