/**
 * The ceiling-rates index of one opened database: the columns held in memory (see README.md), the matchers,
 * the aggregator and the CSV writer, and the search that answers the API's one route with them (`_source`
 * read from SQLite for the page only).
 */
import type { Database } from 'sql.js';
import type { RouteContext } from '../http/routes.ts';
import type { ApiResponse } from '../http/types.ts';
import type { ColumnStore } from './columns/store.ts';
import type { OrderColumns } from './columns/order-columns.ts';
import { prepareColumns, preparedBytes, readPrepared, type PreparedColumns } from './columns/prepared.ts';
import { matchedRows, matchRecords, matchScratch, matchScratchRoom, type MatchScratch, type MatchSet } from './query/match.ts';
import { foldedText, ValueForms, type FoldedText } from './query/value-forms.ts';
import { parseQuery, RESULT_WINDOW, SEARCH_FIELDS, type CeilingRatesQuery, type FieldText, type SearchField } from './parse-query.ts';
import { topRows, type OrderKey } from './query/order.ts';
import { Aggregator, LARGEST_TERMS } from './query/aggregations.ts';
import { TopTerms } from './query/terms.ts';
import { KernelMemory } from './kernels/kernels.ts';
import type { Combos } from './columns/combos.ts';
import { SourceReader } from './query/source.ts';
import { containsAggregation, FirstRows, suggestBody, suggestJson } from './query/suggest.ts';
import { CsvRowWriter, exportHead } from './export.ts';
import { Lazy } from './memo.ts';
import { aggregationsJson } from './json.ts';
import { keepMatch, matchKey, SearchCache, type KeptSearch } from './query/search-cache.ts';
import { csv, envelope, envelopeJson, hitJson, parseSearch, respond, respondJson } from './shape.ts';

/** The search with no condition: every record matches (kept with the prepared columns). */
const EVERY_RECORD = parseQuery(new URLSearchParams());

/** Everything a request needs, built once per opened database. */
export class CeilingRatesIndex {
  readonly store: ColumnStore;
  readonly forms: ValueForms;
  readonly orders: OrderColumns;
  readonly firstRows: FirstRows;
  readonly aggregator: Aggregator;
  /** Term buckets, for the aggregations and suggest-contains. */
  readonly topTerms: TopTerms;
  readonly combos: Combos;
  /** The CSV export's rows, written from the columns; its cells are rendered as exports need them. */
  readonly csvRows = new Lazy(() => new CsvRowWriter(this.store));
  /** The page's `_source` JSON, read from SQLite. */
  private readonly sourceReader: SourceReader;
  /** Per-request buffers in kernel memory, reused: requests run one at a time and nothing keeps them past a request. */
  private readonly scratch: MatchScratch;
  /** The last searches' matches and aggregations, for their next page, ordering or export. */
  readonly searches = new SearchCache();

  /** `prepared`: what the bind read from the database, or the same read back from kept bytes (prepared.ts). */
  constructor(
    readonly db: Database,
    prepared: PreparedColumns,
  ) {
    ({ store: this.store, combos: this.combos, orders: this.orders } = prepared);
    this.forms = new ValueForms(this.store);
    this.firstRows = new FirstRows(this.store);
    const { store, orders, combos } = this;
    // Every request's price aggregations read the price order.
    const priceOrder = orders.get('current_price');
    // The aggregations' and suggest-contains' dictionaries (labor_category is both), each once.
    const termDicts = [...new Set([...Aggregator.termDicts(store, combos), ...SEARCH_FIELDS.map((field) => store.text[field])])];
    // Folded at a bind from the records (then kept with the prepared columns), read back at a kept bind.
    const texts =
      prepared.folded ??
      (Object.fromEntries(SEARCH_FIELDS.map((field) => [field, foldedText(this.forms.folded.get(field))])) as Record<SearchField, FoldedText>);
    // One memory for every array a kernel reads, sized once: the match buffers, the aggregator's, the term buckets'.
    const kernels = new KernelMemory(
      matchScratchRoom(store, orders, texts) + Aggregator.room({ store, priceOrder, combos }) + TopTerms.room(termDicts, LARGEST_TERMS),
    );
    this.scratch = matchScratch(kernels, store, orders, texts);
    this.topTerms = new TopTerms(kernels, termDicts, LARGEST_TERMS);
    this.aggregator = new Aggregator({ store, priceOrder, combos, kernels, topTerms: this.topTerms, everyRow: this.scratch.rows, tables: prepared.aggregator });
    this.sourceReader = new SourceReader(db);
    if (prepared.everyRecord !== undefined) {
      // Matching every record is one cheap pass; its aggregations are what the kept bytes spare.
      this.searches.set(matchKey(EVERY_RECORD), { match: keepMatch(this.match(EVERY_RECORD)), aggregationsJson: prepared.everyRecord });
    }
  }

  /** What this index keeps beside its database so that a later bind maps it instead of reading the records. */
  preparedBytes(): Uint8Array {
    const everyRecord = this.kept(EVERY_RECORD).aggregationsJson;
    return preparedBytes({
      store: this.store,
      combos: this.combos,
      orders: this.orders,
      aggregator: this.aggregator.tables(),
      everyRecord,
      folded: this.scratch.texts,
    });
  }

  match(query: CeilingRatesQuery, contains: FieldText | null = null): MatchSet {
    const { store, forms, orders, combos, scratch } = this;
    return matchRecords({ store, forms, orders, combos, scratch, query, contains });
  }

  orderKeys(query: CeilingRatesQuery): OrderKey[] {
    return query.ordering.map(({ field, desc }) => ({ column: this.orders.get(field), desc }));
  }

  /** `_source` JSON of rows, in the rows' order. */
  sources(rows: readonly number[]): string[] {
    const ids = rows.map((row) => this.store.ids[row]);
    const byId = this.sourceReader.read(ids);
    return ids.map((id) => byId.get(id)!);
  }

  search(ctx: RouteContext): ApiResponse {
    const started = performance.now();
    const parsed = parseSearch(ctx);
    if ('refused' in parsed) return parsed.refused;
    const { query } = parsed;
    const { store } = this;
    if (query.suggest.length > 0) return respondJson(suggestJson(suggestBody(this, query.suggest)));

    if (query.suggestContains) {
      const { field, tooShort } = query.suggestContains;
      // Under the minimum length (a typeahead's first key press): the same shape, matching nothing.
      if (tooShort) return respond(200, envelope(started, 0, [], containsAggregation(this.topTerms, store, field, new Uint32Array(0))));
      const match = this.match(query, query.suggestContains);
      return respond(200, envelope(started, match.count, [], containsAggregation(this.topTerms, store, field, matchedRows(match))));
    }

    const keys = this.orderKeys(query);
    const ordered = ({ mask, rows }: MatchSet) => ({ mask, matches: rows ?? undefined, keys });
    if (query.export) {
      // An export has no aggregations: a search kept earlier lends its matches, a new one is matched only.
      const match = this.searches.get(matchKey(query))?.match ?? this.match(query);
      return csv(exportHead(ctx.query) + this.csvRows.get().write(topRows({ ...ordered(match), limit: RESULT_WINDOW })));
    }
    const { match, aggregationsJson } = this.kept(query);

    const offset = (query.page - 1) * query.pageSize;
    const pageRows = topRows({ ...ordered(match), limit: offset + query.pageSize }).slice(offset);
    const sources = this.sources(pageRows);
    const doubles = keys.map(({ column }) => column.double);
    const hits = pageRows.map((row, i) =>
      hitJson(
        store.ids[row],
        sources[i],
        keys.map(({ column }) => column.sortValue(row)),
        doubles,
      ),
    );
    return respondJson(envelopeJson(started, match.count, hits, aggregationsJson));
  }

  /** The search's match set and aggregations: kept from an earlier search on the same terms, or computed and kept. */
  private kept(query: CeilingRatesQuery): KeptSearch {
    const key = matchKey(query);
    const known = this.searches.get(key);
    if (known) return known;
    const match = this.match(query);
    const kept = { match: keepMatch(match), aggregationsJson: aggregationsJson(this.aggregator.aggregate(match)) };
    this.searches.set(key, kept);
    return kept;
  }
}

/**
 * The index of an opened database, built once and shared by the API's routes and the price figures the
 * DB worker computes beside them (price-figures.ts): the columns are read into memory only once. `kept`: bytes
 * an earlier bind of the same file kept, read instead of the records (throws when they do not fit it).
 */
const indexes = new WeakMap<Database, CeilingRatesIndex>();
export function ceilingRatesIndex(db: Database, kept: Uint8Array | null = null): CeilingRatesIndex {
  let index = indexes.get(db);
  if (!index) {
    index = new CeilingRatesIndex(db, kept ? readPrepared(kept, db) : prepareColumns(db));
    indexes.set(db, index);
  }
  return index;
}
