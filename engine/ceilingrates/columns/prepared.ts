/**
 * What a bind prepares from the database (the column store, the combinations, the order columns every bind
 * builds, the aggregations' tables), built from the database or read back from prepared bytes kept beside it
 * (decision 0405). Reading prepared bytes maps their typed arrays instead of scanning SQLite and counting every
 * record again; the request-time buffers are rebuilt.
 *
 * The prepared bytes are `typed-pack` bytes labelled with PREPARED_VERSION and the shape of what is packed. The
 * shape is the store's keys and the kinds of their values: a field added to the store changes it, which
 * makes older prepared bytes unreadable (they are then rebuilt) and makes `preparedBytes` refuse to write until
 * PREPARED_SHAPE (and PREPARED_VERSION) are updated here; the unit test of this file says so.
 */
import type { Database } from 'sql.js';
import { pack, PackMismatch, shapeHash, unpack } from '../../typed-pack.ts';
import { CEILINGRATES_TABLE } from '../record.ts';
import type { ColumnStore } from './store.ts';
import { loadColumns } from './load.ts';
import { buildCombos, COMBO_FIELDS, comboDictionary, type Combos } from './combos.ts';
import { BOUND_ORDER_FIELDS, OrderColumns, type OrderColumnData } from './order-columns.ts';
import type { CountedRows } from '../query/aggregator.ts';
import type { FoldedText } from '../query/value-forms.ts';
import { SEARCH_FIELDS, type SearchField } from '../parameters.ts';

export const PREPARED_KIND = 'ceilingrates-prepared';
/** Bump with any change of meaning that leaves the shape as it is (a column computed differently). */
export const PREPARED_VERSION = 4;
/** `shapeHash` of what `preparedBytes` packs. */
export const PREPARED_SHAPE = 'ecff7695';

export interface PreparedColumns {
  store: ColumnStore;
  combos: Combos;
  orders: OrderColumns;
  /** The aggregations' tables, when read back (built from the database, the Aggregator computes them). */
  aggregator?: Required<CountedRows>;
  /**
   * When read back: the aggregations' JSON of the search that matches every record (the app's first view), so
   * the first search after a prepared bind does not aggregate 250,000 records with code not yet optimised.
   */
  everyRecord?: string;
  /** When read back: each search field's folded values as UTF-8 (value-forms.ts), so the first keyword folds nothing. */
  folded?: Record<SearchField, FoldedText>;
}

/** What is packed beyond the columns: the aggregator's tables, the every-record aggregations' JSON, the folded texts. */
export type PreparedExtras = { aggregator: Required<CountedRows>; everyRecord: string; folded: Record<SearchField, FoldedText> };

/** Build from the database: what binding does without prepared bytes. */
export function prepareColumns(db: Database): PreparedColumns {
  const store = loadColumns(db);
  const orders = new OrderColumns(store);
  for (const field of BOUND_ORDER_FIELDS) orders.get(field);
  return { store, combos: buildCombos(store), orders };
}

/**
 * What is packed: the store, the combinations without their dictionaries (the store's), the bound order columns'
 * arrays, and the aggregations' tables.
 */
function packedValue({ store, combos, orders, aggregator, everyRecord, folded }: PreparedColumns & PreparedExtras) {
  const { dicts: _shared, ...combosOwn } = combos;
  const orderData = Object.fromEntries(
    BOUND_ORDER_FIELDS.map((field): [string, OrderColumnData] => {
      const { sortValue: _closure, ...data } = orders.get(field);
      return [field, data];
    }),
  );
  return { store, combos: combosOwn, orders: orderData, aggregator, everyRecord, folded };
}

/** The prepared bytes, to keep beside the database; refused while PREPARED_SHAPE is not the shape of what is packed. */
export function preparedBytes(prepared: PreparedColumns & PreparedExtras): Uint8Array {
  const value = packedValue(prepared);
  const shape = shapeHash(value);
  if (shape !== PREPARED_SHAPE) {
    throw new Error(
      `the prepared ceiling-rates columns changed shape (${shape}, PREPARED_SHAPE is ${PREPARED_SHAPE}): update PREPARED_SHAPE and bump PREPARED_VERSION in engine/ceilingrates/columns/prepared.ts`,
    );
  }
  return pack(value, { kind: PREPARED_KIND, version: PREPARED_VERSION });
}

/**
 * The prepared columns from prepared bytes, their arrays views on those bytes. Throws PackMismatch when the bytes
 * are of another version or shape, cut short, or plainly not of this database (first and last id).
 */
export function readPrepared(bytes: Uint8Array, db: Database): PreparedColumns {
  const packed = unpack(bytes, { kind: PREPARED_KIND, version: PREPARED_VERSION, shape: PREPARED_SHAPE }) as ReturnType<typeof packedValue>;
  const { store } = packed;
  if (store.ids.length !== store.size || !sameIdRange(db, store)) throw new PackMismatch('prepared columns are of other records');
  const combos: Combos = { ...packed.combos, dicts: COMBO_FIELDS.map((field) => comboDictionary(store, field)) };
  const orders = new OrderColumns(store, Object.values(packed.orders));
  const { aggregator } = packed;
  if (aggregator.packed.length !== 3 * store.size || aggregator.priceKeyOfRank.length !== orders.get('current_price').nullRank) {
    throw new PackMismatch('prepared aggregation tables are of other columns');
  }
  if (typeof packed.everyRecord !== 'string') throw new PackMismatch('prepared aggregations are not text');
  const { folded } = packed;
  for (const field of SEARCH_FIELDS) {
    const { bytes, starts } = folded[field];
    // One past the text's end: its length and the NUL that would follow the last value (0 when there is none).
    const end = starts.length > 1 ? bytes.length + 1 : 0;
    if (starts.length !== store.text[field].values.length + 1 || starts[starts.length - 1] !== end) {
      throw new PackMismatch(`prepared folded ${field} values are of other columns`);
    }
  }
  return { store, combos, orders, aggregator, everyRecord: packed.everyRecord, folded };
}

/** First and last id as the database holds them: two seeks down the rowid tree. */
function sameIdRange(db: Database, store: ColumnStore): boolean {
  const min = db.exec(`SELECT min(id) FROM ${CEILINGRATES_TABLE}`)[0]?.values[0][0] ?? null;
  const max = db.exec(`SELECT max(id) FROM ${CEILINGRATES_TABLE}`)[0]?.values[0][0] ?? null;
  if (store.size === 0) return min === null && max === null;
  return min === store.ids[0] && max === store.ids[store.size - 1];
}
