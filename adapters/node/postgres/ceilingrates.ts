/**
 * GET /api/v3/search/ceilingrates/ answered from Postgres: the engine's parser, error bodies, envelope and JSON
 * writing, with matching, ordering, paging and the grouping of the matches done in SQL over the tables `load`
 * wrote with the engine's text analysis (ceilingrates-tables.ts). A search is one statement (one MVCC snapshot
 * even while a load commits). The term buckets, distinct prices and education counts are read off its groups
 * (ceilingrates-counts.ts); percentiles, the median, the k-means wage histogram and the statistics are the
 * engine's own functions, the price sums added in id order as the engine adds them: one definition.
 */
import type pg from 'pg';
import type { RouteContext } from '../../../engine/http/routes.ts';
import type { ApiResponse } from '../../../engine/http/types.ts';
import { RESULT_WINDOW, type CeilingRatesQuery, type FieldText } from '../../../engine/ceilingrates/parse-query.ts';
import { csv, envelope, envelopeJson, hitJson, parseSearch, respond, respondJson } from '../../../engine/ceilingrates/shape.ts';
import { aggregationsFrom, educationBuckets, priceSums, type PriceSums } from '../../../engine/ceilingrates/query/aggregations.ts';
import { bucketsAggregation } from '../../../engine/ceilingrates/query/terms.ts';
import { fold } from '../../../engine/ceilingrates/text.ts';
import { SEARCH_FIELDS } from '../../../engine/ceilingrates/parameters.ts';
import { SUGGEST_CONTAINS_SIZE, SUGGEST_SIZE, suggestBodyOf, suggestEntryOf, suggestJson } from '../../../engine/ceilingrates/query/suggest.ts';
import { aggregationsJson } from '../../../engine/ceilingrates/json.ts';
import { csvLine, EXPORT_FIELDS, exportHead } from '../../../engine/ceilingrates/export.ts';
import { codeColumn, rankColumn } from './ceilingrates-tables.ts';
import { isRecordOrderField, matchBranches, matchCondition, orderBy, orderFields, Params, restCondition, type Dictionaries } from './ceilingrates-query.ts';
import { quote } from './schema.ts';
import { fromRows, pageOf, placesOf, rowCodesOf, rowsOf, type CodesOrder, type RowCodes } from './row-codes.ts';
import { countedParts, currentTables, dictionariesOf, LOAD_IDENTITY, loadTables, priceColumn, terms, type LoadTables } from './ceilingrates-counts.ts';

/** Production's double fields: their `sort` values are written with a decimal point. */
const DOUBLE_SORT = new Set(['current_price', 'next_year_price', 'second_year_price']);

const LOAD = `(SELECT ${LOAD_IDENTITY} FROM ceilingrates_loads l)`;

/**
 * A page's hits as JSON, in order, from `from` (a relation `p` holding the page's ids): each its id, `_source`
 * and `sort` values (the record's value of each key's field, null for the fields no record holds).
 */
function pageJson(query: CeilingRatesQuery, from: string, order: string): string {
  const sortValues = query.ordering.map(({ field }) => (isRecordOrderField(field) ? `c.${quote(field)}` : 'NULL'));
  return `(SELECT coalesce(json_agg(json_build_array(c.id, c.source, ${sortValues.join(', ')}) ORDER BY ${order}), '[]'::json)
         FROM ${from} JOIN ceilingrates c ON c.id = p.id)`;
}

/**
 * The order of a search's page when the rates' codes hold it (row-codes.ts): by price, or by id alone;
 * undefined for an order by another field. A second key on the price orders nothing the first left tied.
 */
function codesOrder(query: CeilingRatesQuery): CodesOrder | undefined {
  const fields = orderFields(query);
  if (fields.length === 0) return null;
  return fields.every(({ field }) => field === 'current_price') ? { desc: fields[0].desc } : undefined;
}

/**
 * A search's statement: the load it sees, the codes of its matches (or for a wide search of the rates it leaves
 * out, or none for a search with no condition: the load's counts are every rate's), and its page unless the
 * codes hold the page's order (then Node picks it: pageStatement); one statement, so all of it sees the same
 * load. The page is read from the rows with the condition, so the planner can walk the order's index and stop
 * at the page's end.
 */
function searchStatement(query: CeilingRatesQuery, wide: boolean, dictionaries: Dictionaries): { text: string; values: unknown[]; every: boolean } {
  const params = new Params();
  const where = matchCondition(query, null, params, dictionaries);
  const every = where === 'true';
  const ranks = orderFields(query).map(({ field }) => `r.${rankColumn(field)}`);
  const offset = (query.page - 1) * query.pageSize;
  const hits = pageJson(query, 'page p', orderBy(query, 'p'));
  const page = (from: string): string =>
    `page AS (SELECT ${['r.id', ...ranks].join(', ')} FROM ${from} ORDER BY ${orderBy(query, 'r')} LIMIT ${query.pageSize} OFFSET ${offset})`;
  const rows = `ceilingrate_rows r WHERE ${where}`;
  if (every) return { text: `WITH ${page(rows)} SELECT ${LOAD}, NULL, ${hits}`, values: params.values, every };
  // The rates it leaves out, found by index where the conditions allow (restCondition).
  if (wide)
    return {
      text: `WITH ${page(rows)} SELECT ${LOAD}, (${rowsOf(`ceilingrate_rows r WHERE ${restCondition(query, params, dictionaries)}`)}), ${hits}`,
      values: params.values,
      every,
    };
  // The matches, a keyword's in parts that may overlap (matchBranches; Node keeps each rate once), their codes
  // unordered (Node orders the places).
  const own = new Params();
  const inCodes = codesOrder(query) !== undefined;
  const columns = inCodes ? 'r.codes' : [...new Set(['r.id', 'r.codes', ...ranks])].join(', ');
  const matches = matchBranches(query, own, dictionaries).map(({ from, where }) => `SELECT ${columns} FROM ${from} WHERE ${where}`);
  if (inCodes) return { text: `SELECT ${LOAD}, (${rowsOf(`(${matches.join(' UNION ALL ')}) m`)}), NULL`, values: own.values, every };
  // Another order: the matches once, their codes and their page read from there.
  return {
    text: `WITH m AS MATERIALIZED (${matches.join(' UNION ')}), ${page('m r')} SELECT ${LOAD}, (${rowsOf('m')}), ${hits}`,
    values: own.values,
    every,
  };
}

/** The page of ids `ids` (picked by Node from a search's codes), with the load it sees. */
function pageStatement(query: CeilingRatesQuery, ids: readonly number[]): { text: string; values: unknown[] } {
  return {
    text: `SELECT ${LOAD}, ${pageJson(query, 'unnest($1::int8[]) WITH ORDINALITY AS p(id, n)', 'p.n')}`,
    values: [ids],
  };
}

/**
 * The share of the rates above which a search is answered as every rate less the rest. High, because the
 * planner guesses text conditions coarsely (a filter's subplan over the terms is estimated, not counted), and a
 * narrow search taken for a wide one costs a pass over every rate it does not match.
 */
const WIDE = 0.9;

/**
 * Whether a search matches most rates, by the planner's estimate of its matches (a plan, not a count: well
 * under a millisecond). Either way the answer is the same; only the work differs.
 */
async function isWide(pool: pg.Pool, query: CeilingRatesQuery, tables: LoadTables): Promise<boolean> {
  const params = new Params();
  const where = matchCondition(query, null, params, dictionariesOf(tables));
  if (where === 'true') return false;
  if (keywordRows(query, tables) <= WIDE * tables.records) return false;
  const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>({
    text: `EXPLAIN (FORMAT JSON) SELECT 1 FROM ceilingrate_rows r WHERE ${where}`,
    values: params.values,
  });
  return rows[0]['QUERY PLAN'][0].Plan['Plan Rows'] > WIDE * tables.records;
}

/**
 * At most how many rates a search's keyword lets match (every rate without one): the rows of the values it was
 * matched against, counted by the load's dictionaries. The other conditions only narrow it, so a keyword this
 * count shows narrow needs no plan (the planner's estimate cost 2-7 ms).
 */
function keywordRows(query: CeilingRatesQuery, tables: LoadTables): number {
  const needle = query.keyword === null ? '' : fold(query.keyword.trim());
  if (needle === '') return tables.records;
  const dictionaries = dictionariesOf(tables);
  let rows = 0;
  for (const field of SEARCH_FIELDS) {
    const counts = tables.rows[field] ?? [];
    for (const code of dictionaries.containing(field, needle)) rows += counts[code] ?? 0;
  }
  return rows;
}

/**
 * No load holds rates (none yet, or they were removed while a search read them): the API's 503, as for a
 * database that holds none, found by the statements themselves rather than by a query before each request.
 */
export class RatesRemoved extends Error {
  constructor() {
    super('no load holds ceiling rates');
  }
}

type PageRow = [number, string, ...(string | number | null)[]];
/** A search's row: see searchStatement. */
type SearchRow = [load: string | null, rows: Uint8Array | null, page: PageRow[] | null];

/** What a search read: the load's tables, the codes of its matches (or rest), its page, and the price column when its sums need it. */
interface SearchRead {
  tables: LoadTables;
  /** The codes that came (none for a search with no condition, or one matching nothing). */
  rows: RowCodes;
  /** No condition: every rate matches, and the load's counts are the search's. */
  every: boolean;
  page: PageRow[];
  wide: boolean;
  prices: Float64Array | null;
}

/** A search's reads, all of one load. */
async function searchRead(pool: pg.Pool, query: CeilingRatesQuery): Promise<SearchRead> {
  // The statement is written with the load's dictionaries; a load may commit before it runs, or between it and
  // the reads after it: then the search is made again, with the tables of the load it saw.
  for (let tables = await currentTables(pool); ;) {
    if (!tables) throw new RatesRemoved();
    const wide = await isWide(pool, query, tables);
    const { every, ...statement } = searchStatement(query, wide, dictionariesOf(tables));
    const [load, bytes, sqlPage] = (await pool.query({ ...statement, rowMode: 'array' })).rows[0] as SearchRow;
    let seen = load;
    let page = sqlPage;
    // Read with the tables of the load the statement saw; a page the codes hold is picked from them.
    const rows = rowCodesOf(seen === tables.load ? bytes : null, tables.records);
    if (seen === tables.load && page === null) {
      const offset = (query.page - 1) * query.pageSize;
      const ids = pageOf(rows, codesOrder(query)!, offset, query.pageSize, tables.prices.length, tables.records);
      [seen, page] = (await pool.query({ ...pageStatement(query, ids), rowMode: 'array' })).rows[0] as [string | null, PageRow[]];
    }
    if (seen === null) throw new RatesRemoved();
    if (seen !== tables.load) {
      tables = (await loadTables(pool, seen)) ?? (await currentTables(pool));
      continue;
    }
    // A wide search's sums are added over the price column less its rest (none, it may be), a narrow one's over
    // its matches (when any came).
    const summed = wide || rows.n > 0;
    const prices = summed ? await priceColumn(pool, tables) : null;
    if (!summed || prices) return { tables, rows, every, page: page!, wide, prices };
    tables = await currentTables(pool);
  }
}

async function search(pool: pg.Pool, query: CeilingRatesQuery, started: number): Promise<ApiResponse> {
  const { tables, rows, every, page, wide, prices } = await searchRead(pool, query);
  const parts = countedParts(tables, every ? null : fromRows(rows), wide);
  const { min, max } = parts;
  let sums: PriceSums;
  if (every) sums = { count: parts.priced, ...tables.sums, min, max };
  else if (wide) sums = { count: parts.priced, ...priceSums(prices!, { rows: null, rest: placesOf(rows, tables.records) }, min, max), min, max };
  // No priced match: no places came, and no price is read.
  else sums = { count: parts.priced, ...priceSums(prices ?? new Float64Array(0), { rows: placesOf(rows, tables.records) }, min, max), min, max };
  const aggregations = aggregationsFrom({
    matches: parts.matches,
    terms: parts.terms,
    education: educationBuckets(parts.educationCounts),
    prices: parts.prices,
    sums,
  });
  const doubles = query.ordering.map(({ field }) => DOUBLE_SORT.has(field));
  const hits = page.map(([id, source, ...sort]) => hitJson(Number(id), source, sort, doubles));
  return respondJson(envelopeJson(started, parts.matches, hits, aggregationsJson(aggregations)));
}

/** suggest-contains: the matches' count and the field's term buckets over them (size 100), from their codes. */
async function suggestContains(pool: pg.Pool, query: CeilingRatesQuery, contains: FieldText, started: number): Promise<ApiResponse> {
  for (let tables = await currentTables(pool); ;) {
    if (!tables) throw new RatesRemoved();
    const params = new Params();
    const where = matchCondition(query, contains, params, dictionariesOf(tables));
    const result = await pool.query({
      text: `SELECT (SELECT ${LOAD_IDENTITY} FROM ceilingrates_loads l), string_agg(int4send(r.${codeColumn(contains.field)}), ''::bytea)
             FROM ceilingrate_rows r WHERE ${where}`,
      values: params.values,
      rowMode: 'array',
    });
    const [load, codes] = result.rows[0] as [string | null, Uint8Array | null];
    if (load === null) throw new RatesRemoved();
    if (load !== tables.load) {
      tables = (await loadTables(pool, load)) ?? (await currentTables(pool));
      continue;
    }
    const values = tables.values[contains.field] ?? [];
    const counts = new Float64Array(values.length);
    const view = codes ? new DataView(codes.buffer, codes.byteOffset, codes.byteLength) : null;
    for (let at = 0; view && at < view.byteLength; at += 4) counts[view.getInt32(at)]++;
    return respond(200, envelope(started, (codes?.byteLength ?? 0) / 4, [], { [contains.field]: terms(counts, values, SUGGEST_CONTAINS_SIZE) }));
  }
}

/** suggest: per parameter, up to five distinct values beginning with the text, byte order, each with its lowest id. */
async function suggest(pool: pg.Pool, specs: readonly FieldText[]): Promise<ApiResponse> {
  const entries = [];
  for (const spec of specs) {
    const prefix = fold(spec.text.trim());
    const options = !prefix.includes('\u0000')
      ? (
          await pool.query<{ value: string; first_id: string }>(
            `SELECT value, first_id FROM ceilingrate_terms WHERE field = $1 AND value IS NOT NULL AND starts_with(folded, $2) ORDER BY code LIMIT ${SUGGEST_SIZE}`,
            [spec.field, prefix],
          )
        ).rows.map(({ value, first_id }) => ({ text: value, id: Number(first_id) }))
      : [];
    entries.push(suggestEntryOf(spec, options));
  }
  return respondJson(suggestJson(suggestBodyOf(specs, entries)));
}

/** export=y: the matches in the requested order, up to the result window, as the engine's CSV. */
async function exportCsv(pool: pg.Pool, query: CeilingRatesQuery, ctx: RouteContext): Promise<ApiResponse> {
  // The statement is written with the load's dictionaries, so it runs in a snapshot that has seen which load
  // that is (repeatable read: the load read first is the one the export reads).
  const client = await pool.connect();
  try {
    for (;;) {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const seen = await client.query({ text: `SELECT ${LOAD_IDENTITY} FROM ceilingrates_loads l`, rowMode: 'array' });
      const load = (seen.rows[0]?.[0] ?? null) as string | null;
      if (load === null) throw new RatesRemoved();
      const tables = await loadTables(pool, load);
      if (!tables) {
        await client.query('ROLLBACK');
        continue;
      }
      const params = new Params();
      const where = matchCondition(query, null, params, dictionariesOf(tables));
      const result = await client.query({
        text: `SELECT ${EXPORT_FIELDS.map((f) => `c.${quote(f)}`).join(', ')} FROM ceilingrate_rows r JOIN ceilingrates c ON c.id = r.id
               WHERE ${where} ORDER BY ${orderBy(query, 'r')} LIMIT ${RESULT_WINDOW}`,
        values: params.values,
        rowMode: 'array',
      });
      await client.query('COMMIT');
      const lines = (result.rows as (string | number | null)[][]).map((cells) => csvLine(cells) + '\r\n');
      return csv(exportHead(ctx.query) + lines.join(''));
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export async function searchCeilingRates(pool: pg.Pool, ctx: RouteContext): Promise<ApiResponse> {
  const started = performance.now();
  const parsed = parseSearch(ctx);
  if ('refused' in parsed) return parsed.refused;
  const { query } = parsed;
  // suggest reads no load's identity: it asks first whether one is there.
  if (query.suggest.length > 0) {
    const { rows } = await pool.query('SELECT 1 FROM ceilingrates_loads LIMIT 1');
    if (rows.length === 0) throw new RatesRemoved();
    return suggest(pool, query.suggest);
  }
  if (query.suggestContains) {
    const { field, tooShort } = query.suggestContains;
    // Under the minimum length (a typeahead's first key press): the same shape, matching nothing.
    if (tooShort) return respond(200, envelope(started, 0, [], { [field]: bucketsAggregation([], 0) }));
    return suggestContains(pool, query, query.suggestContains, started);
  }
  if (query.export) return exportCsv(pool, query, ctx);
  return search(pool, query, started);
}
