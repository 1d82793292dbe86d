/**
 * The filter columns of every record, held in memory in listing order (sort_key) and read once when the
 * API binds: per column a dictionary code per record and, per distinct value, the positions of the records
 * carrying it (ascending, so already in listing order). A filtered request walks the shortest of its
 * filters' position lists and checks the other filters' codes; counts, distinct counts and the page's
 * row ids come from that walk, so no request counts, de-duplicates or skips rows in SQL.
 */
import type { Database, SqlValue } from 'sql.js';
import { pack, PackMismatch, shapeHash, unpack } from '../typed-pack.ts';
import { FILTER_NAMES, type FilterName } from './parameters.ts';
import type { WebsiteFilters } from './parse-query.ts';
import { SORT_KEY, WEBSITES_TABLE } from './schema.ts';

/** Columns whose distinct values /analysis counts (a null counts as one value). */
const DISTINCT_COUNTED = ['final_url_domain', 'target_url_agency_owner'] as const satisfies readonly FilterName[];

/**
 * Every record's row id, sort key and filter values in the table's order, one JSON array per column: a few strings
 * cross from sql.js instead of a cell per record and column (booleans are 0/1, text and null as stored). The
 * records are put in listing order here, not by the query: SQLite's sort of every row (a temporary B-tree)
 * took half of a first load's time (real snapshot: 190 → 86 ms in Node). Exported so a test can check its plan.
 */
export const loadSql = (table: string, sortKey: string, carried: readonly string[] = []): string =>
  `SELECT json_group_array(rowid), json_group_array(${sortKey}), ${[...FILTER_NAMES.map((name) => `"${name}"`), ...carried].map((column) => `json_group_array(${column})`).join(', ')}
  FROM ${table}`;
export const LOAD_SQL = loadSql(WEBSITES_TABLE, SORT_KEY);

/**
 * The table's positions (row id order) in listing order: by sort key, null first as SQLite orders it, ties in
 * row id order. Sort keys are integers, so this is one native sort of numbers, key · n + position, while that
 * stays exact (safe integers, packed under 2^53); else a sort with a comparator (several times slower cold).
 */
export function listingOrder(keys: readonly (number | null)[]): Uint32Array {
  const n = keys.length;
  const order = new Uint32Array(n);
  let min = Infinity;
  let max = -Infinity;
  let integers = true;
  for (const key of keys) {
    if (key === null) continue;
    // Safe integers only: past 2^53, one below the smallest key may round to the key itself.
    if (!Number.isSafeInteger(key)) integers = false;
    if (key < min) min = key;
    if (key > max) max = key;
  }
  // Null is one below the smallest key; every packed value is then at least 0.
  const base = min === Infinity ? 0 : min - 1;
  if (integers && (max - base + 1) * n < Number.MAX_SAFE_INTEGER) {
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = ((keys[i] ?? base) - base) * n + i;
    packed.sort();
    for (let i = 0; i < n; i++) order[i] = packed[i] % n;
    return order;
  }
  const key = Float64Array.from(keys, (k) => (k === null ? -Infinity : k));
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((a, b) => key[a] - key[b] || a - b);
}

interface FilterColumn {
  /** The distinct values, by code. */
  values: SqlValue[];
  codeOf: Map<SqlValue, number>;
  /** Code of each record, by listing position. */
  codes: Uint32Array;
  /** Positions of the records with code c: positions[starts[c]] … positions[starts[c + 1] - 1]. */
  starts: Uint32Array;
  positions: Uint32Array;
}

/** The value a filter compares with the stored column: booleans are stored as 0/1. */
const storedValue = (value: string | boolean): SqlValue => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

/** A column from its values in the table's order, read in listing order (`order`: table position of each). */
function filterColumn(values: readonly SqlValue[], order: Uint32Array): FilterColumn {
  const n = order.length;
  const codeOf = new Map<SqlValue, number>();
  const codes = new Uint32Array(n);
  for (let position = 0; position < n; position++) {
    const value = values[order[position]];
    let code = codeOf.get(value);
    if (code === undefined) codeOf.set(value, (code = codeOf.size));
    codes[position] = code;
  }
  // Counting sort of the positions by code: each value's positions stay ascending.
  const starts = new Uint32Array(codeOf.size + 1);
  for (let position = 0; position < n; position++) starts[codes[position] + 1]++;
  for (let c = 0; c < codeOf.size; c++) starts[c + 1] += starts[c];
  const next = starts.slice(0, codeOf.size);
  const positions = new Uint32Array(n);
  for (let position = 0; position < n; position++) positions[next[codes[position]]++] = position;
  return { values: [...codeOf.keys()], codeOf, codes, starts, positions };
}

/** The packed form of a column: everything but the value-to-code map, rebuilt from `values`. */
type PackedColumn = Omit<FilterColumn, 'codeOf'>;

/**
 * The prepared bytes (engine/typed-pack.ts): their kind, a version to bump with any change of meaning, and the shape
 * of what is packed (a changed shape makes older prepared bytes unreadable; preparedBytes refuses to write until
 * PREPARED_SHAPE is updated).
 */
const PREPARED_LABEL = { kind: 'websites-filter-index', version: 1 } as const;
export const PREPARED_SHAPE = '408ae899';

export interface Selection {
  /** Listing positions of the matching records, ascending. */
  positions: Uint32Array;
  /** How many records the walk visited (the shortest filter's list, or all records without a filter). */
  visited: number;
}

function packedColumn({ codeOf: _rebuilt, ...packed }: FilterColumn): PackedColumn {
  return packed;
}

export class FilterIndex {
  /** Every listing position, the selection without a filter. */
  private readonly every: Uint32Array;

  private constructor(
    /** Row id of each record, by listing position. */
    private readonly rowids: Float64Array,
    private readonly columns: Record<FilterName, FilterColumn>,
  ) {
    this.every = new Uint32Array(rowids.length);
    for (let i = 0; i < rowids.length; i++) this.every[i] = i;
  }

  static load(db: Database): FilterIndex {
    return FilterIndex.read(db, WEBSITES_TABLE, SORT_KEY, []).index;
  }

  /**
   * The index of any table with the filter columns, in the order of its `sortKey` column, and its `carried`
   * columns' numbers by listing position (the weeks' rows carry their site and weeks: week-index.ts).
   */
  static read(db: Database, table: string, sortKey: string, carried: readonly string[]): { index: FilterIndex; carried: Float64Array[] } {
    const [row] = db.exec(loadSql(table, sortKey, carried))[0].values;
    const [rowids, keys, ...values] = row.map((column) => JSON.parse(String(column)) as SqlValue[]);
    const order = listingOrder(keys as (number | null)[]);
    const columns = Object.fromEntries(FILTER_NAMES.map((name, i) => [name, filterColumn(values[i], order)])) as Record<FilterName, FilterColumn>;
    const inOrder = (column: readonly SqlValue[]): Float64Array => {
      const listed = new Float64Array(order.length);
      for (let position = 0; position < order.length; position++) listed[position] = column[order[position]] as number;
      return listed;
    };
    return { index: new FilterIndex(inOrder(rowids), columns), carried: values.slice(FILTER_NAMES.length).map(inOrder) };
  }

  /**
   * The index from bytes `preparedBytes` wrote for this database file earlier: its arrays are views on the bytes,
   * no record is read. Throws PackMismatch when the bytes are of another format, or plainly of other records
   * (another count or last row id).
   */
  static fromPrepared(bytes: Uint8Array, db: Database): FilterIndex {
    const packed = unpack(bytes, { ...PREPARED_LABEL, shape: PREPARED_SHAPE }) as { rowids: Float64Array; columns: Record<FilterName, PackedColumn> };
    const [count, last] = db.exec(`SELECT count(*), max(rowid) FROM ${WEBSITES_TABLE}`)[0].values[0];
    const { rowids } = packed;
    let max = 0;
    for (const rowid of rowids) if (rowid > max) max = rowid;
    if (Number(count) !== rowids.length || (rowids.length > 0 && Number(last) !== max)) throw new PackMismatch('the prepared filter index is of other records');
    const columns = Object.fromEntries(
      FILTER_NAMES.map((name) => {
        const column = packed.columns[name];
        if (column.codes.length !== rowids.length) throw new PackMismatch(`the prepared ${name} column is of other records`);
        return [name, { ...column, codeOf: new Map(column.values.map((value, code) => [value, code])) }];
      }),
    ) as Record<FilterName, FilterColumn>;
    return new FilterIndex(rowids, columns);
  }

  /** The prepared bytes, kept beside the database file for `fromPrepared`. */
  preparedBytes(): Uint8Array {
    const columns = Object.fromEntries(FILTER_NAMES.map((name) => [name, packedColumn(this.columns[name])]));
    const value = { rowids: this.rowids, columns };
    const shape = shapeHash(value);
    if (shape !== PREPARED_SHAPE) {
      throw new Error(
        `the prepared websites filter index changed shape (${shape}, PREPARED_SHAPE is ${PREPARED_SHAPE}): update it and bump PREPARED_LABEL.version in engine/site-scanning/filter-index.ts`,
      );
    }
    return pack(value, PREPARED_LABEL);
  }

  get size(): number {
    return this.rowids.length;
  }

  /** The records equal to every given filter (exact, case-sensitive), in listing order. */
  select(filters: WebsiteFilters): Selection {
    const wanted: { column: FilterColumn; code: number }[] = [];
    for (const name of FILTER_NAMES) {
      const value = filters[name];
      if (value === undefined) continue;
      const column = this.columns[name];
      const code = column.codeOf.get(storedValue(value));
      // A value no record carries matches nothing.
      if (code === undefined) return { positions: new Uint32Array(0), visited: 0 };
      wanted.push({ column, code });
    }
    if (wanted.length === 0) return { positions: this.every, visited: this.size };
    const length = ({ column, code }: { column: FilterColumn; code: number }): number => column.starts[code + 1] - column.starts[code];
    wanted.sort((a, b) => length(a) - length(b));
    const [shortest, ...others] = wanted;
    const from = shortest.column.starts[shortest.code];
    const to = shortest.column.starts[shortest.code + 1];
    const out = new Uint32Array(to - from);
    let n = 0;
    walk: for (let i = from; i < to; i++) {
      const position = shortest.column.positions[i];
      for (const { column, code } of others) if (column.codes[position] !== code) continue walk;
      out[n++] = position;
    }
    return { positions: out.subarray(0, n), visited: to - from };
  }

  /** Row ids of positions[offset, offset + limit). */
  rowidsOf(positions: Uint32Array, offset: number, limit: number): number[] {
    return Array.from(positions.subarray(offset, offset + limit), (position) => this.rowids[position]);
  }

  /** Distinct values of final_url_domain and target_url_agency_owner among the records, null as one value. */
  distinctCounts(positions: Uint32Array): Record<(typeof DISTINCT_COUNTED)[number], number> {
    const count = (name: (typeof DISTINCT_COUNTED)[number]): number => {
      const { codes, codeOf } = this.columns[name];
      const seen = new Uint8Array(codeOf.size);
      let distinct = 0;
      for (const position of positions) {
        const code = codes[position];
        if (seen[code] === 0) {
          seen[code] = 1;
          distinct++;
        }
      }
      return distinct;
    };
    return { final_url_domain: count('final_url_domain'), target_url_agency_owner: count('target_url_agency_owner') };
  }
}
