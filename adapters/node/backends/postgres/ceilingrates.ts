/**
 * The ceiling rates' store over Postgres (engine/ceilingrates/answer-search.ts `RatesStore`): the engine plans
 * each query with the load's tables (ceilingrates-loaded.ts) and answers it; Postgres only finds the rows the
 * plan selects (ceilingrates-query.ts) and hands back their places, from which the engine makes the match set
 * it counts, or hands back a page, a field's codes or the export's cells. A search is one statement (one MVCC
 * snapshot even while a load commits), or two when Node picks the page; each returns the load it saw.
 */
import type pg from 'pg';
import { RESULT_WINDOW, type CeilingRatesQuery, type FieldText } from '../../../../engine/ceilingrates/parse-query.ts';
import { answerLater, answerSearch, type FieldCodes, type Found, type PageHit, type RatesStore } from '../../../../engine/ceilingrates/answer-search.ts';
import { inRanges, matchPlan, matchesEvery, type MatchPlan } from '../../../../engine/ceilingrates/query/match-plan.ts';
import { matchSetOfRows, type MatchSet } from '../../../../engine/ceilingrates/query/match-set.ts';
import { topRows } from '../../../../engine/ceilingrates/query/order.ts';
import { COMBO_FIELDS } from '../../../../engine/ceilingrates/columns/combos.ts';
import { csvLine, EXPORT_FIELDS } from '../../../../engine/ceilingrates/export.ts';
import type { RatesTables } from '../../../../engine/ceilingrates/rates-tables.ts';
import type { RouteContext } from '../../../../engine/http/routes.ts';
import type { ApiResponse } from '../../../../engine/http/types.ts';
import { codeColumn, rankColumn } from './ceilingrates-tables.ts';
import { coveredPlan, isRecordOrderField, orderBy, orderFields, Params, planBranches, planCondition, restCondition } from './ceilingrates-query.ts';
import { int4sOf, LOAD_IDENTITY, loadedRates, type LoadedRates } from './ceilingrates-loaded.ts';
import { quote } from './quote.ts';

const LOAD = `(SELECT ${LOAD_IDENTITY} FROM ceilingrates_loads l)`;

/**
 * No load holds rates (none yet, or they were removed while a search read them): the API's 503, as for a
 * database that holds none, found by the statements themselves rather than by a query before each request.
 */
export class RatesRemoved extends Error {
  constructor() {
    super('no load holds ceiling rates');
  }
}

/**
 * A page's hits as JSON, in order, from `from` (a relation `p` holding the page's ids): each its id, `_source`
 * and `sort` values (the record's value of each key's field, null for the fields no record holds).
 */
function pageJson(query: CeilingRatesQuery, from: string, order: string): string {
  const sortValues = query.ordering.map(({ field }) => (isRecordOrderField(field) ? `c.${quote(field)}` : 'NULL'));
  return `(SELECT coalesce(json_agg(json_build_array(c.id, c.source, ${sortValues.join(', ')}) ORDER BY ${order}), '[]'::json)
         FROM ${from} JOIN ceilingrates c ON c.id = p.id)`;
}

type PageRow = [number, string, ...(string | number | null)[]];
const hitsOf = (rows: PageRow[]): PageHit[] => rows.map(([id, source, ...sort]) => ({ id: Number(id), source, sort }));

/** Whether Node holds the order of a query's page (the price's, or none: id order), so it picks the page from the match set. */
const nodeOrdered = (query: CeilingRatesQuery): boolean => orderFields(query).every(({ field }) => field === 'current_price');

/**
 * The share of the rates above which a search is answered as every rate less the rest: the rest's places are
 * handed back (found by index where the conditions allow: restCondition), not nine in ten rates'.
 */
const WIDE = 0.9;

/**
 * Whether a plan surely matches most rates: the rates each condition leaves out at most (from the load's
 * rows per code, per price rank and per experience value), added, are few. No statement asked: a bound, not
 * an estimate, and either way the answer is the same; only the work differs.
 */
function isWide(plan: MatchPlan, { tables, rows }: LoadedRates): boolean {
  if (matchesEvery(plan)) return true;
  const { size, aggregator, priceOrder, dicts } = tables;
  const every = aggregator.everyRowCounts();
  let rest = plan.exclude.length;
  for (const condition of plan.codes) {
    let most = 0;
    for (const { field, allowed } of condition) {
      let n = 0;
      for (let code = 0; code < allowed.length; code++) if (allowed[code]) n += rows[field][code];
      most = Math.max(most, n);
    }
    rest += size - most;
  }
  for (const { field, ranges } of plan.ranges) {
    let n = 0;
    if (field === 'current_price') priceOrder.rankValues!.forEach((price, rank) => (n += inRanges(price, ranges) ? every.ranks[rank] : 0));
    else {
      const counts = every.fields[COMBO_FIELDS.indexOf('min_years_experience')];
      dicts.experienceKeys.values.forEach((key, code) => (n += key !== null && inRanges(Number(key), ranges) ? counts[code] : 0));
    }
    rest += size - n;
  }
  return rest <= (1 - WIDE) * size;
}

/**
 * A search's statement: the load it sees, the places of its matches (or for a wide search of the rates it
 * leaves out, none when that is none), and its page unless Node picks it (a narrow search in an order Node
 * holds). The page is read from the rows with the condition, so the planner can walk the order's index and
 * stop at the page's end; a narrow search's parts are read once and their page picked from them.
 */
function searchStatement(query: CeilingRatesQuery, plan: MatchPlan, wide: boolean): { text: string; values: unknown[] } {
  const params = new Params();
  const ranks = orderFields(query).map(({ field }) => `r.${rankColumn(field)}`);
  const offset = (query.page - 1) * query.pageSize;
  const hits = pageJson(query, 'page p', orderBy(query, 'p'));
  const page = (from: string): string =>
    `page AS (SELECT ${['r.id', ...ranks].join(', ')} FROM ${from} ORDER BY ${orderBy(query, 'r')} LIMIT ${query.pageSize} OFFSET ${offset})`;
  const places = (from: string): string => `(SELECT string_agg(place, ''::bytea) FROM ${from})`;
  if (wide) {
    const rest = restCondition(plan, params);
    const restPlaces = rest === 'false' ? 'NULL::bytea' : places(`ceilingrate_rows r WHERE ${rest}`);
    return { text: `WITH ${page(`ceilingrate_rows r WHERE ${planCondition(plan, params)}`)} SELECT ${LOAD}, ${restPlaces}, ${hits}`, values: params.values };
  }
  const ordered = nodeOrdered(query);
  const columns = ordered ? 'r.place' : [...new Set(['r.id', 'r.place', ...ranks])].join(', ');
  const parts = planBranches(plan, params, ordered && coveredPlan(plan)).map(({ from, where }) => `SELECT ${columns} FROM ${from} WHERE ${where}`);
  if (ordered) return { text: `SELECT ${LOAD}, ${places(`(${parts.join(' UNION ALL ')}) r`)}, NULL`, values: params.values };
  // Another order: the matches once, their places and their page read from there.
  return { text: `WITH m AS MATERIALIZED (${parts.join(' UNION ')}), ${page('m r')} SELECT ${LOAD}, ${places('m r')}, ${hits}`, values: params.values };
}

/**
 * The rates of one database as the engine's store. A statement is written with the cached load's tables; a load
 * may commit before it runs or between two: then the search is planned again, with the tables of the load the
 * statement saw.
 */
class PostgresRates implements RatesStore {
  constructor(private readonly pool: pg.Pool) {}

  /** The tables of the load of `seen` (else of the cached or the database's load); no load: the 503. */
  private async loaded(seen?: string | null): Promise<LoadedRates> {
    if (seen === null) throw new RatesRemoved();
    const loaded = await loadedRates(this.pool, seen);
    if (!loaded) throw new RatesRemoved();
    return loaded;
  }

  async tables(): Promise<RatesTables> {
    const { rows } = await this.pool.query({ text: `SELECT ${LOAD_IDENTITY} FROM ceilingrates_loads l`, rowMode: 'array' });
    return (await this.loaded((rows[0]?.[0] ?? null) as string | null)).tables;
  }

  async find(query: CeilingRatesQuery): Promise<Found> {
    for (let loaded = await this.loaded(); ;) {
      const plan = matchPlan(loaded.tables, query);
      const wide = isWide(plan, loaded);
      const [load, bytes, hits] = (await this.pool.query({ ...searchStatement(query, plan, wide), rowMode: 'array' })).rows[0] as [
        string | null,
        Uint8Array | null,
        PageRow[] | null,
      ];
      if (load !== loaded.load) {
        loaded = await this.loaded(load);
        continue;
      }
      const places = int4sOf(bytes);
      if (hits) return { tables: loaded.tables, match: matchSetOfRows(loaded.tables.buffers, places, wide), page: hitsOf(hits) };
      // Node picks the page in the order it holds; the match set's buffers are shared, so it is made again
      // after the page's statement, with nothing awaited between it and the counting.
      const ids = this.pickPage(query, loaded, matchSetOfRows(loaded.tables.buffers, places, wide));
      const [seen, page] = (await this.pool.query({ ...pageStatement(query, ids), rowMode: 'array' })).rows[0] as [string | null, PageRow[]];
      if (seen !== loaded.load) {
        loaded = await this.loaded(seen);
        continue;
      }
      return { tables: loaded.tables, match: matchSetOfRows(loaded.tables.buffers, places, wide), page: hitsOf(page) };
    }
  }

  /** The places of the page of a match set, by the engine's order (topRows) over the columns Node holds. */
  private pickPage(query: CeilingRatesQuery, { orders }: LoadedRates, match: MatchSet): number[] {
    const keys = query.ordering.map(({ field, desc }) => ({ column: orders.get(field), desc }));
    const offset = (query.page - 1) * query.pageSize;
    return topRows({ mask: match.mask, matches: match.rows ?? undefined, keys, limit: offset + query.pageSize }).slice(offset);
  }

  async fieldCodes(query: CeilingRatesQuery, contains: FieldText): Promise<FieldCodes> {
    for (let loaded = await this.loaded(); ;) {
      const params = new Params();
      const where = planCondition(matchPlan(loaded.tables, query, contains), params);
      const { rows } = await this.pool.query({
        text: `SELECT ${LOAD}, string_agg(int4send(r.${codeColumn(contains.field)}), ''::bytea) FROM ceilingrate_rows r WHERE ${where}`,
        values: params.values,
        rowMode: 'array',
      });
      const [load, bytes] = rows[0] as [string | null, Uint8Array | null];
      if (load !== loaded.load) {
        loaded = await this.loaded(load);
        continue;
      }
      const codes = int4sOf(bytes);
      return { tables: loaded.tables, count: codes.length, codes };
    }
  }

  async exportRows(query: CeilingRatesQuery): Promise<string> {
    // The statement is written with the load's tables, so it runs in a snapshot that has seen which load
    // that is (repeatable read: the load read first is the one the export reads).
    const client = await this.pool.connect();
    try {
      for (;;) {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const seen = await client.query({ text: `SELECT ${LOAD_IDENTITY} FROM ceilingrates_loads l`, rowMode: 'array' });
        const loaded = await this.loaded((seen.rows[0]?.[0] ?? null) as string | null);
        if (loaded.load !== seen.rows[0][0]) {
          await client.query('ROLLBACK');
          continue;
        }
        const params = new Params();
        const where = planCondition(matchPlan(loaded.tables, query), params);
        const result = await client.query({
          text: `SELECT ${EXPORT_FIELDS.map((f) => `c.${quote(f)}`).join(', ')} FROM ceilingrate_rows r JOIN ceilingrates c ON c.id = r.id
                 WHERE ${where} ORDER BY ${orderBy(query, 'r')} LIMIT ${RESULT_WINDOW}`,
          values: params.values,
          rowMode: 'array',
        });
        await client.query('COMMIT');
        return (result.rows as (string | number | null)[][]).map((cells) => csvLine(cells) + '\r\n').join('');
      }
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}

/** The page of places `rows` (picked by Node from a search's match set), with the load it sees. */
function pageStatement(query: CeilingRatesQuery, rows: readonly number[]): { text: string; values: unknown[] } {
  const from = '(SELECT r.id, p.n FROM unnest($1::int4[]) WITH ORDINALITY AS p(pos, n) JOIN ceilingrate_rows r ON r.pos = p.pos) p';
  return { text: `SELECT ${LOAD}, ${pageJson(query, from, 'p.n')}`, values: [rows] };
}

/** Per database (pool), its store. */
const stores = new WeakMap<pg.Pool, PostgresRates>();

export function searchCeilingRates(pool: pg.Pool, ctx: RouteContext): Promise<ApiResponse> {
  let store = stores.get(pool);
  if (!store) stores.set(pool, (store = new PostgresRates(pool)));
  return answerLater(answerSearch(store, ctx));
}
