/**
 * The analytic peer: native DuckDB answering the same request mix over the same records with SQL. The
 * records are copied from the sql.js database once (untimed, like the engine's bind), with the text rules
 * the filters need (SIN codes, list elements, worksite words, clearance class) derived in SQL at load.
 * Per request, the parsed query becomes one WHERE clause and three statements over the matches: the page,
 * every term aggregation (one scan with grouping sets, top-N by a window), and count/statistics/exact quantiles
 * (`quantile_cont`) with the distinct-price counts the histogram clusters (same k-means as the engine,
 * run on the counts SQL returns). Answers follow the API's rules: term ties by key in byte order of the
 * string key, `education_level_counts`, histogram `key` the mean of the prices inside.
 */
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { Database } from 'sql.js';
import { parseQuery, RESULT_WINDOW, type CeilingRatesQuery } from '../../engine/ceilingrates/parse-query.ts';
import { whereSql, type Dialect, type Where as WhereOf } from './where-sql.ts';
import { PERCENTILES, TERM_SIZES } from '../../engine/ceilingrates/query/aggregations.ts';
import { statsFrom, type WageStats } from '../../engine/ceilingrates/query/wage-stats.ts';
import { wageHistogram, type HistogramBucket } from '../../engine/ceilingrates/query/histogram.ts';
import { SUGGEST_CONTAINS_SIZE, SUGGEST_SIZE } from '../../engine/ceilingrates/query/suggest.ts';
import { CEILINGRATES_TABLE, RECORD_FIELDS } from '../../engine/ceilingrates/record.ts';

const RAW = 'raw_rates';
const T = 'rates';
const EDUCATION_CODES = ['AA', 'BA', 'HS', 'MA', 'PHD', 'TEC'];

export interface TermsAnswer {
  sum_other_doc_count: number;
  buckets: { key: string; doc_count: number }[];
}

/** What both sides are compared on: the page's ids, the total and every aggregation. */
export interface Answer {
  total?: number;
  ids?: string[];
  terms?: Record<string, TermsAnswer>;
  stats?: WageStats;
  percentiles?: Record<string, number | null>;
  histogram?: HistogramBucket[];
  suggest?: Record<string, { text: string; _id: string }[][]>;
}

/** Term aggregations of a search: the engine's seven plus education_level_counts, as SQL key expressions. */
const TERM_EXPRESSIONS: [string, string, number][] = [
  ['labor_category', 'labor_category', TERM_SIZES.labor_category],
  ['security_clearance', 'security_clearance', 10],
  ['worksite', 'worksite', 10],
  // A whole number of years as the engine writes it ("5", not DuckDB's "5.0" of a DOUBLE column).
  [
    'min_years_experience',
    'CASE WHEN min_years_experience = floor(min_years_experience) THEN CAST(CAST(min_years_experience AS BIGINT) AS VARCHAR) ELSE CAST(min_years_experience AS VARCHAR) END',
    TERM_SIZES.min_years_experience,
  ],
  ['education_level', 'education_level', 10],
  ['current_price', "printf('%.2f', current_price)", TERM_SIZES.current_price],
  ['business_size', 'business_size', 10],
  [
    'education_level_counts',
    `CASE WHEN upper(trim(education_level)) IN (${EDUCATION_CODES.map((c) => `'${c}'`).join(',')}) THEN upper(trim(education_level)) END`,
    10,
  ],
];

export class DuckDbPeer {
  private constructor(private readonly connection: DuckDBConnection) {}

  /** Copies the records into an in-memory DuckDB database and derives the filter columns. */
  static async load(db: Database, threads: number): Promise<DuckDbPeer> {
    const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
    const connection = await instance.connect();
    const types = db.exec(`SELECT name, type FROM pragma_table_info('${CEILINGRATES_TABLE}')`)[0].values as [string, string][];
    // SQLite keeps a fraction in an INTEGER column as it came (the real price lists' 0.5 years of experience).
    const fractional = (name: string): boolean => db.exec(`SELECT 1 FROM ${CEILINGRATES_TABLE} WHERE typeof(${name}) = 'real' LIMIT 1`).length > 0;
    const typeOf = new Map(
      types.map(([name, type]) => [name, type === 'INTEGER' && !fractional(name) ? 'BIGINT' : type === 'REAL' || type === 'INTEGER' ? 'DOUBLE' : 'VARCHAR']),
    );
    await connection.run(`CREATE TABLE ${RAW} (${RECORD_FIELDS.map((f) => `${f} ${typeOf.get(f)}`).join(', ')})`);
    const appender = await connection.createAppender(RAW);
    const statement = db.prepare(`SELECT ${RECORD_FIELDS.join(', ')} FROM ${CEILINGRATES_TABLE}`);
    const kinds = RECORD_FIELDS.map((f) => typeOf.get(f));
    try {
      while (statement.step()) {
        const row = statement.get();
        row.forEach((value, i) => {
          if (value === null) appender.appendNull();
          else if (kinds[i] === 'BIGINT') appender.appendBigInt(BigInt(value as number));
          else if (kinds[i] === 'DOUBLE') appender.appendDouble(value as number);
          else appender.appendVarchar(String(value));
        });
        appender.endRow();
      }
    } finally {
      statement.free();
    }
    appender.closeSync();
    // The same text rules as the engine's (engine/ceilingrates/text.ts), in SQL.
    await connection.run(`
      CREATE TABLE ${T} AS SELECT *,
        list_transform(
          list_filter(regexp_split_to_array(sin, '[,;/\\s]+'), x -> x <> '' AND lower(x) <> 'and'),
          x -> regexp_replace(x, '\\.\\d+$', '')) AS sin_codes,
        list_filter(list_transform(string_split(category, ';'), x -> trim(x)), x -> x <> '') AS category_list,
        list_filter(list_transform(string_split(subcategory, ';'), x -> trim(x)), x -> x <> '') AS subcategory_list,
        ' ' || array_to_string(list_filter(regexp_split_to_array(lower(worksite), '[^\\p{L}\\p{N}]+'), x -> x <> ''), ' ') || ' ' AS worksite_words,
        CASE WHEN lower(trim(security_clearance)) IN ('yes', 'true') THEN 'yes'
             WHEN lower(trim(security_clearance)) IN ('no', 'none', 'n/a', 'false') THEN 'no' END AS clearance_class
      FROM ${RAW} ORDER BY id`);
    await connection.run(`DROP TABLE ${RAW}`);
    return new DuckDbPeer(connection);
  }

  private async rows(sql: string, params: DuckDBValue[]): Promise<unknown[][]> {
    const reader = await this.connection.runAndReadAll(sql, params);
    return reader.getRowsJS() as unknown[][];
  }

  async answer(url: string): Promise<Answer> {
    const query = parseQuery(new URL(url, 'http://localhost').searchParams);
    if (query.suggest.length) {
      const suggest: Answer['suggest'] = {};
      for (const s of query.suggest) {
        const rows = await this.rows(
          `SELECT ${s.field}, MIN(id) FROM ${T} WHERE starts_with(lower(${s.field}), ?) GROUP BY ${s.field} ORDER BY ${s.field} LIMIT ${SUGGEST_SIZE}`,
          [s.text.trim().toLowerCase()],
        );
        (suggest[`${s.field}-suggestion`] ??= []).push(rows.map(([text, id]) => ({ text: String(text), _id: String(id) })));
      }
      return { suggest };
    }
    if (query.suggestContains) {
      const { field, text } = query.suggestContains;
      const w = where(query, [`contains(lower(${field}), ?)`], [text.trim().toLowerCase()]);
      const terms = await this.terms(w, [[field, field, SUGGEST_CONTAINS_SIZE]]);
      const [[count]] = await this.rows(`SELECT COUNT(*) FROM ${T} ${w.sql}`, w.params);
      return { total: Math.min(Number(count), RESULT_WINDOW), terms };
    }
    const w = where(query);
    const offset = (query.page - 1) * query.pageSize;
    const page = await this.rows(`SELECT * FROM ${T} ${w.sql} ORDER BY ${orderSql(query)} LIMIT ${query.pageSize} OFFSET ${offset}`, w.params);
    const terms = await this.terms(w, TERM_EXPRESSIONS);
    const quantiles = [50, ...PERCENTILES].map((p) => p / 100).join(', ');
    const [[count, priced, min, max, sum, squares, qs]] = await this.rows(
      `SELECT COUNT(*), COUNT(current_price), MIN(current_price), MAX(current_price), SUM(current_price),
              SUM(current_price * current_price), quantile_cont(current_price, [${quantiles}])
       FROM ${T} ${w.sql}`,
      w.params,
    );
    const counts = await this.rows(
      `SELECT current_price, COUNT(*) FROM ${T} ${w.sql}${w.sql ? ' AND' : ' WHERE'} current_price IS NOT NULL GROUP BY 1 ORDER BY 1`,
      w.params,
    );
    const n = Number(count);
    const [median, ...rest] = (qs as number[] | null) ?? Array<null>(PERCENTILES.length + 1).fill(null);
    const percentiles: Record<string, number | null> = { median: median };
    PERCENTILES.forEach((p, i) => (percentiles[p.toFixed(1)] = rest[i]));
    return {
      total: Math.min(n, RESULT_WINDOW),
      ids: page.map((row) => String(row[0])),
      terms,
      stats: statsFrom({ count: Number(priced), sum: (sum as number) ?? 0, sumOfSquares: (squares as number) ?? 0, min: min as number, max: max as number }),
      percentiles,
      histogram: histogramWithMeans(counts as [number, bigint | number][]),
    };
  }

  /** Every term aggregation in one scan of the matches (grouping sets): top `size` by count, ties by key in byte order. */
  private async terms(w: Where, expressions: [string, string, number][]): Promise<Record<string, TermsAnswer>> {
    const keys = expressions.map(([, expression], i) => `${expression} AS k${i}`).join(', ');
    const which = `CASE ${expressions.map((_, i) => `WHEN GROUPING(k${i}) = 0 THEN ${i}`).join(' ')} END`;
    const key = `CASE ${expressions.map((_, i) => `WHEN GROUPING(k${i}) = 0 THEN k${i}`).join(' ')} END`;
    const sets = expressions.map((_, i) => `(k${i})`).join(', ');
    const sizes = `CASE agg ${expressions.map(([, , size], i) => `WHEN ${i} THEN ${size}`).join(' ')} END`;
    const rows = await this.rows(
      `WITH g AS (SELECT ${which} AS agg, ${key} AS k, COUNT(*) AS c FROM (SELECT ${keys} FROM ${T} ${w.sql}) GROUP BY GROUPING SETS (${sets}))
       SELECT agg, k, c, SUM(c) OVER (PARTITION BY agg) AS total
       FROM g WHERE k IS NOT NULL
       QUALIFY row_number() OVER (PARTITION BY agg ORDER BY c DESC, k COLLATE "binary") <= ${sizes}
       ORDER BY agg, c DESC, k COLLATE "binary"`,
      w.params,
    );
    const out: Record<string, TermsAnswer> = {};
    const totals = new Map<number, number>();
    for (const [name] of expressions) out[name] = { sum_other_doc_count: 0, buckets: [] };
    for (const [agg, k, c, total] of rows) {
      const name = expressions[Number(agg)][0];
      out[name].buckets.push({ key: String(k), doc_count: Number(c) });
      totals.set(Number(agg), Number(total));
    }
    expressions.forEach(([name], i) => {
      out[name].sum_other_doc_count = (totals.get(i) ?? 0) - out[name].buckets.reduce((s, b) => s + b.doc_count, 0);
    });
    return out;
  }
}

/** The engine's clustering over the distinct-price counts SQL returned; each key the mean of its prices. */
function histogramWithMeans(rows: [number, bigint | number][]): HistogramBucket[] {
  const m = rows.length;
  const values = Float64Array.from(rows, (r) => r[0]);
  const counts = Float64Array.from(rows, (r) => Number(r[1]));
  const buckets = wageHistogram({ values, counts, m });
  let i = 0;
  return buckets.map((b) => {
    let sum = 0;
    for (; i < m && values[i] <= b.max; i++) sum += values[i] * counts[i];
    return { ...b, key: sum / b.doc_count };
  });
}

/** DuckDB: the list, word and class columns prepared at load; `contains` for the keyword. */
const DUCKDB: Dialect<DuckDBValue> = {
  keyword(text, params) {
    const needle = text.trim().toLowerCase();
    params.push(needle, needle, needle);
    return '(contains(lower(labor_category), ?) OR contains(lower(vendor_name), ?) OR contains(lower(idv_piid), ?))';
  },
  sin: (code, params) => (params.push(code), 'list_contains(sin_codes, ?)'),
  listHas: (field, value, params) => (params.push(value), `list_contains(${field}_list, ?)`),
  worksiteWords: (phrase, params) => (
    params.push(
      ` ${phrase
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
        .join(' ')} `,
    ),
    'contains(worksite_words, ?)'
  ),
  clearanceIs: (cls, params) => (params.push(cls), 'clearance_class = ?'),
};

type Where = WhereOf<DuckDBValue>;
const where = (query: CeilingRatesQuery, extra: string[] = [], extraParams: DuckDBValue[] = []): Where => whereSql(query, DUCKDB, extra, extraParams);

/** Nulls last in both directions, text in byte order, ties on id. Fields the records lack order as null. */
function orderSql(query: CeilingRatesQuery): string {
  const columns = new Set<string>(RECORD_FIELDS);
  return [...query.ordering.map(({ field, desc }) => `${columns.has(field) ? field : 'NULL'} ${desc ? 'DESC' : 'ASC'} NULLS LAST`), 'id ASC'].join(', ');
}
