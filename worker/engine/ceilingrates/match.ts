/**
 * The matching set of a query as a mask over rows. Each condition is decided once per DISTINCT value of
 * its field (a few thousand strings, not 250,000 rows), then applied in one tight pass over the codes.
 */
import { rowOfId, type Codes, type ColumnStore, type Dictionary, type TextField } from './columns.ts';
import type { CeilingRatesQuery, FieldText, Filter } from './params.ts';
import type { OrderColumn, OrderColumns } from './order-columns.ts';
import { clearanceClass, containsWords, fold, listElements, sinCodes } from './text.ts';

/** Derived forms of distinct values, computed on first use and kept for the database's lifetime. */
export class ValueForms {
  private readonly folded = new Map<TextField, string[]>();
  private readonly trimmed = new Map<TextField, string[]>();
  private readonly lists = new Map<TextField, Set<string>[]>();
  private sins: Set<string>[] | null = null;

  constructor(readonly store: ColumnStore) {}

  /** Lower-cased values (null as ''). */
  foldedValues(field: TextField): string[] {
    let values = this.folded.get(field);
    if (!values) {
      values = this.store.text[field].values.map((v) => (v === null ? '' : fold(v)));
      this.folded.set(field, values);
    }
    return values;
  }

  /** Lower-cased values, trimmed: the form `search` compares whole. */
  trimmedFolded(field: TextField): string[] {
    let values = this.trimmed.get(field);
    if (!values) {
      values = this.foldedValues(field).map((v) => v.trim());
      this.trimmed.set(field, values);
    }
    return values;
  }

  sinSets(): Set<string>[] {
    this.sins ??= this.store.text.sin.values.map((v) => new Set(v === null ? [] : sinCodes(v)));
    return this.sins;
  }

  listSets(field: 'category' | 'subcategory'): Set<string>[] {
    let sets = this.lists.get(field);
    if (!sets) {
      sets = this.store.text[field].values.map((v) => new Set(v === null ? [] : listElements(v)));
      this.lists.set(field, sets);
    }
    return sets;
  }
}

export interface MatchSet {
  mask: Uint8Array;
  /** Matching rows ascending (id order). */
  rows: Uint32Array;
  /** The other rows (descending): wide queries aggregate by subtracting these from the totals. */
  rest: Uint32Array;
}

/** First index in values[0..n) whose value is >= `value` (or > with `strict`). */
function bound(values: Float64Array, n: number, value: number, strict: boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < value || (strict && values[mid] === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A wide range leaves out a prefix and a suffix of the field's value order: clear just those rows
 * (nulls included, they sort last). Returns false when a scan is cheaper.
 */
function keepInRangeByOrder(mask: Uint8Array, column: OrderColumn, lo: number, hi: number): boolean {
  const values = column.rankValues;
  if (!values || !(lo <= hi)) return false;
  const first = bound(values, column.nullRank, lo, false);
  const after = bound(values, column.nullRank, hi, true);
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

function keepAllowed(mask: Uint8Array, codes: Codes, allowed: Uint8Array): void {
  for (let r = 0; r < mask.length; r++) if (mask[r] !== 0 && allowed[codes[r]] === 0) mask[r] = 0;
}

function keepInRanges(mask: Uint8Array, values: Float64Array, ranges: readonly (readonly [number, number])[]): void {
  if (ranges.length === 1) {
    const [lo, hi] = ranges[0];
    for (let r = 0; r < mask.length; r++) {
      if (mask[r] === 0) continue;
      const v = values[r];
      if (!(v >= lo && v <= hi)) mask[r] = 0;
    }
    return;
  }
  for (let r = 0; r < mask.length; r++) {
    if (mask[r] === 0) continue;
    const v = values[r];
    if (!ranges.some(([lo, hi]) => v >= lo && v <= hi)) mask[r] = 0;
  }
}

function applyFilter(mask: Uint8Array, store: ColumnStore, forms: ValueForms, filter: Filter, orders: OrderColumns | null): void {
  const { text, numbers } = store;
  if ((filter.name === 'price_range' || filter.name === 'experience_range') && orders && filter.ranges.length === 1) {
    const column = orders.get(filter.name === 'price_range' ? 'current_price' : 'min_years_experience');
    if (keepInRangeByOrder(mask, column, filter.ranges[0][0], filter.ranges[0][1])) return;
  }
  switch (filter.name) {
    case 'education_level':
    case 'business_size': {
      const wanted = new Set(filter.values);
      const dict = text[filter.name];
      keepAllowed(mask, dict.codes, allowedValues(dict, (v) => v !== null && wanted.has(v)));
      return;
    }
    case 'price_range':
      return keepInRanges(mask, numbers.current_price, filter.ranges);
    case 'experience_range':
      return keepInRanges(mask, numbers.min_years_experience, filter.ranges);
    case 'current_price':
      return keepInRanges(mask, numbers.current_price, filter.values.map((v) => [v, v] as const));
    case 'min_years_experience':
      return keepInRanges(mask, numbers.min_years_experience, filter.values.map((v) => [v, v] as const));
    case 'sin': {
      const sets = forms.sinSets();
      keepAllowed(mask, text.sin.codes, allowedValues(text.sin, (_, code) => filter.codes.some((c) => sets[code].has(c))));
      return;
    }
    case 'category':
    case 'subcategory': {
      const sets = forms.listSets(filter.name);
      const dict = text[filter.name];
      keepAllowed(mask, dict.codes, allowedValues(dict, (_, code) => filter.values.some((v) => sets[code].has(v))));
      return;
    }
    case 'worksite':
    case 'site': {
      const dict = text.worksite;
      keepAllowed(mask, dict.codes, allowedValues(dict, (v) => v !== null && filter.phrases.some((p) => containsWords(v, p))));
      return;
    }
    case 'security_clearance': {
      const dict = text.security_clearance;
      keepAllowed(mask, dict.codes, allowedValues(dict, (v) => {
        const cls = clearanceClass(v);
        return cls !== null && filter.classes.includes(cls);
      }));
      return;
    }
  }
}

/** Records whose field contains the (trimmed, case-folded) text: keyword and suggest-contains. */
export function containsTable(forms: ValueForms, field: TextField, text: string): Uint8Array {
  const needle = fold(text.trim());
  const folded = forms.foldedValues(field);
  const allowed = new Uint8Array(folded.length);
  for (let code = 0; code < folded.length; code++) allowed[code] = folded[code].includes(needle) ? 1 : 0;
  return allowed;
}

function applySearch(mask: Uint8Array, store: ColumnStore, forms: ValueForms, search: FieldText): void {
  const wanted = fold(search.text.trim());
  const trimmed = forms.trimmedFolded(search.field);
  const dict = store.text[search.field];
  keepAllowed(mask, dict.codes, allowedValues(dict, (v, code) => v !== null && trimmed[code] === wanted));
}

function applyKeyword(mask: Uint8Array, store: ColumnStore, forms: ValueForms, keyword: string): void {
  const a = containsTable(forms, 'labor_category', keyword);
  const b = containsTable(forms, 'vendor_name', keyword);
  const c = containsTable(forms, 'idv_piid', keyword);
  const ca = store.text.labor_category.codes;
  const cb = store.text.vendor_name.codes;
  const cc = store.text.idv_piid.codes;
  for (let r = 0; r < mask.length; r++) {
    if (mask[r] !== 0 && (a[ca[r]] | b[cb[r]] | c[cc[r]]) === 0) mask[r] = 0;
  }
}

/**
 * The records a query selects: search AND keyword AND every filter, minus the excluded ids. With `scratch`
 * the mask and rows are views into those buffers (valid until their next use), which spares a request
 * a megabyte of allocation; `orders` lets wide ranges clear only the rows they leave out.
 */
export function matchRecords(
  store: ColumnStore,
  forms: ValueForms,
  query: CeilingRatesQuery,
  contains: FieldText | null = null,
  orders: OrderColumns | null = null,
  scratch: { mask: Uint8Array; rows: Uint32Array } | null = null,
): MatchSet {
  const mask = scratch ? scratch.mask.fill(1) : new Uint8Array(store.size).fill(1);
  for (const search of query.searches) applySearch(mask, store, forms, search);
  if (query.keyword !== null) applyKeyword(mask, store, forms, query.keyword);
  for (const filter of query.filters) applyFilter(mask, store, forms, filter, orders);
  if (contains) keepAllowed(mask, store.text[contains.field].codes, containsTable(forms, contains.field, contains.text));
  for (const id of query.exclude) {
    const row = rowOfId(store, id);
    if (row >= 0) mask[row] = 0;
  }
  // Matches fill the buffer from the front, the rest from the back.
  const buffer = scratch ? scratch.rows : new Uint32Array(store.size);
  let count = 0;
  let back = buffer.length;
  for (let r = 0; r < mask.length; r++) {
    if (mask[r] !== 0) buffer[count++] = r;
    else buffer[--back] = r;
  }
  return { mask, rows: buffer.subarray(0, count), rest: buffer.subarray(count) };
}
