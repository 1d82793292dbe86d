/**
 * The ceiling-rates index of one opened database: the columns held in memory (see README.md), and the store
 * (answer-search.ts `RatesStore`) that executes a search's plan over them, orders its page and reads the page's
 * `_source` from SQLite; the answer itself is `answerSearch`'s.
 */
import type { Database } from 'sql.js';
import type { RouteContext } from '../http/routes.ts';
import type { ApiResponse } from '../http/types.ts';
import type { ColumnStore } from './columns/store.ts';
import type { OrderColumn, OrderColumns } from './columns/order-columns.ts';
import { prepareColumns, preparedBytes, readPrepared, type PreparedColumns } from './columns/prepared.ts';
import { matchRecords, matchScratch, matchScratchRoom, type MatchSources } from './query/match.ts';
import { matchedRows, type MatchSet } from './query/match-set.ts';
import { matchPlan } from './query/match-plan.ts';
import { RESULT_WINDOW, type CeilingRatesQuery, type FieldText } from './parse-query.ts';
import { topRows, type OrderKey } from './query/order.ts';
import { countedRows } from './query/aggregator.ts';
import type { Combos } from './columns/combos.ts';
import { SourceReader } from './query/source.ts';
import { FirstIds } from './query/suggest.ts';
import { CsvRowWriter } from './export.ts';
import { Lazy } from './memo.ts';
import { SearchCache } from './query/search-cache.ts';
import { answerNow, answerSearch, type FieldCodes, type Found, type PageHit, type RatesStore } from './answer-search.ts';
import { ratesTables, type RatesTables } from './rates-tables.ts';

/** Everything a request needs, built once per opened database. */
export class CeilingRatesIndex implements RatesStore {
  readonly store: ColumnStore;
  readonly orders: OrderColumns;
  readonly combos: Combos;
  /** The dictionaries, forms, counting and buffers every store answers with (rates-tables.ts). */
  readonly ratesTables: RatesTables;
  /** The CSV export's rows, written from the columns; its cells are rendered as exports need them. */
  readonly csvRows = new Lazy(() => new CsvRowWriter(this.store));
  /** The page's `_source` JSON, read from SQLite. */
  private readonly sourceReader: SourceReader;
  /** What matching reads, its per-request buffers in kernel memory reused: requests run one at a time. */
  private readonly matching: MatchSources;
  /** The last searches' matches and aggregations, for their next page, ordering or export. */
  readonly searches = new SearchCache();

  /** `prepared`: what the bind read from the database, or the same read back from prepared bytes (prepared.ts). */
  constructor(
    readonly db: Database,
    prepared: PreparedColumns,
  ) {
    ({ store: this.store, combos: this.combos, orders: this.orders } = prepared);
    const { store, orders, combos } = this;
    // Every request's price aggregations read the price order.
    const priceOrder = orders.get('current_price');
    const firstIds = new FirstIds(store);
    this.ratesTables = ratesTables(
      {
        size: store.size,
        dicts: store,
        combos,
        priceOrder,
        prices: store.numbers.current_price,
        counted: (memory) =>
          prepared.aggregator ??
          countedRows(memory, {
            labor: store.text.labor_category.codes,
            combos,
            priceRanks: priceOrder.recordRank,
            distinct: priceOrder.nullRank,
            priceKeys: store.priceKeys.codes,
          }),
        // Folded at a bind from the records (then packed with the prepared columns), read back at a prepared bind.
        folded: prepared.folded ?? null,
        firstIds: (field) => firstIds.get(field),
        // Matching every record is one cheap pass; its aggregations are what the prepared bytes spare.
        everyRow: prepared.everyRecord,
      },
      matchScratchRoom(store, orders),
    );
    this.matching = { store, orders, combos, scratch: matchScratch(this.ratesTables.buffers, store, orders) };
    this.sourceReader = new SourceReader(db);
  }

  /** What this index prepares, to keep beside its database so that a later bind maps it instead of reading the records. */
  preparedBytes(): Uint8Array {
    return preparedBytes({
      store: this.store,
      combos: this.combos,
      orders: this.orders,
      aggregator: this.ratesTables.aggregator.rows(),
      everyRecord: this.ratesTables.everyRowAggregations(),
      folded: this.ratesTables.containing.held(),
    });
  }

  match(query: CeilingRatesQuery, contains: FieldText | null = null): MatchSet {
    return matchRecords(this.matching, matchPlan(this.ratesTables, query, contains));
  }

  orderKeys(query: CeilingRatesQuery): OrderKey<OrderColumn>[] {
    return query.ordering.map(({ field, desc }) => ({ column: this.orders.get(field), desc }));
  }

  /** `_source` JSON of rows, in the rows' order. */
  sourcesOf(rows: readonly number[]): string[] {
    const ids = rows.map((row) => this.store.ids[row]);
    const byId = this.sourceReader.read(ids);
    return ids.map((id) => byId.get(id)!);
  }

  search(ctx: RouteContext): ApiResponse {
    return answerNow(answerSearch(this, ctx));
  }

  tables(): RatesTables {
    return this.ratesTables;
  }

  find(query: CeilingRatesQuery, cached: MatchSet | null): Found {
    const match = cached ?? this.match(query);
    const keys = this.orderKeys(query);
    const offset = (query.page - 1) * query.pageSize;
    const rows = topRows({ mask: match.mask, matches: match.rows ?? undefined, keys, limit: offset + query.pageSize }).slice(offset);
    const sources = this.sourcesOf(rows);
    const page = rows.map((row, i): PageHit => ({
      id: this.store.ids[row],
      source: sources[i],
      sort: keys.map(({ column }) => column.sortValue(row)),
    }));
    return { tables: this.ratesTables, match, page };
  }

  fieldCodes(query: CeilingRatesQuery, contains: FieldText): FieldCodes {
    const rows = matchedRows(this.match(query, contains));
    return { tables: this.ratesTables, count: rows.length, codes: this.store.text[contains.field].codes, rows };
  }

  exportRows(query: CeilingRatesQuery, cached: MatchSet | null): string {
    const match = cached ?? this.match(query);
    const rows = topRows({ mask: match.mask, matches: match.rows ?? undefined, keys: this.orderKeys(query), limit: RESULT_WINDOW });
    return this.csvRows.get().write(rows);
  }
}

/**
 * The index of an opened database, built once and shared by the API's routes and the price figures the
 * DB worker computes beside them (price-figures.ts): the columns are read into memory only once. `prepared`: bytes
 * an earlier bind of the same file prepared, read instead of the records (throws when they do not fit it).
 */
const indexes = new WeakMap<Database, CeilingRatesIndex>();
export function ceilingRatesIndex(db: Database, prepared: Uint8Array | null = null): CeilingRatesIndex {
  let index = indexes.get(db);
  if (!index) {
    index = new CeilingRatesIndex(db, prepared ? readPrepared(prepared, db) : prepareColumns(db));
    indexes.set(db, index);
  }
  return index;
}
