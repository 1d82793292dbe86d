/**
 * The tables the ceiling rates are answered from, written at load from the engine's own index of them, so
 * every value keeps the engine's code:
 *
 * - `ceilingrate_terms`: each distinct value of each planned field (query/match-plan.ts) and of the numeric
 *   term keys under its code, which is the engine's byte-order rank of the value (null last), with the lowest
 *   id carrying it (suggest) and its rows (what a condition allowing it can match at most).
 * - `ceilingrate_combos` and `ceilingrate_prices`: each combination's five field codes; each price rank's price
 *   and term key.
 * - `ceilingrate_rows`: per record its place in the engine's store (`pos`, and as the bytes a search hands
 *   back, `place`), its codes, price and experience, and its rank in each orderable field (null ranks are
 *   NULL, so they sort last either way).
 * - `ceilingrate_counted`: every rate's labor category, combination and price rank in store order, the rows
 *   the engine's aggregator counts (query/aggregator.ts), read once per load.
 *
 * The records themselves (for pages and the export) stay in `ceilingrates`, with the engine's `_source` JSON.
 */
import type pg from 'pg';
import type { Database } from 'sql.js';
import { ceilingRatesIndex } from '../../../../engine/ceilingrates/ceiling-rates-index.ts';
import { RECORD_ORDER_FIELDS, SEARCH_FIELDS, type RecordOrderField } from '../../../../engine/ceilingrates/parameters.ts';
import { COMBO_FIELDS, comboDictionary } from '../../../../engine/ceilingrates/columns/combos.ts';
import { TEXT_FIELDS } from '../../../../engine/ceilingrates/columns/store.ts';
import { PLANNED_FIELDS, type PlannedField } from '../../../../engine/ceilingrates/query/value-forms.ts';
import { copyRows } from './copy.ts';

/** The fields with terms: the planned ones and the numeric fields' term keys (`"27.00"`, `"3"`). */
export const TERM_FIELDS = [...PLANNED_FIELDS, 'experience_key', 'price_key'] as const;
export type TermField = (typeof TERM_FIELDS)[number];

/** The column of a record's code (its value's rank) in a planned field. */
export const codeColumn = (field: PlannedField): string => `c_${field}`;
/** The column of a record's rank in an orderable field. */
export const rankColumn = (field: RecordOrderField): string => `o_${field}`;

/** The field whose index covers a search's columns: a keyword matches by far the most rates through it. */
export const COVERED: PlannedField = 'labor_category';

/** The columns the covering index holds beside the labor category: what a narrow search reads of its matches and compares. */
export const COVERED_COLUMNS: readonly PlannedField[] = ['vendor_name', 'idv_piid', 'education_level', 'business_size', 'security_clearance', 'worksite'];

/** The orderable text fields (no record leaves them empty, schema.ts): an unconditioned page in their order is walked from an index. */
const ORDERED_TEXT = RECORD_ORDER_FIELDS.filter((f) => (TEXT_FIELDS as readonly string[]).includes(f));

/** The planned fields found by a plain code index: all but the covered one and the combination fields. */
const INDEXED_CODES: readonly PlannedField[] = [...SEARCH_FIELDS, 'sin', 'category', 'subcategory'].filter((f) => f !== COVERED) as PlannedField[];

/** Rates per row of `ceilingrate_counted` (768 KiB). */
const COUNTED_BLOCK = 65_536;

export const CEILINGRATE_TABLES_SQL = `
  CREATE TABLE IF NOT EXISTS ceilingrate_terms (
    field text NOT NULL,
    code integer NOT NULL,
    value text,
    first_id bigint,
    PRIMARY KEY (field, code)
  );
  ALTER TABLE ceilingrate_terms ADD COLUMN IF NOT EXISTS rows integer;
  -- Schema 6's text forms, which the engine computes from the values now.
  ALTER TABLE ceilingrate_terms DROP COLUMN IF EXISTS folded, DROP COLUMN IF EXISTS words, DROP COLUMN IF EXISTS clearance, DROP COLUMN IF EXISTS education;
  CREATE TABLE IF NOT EXISTS ceilingrate_combos (
    combo integer PRIMARY KEY,
    ${COMBO_FIELDS.map((f) => `c_${f === 'min_years_experience' ? 'experience_key' : f} integer NOT NULL`).join(',\n    ')}
  );
  CREATE TABLE IF NOT EXISTS ceilingrate_prices (rank integer PRIMARY KEY, price double precision NOT NULL, key integer NOT NULL);
  CREATE TABLE IF NOT EXISTS ceilingrate_rows (
    id bigint PRIMARY KEY,
    pos integer NOT NULL,
    c_combo integer NOT NULL,
    ${PLANNED_FIELDS.map((f) => `${codeColumn(f)} integer NOT NULL`).join(',\n    ')},
    current_price double precision,
    min_years_experience double precision,
    ${RECORD_ORDER_FIELDS.map((f) => `${rankColumn(f)} integer`).join(',\n    ')}
  );
  -- Schema 4's to 6's covering indexes, and their codes, which Node reads from ceilingrate_counted now, and the
  -- codes no condition names.
  DROP INDEX IF EXISTS ceilingrate_rows_by_${COVERED}, ceilingrate_rows_cover_${COVERED}, ceilingrate_rows_codes_by_${COVERED};
  ALTER TABLE ceilingrate_rows DROP COLUMN IF EXISTS codes, DROP COLUMN IF EXISTS c_schedule, DROP COLUMN IF EXISTS c_contract_start,
    DROP COLUMN IF EXISTS c_contract_end, DROP COLUMN IF EXISTS c_price_key, DROP COLUMN IF EXISTS c_experience_key;
  -- What a search hands back of a rate: its place, as bytes one aggregate concatenates.
  ALTER TABLE ceilingrate_rows ADD COLUMN IF NOT EXISTS place bytea GENERATED ALWAYS AS (int4send(pos)) STORED;
  ALTER TABLE ceilingrate_rows ALTER COLUMN place SET STORAGE PLAIN;
  CREATE UNIQUE INDEX IF NOT EXISTS ceilingrate_rows_by_pos ON ceilingrate_rows (pos);
  CREATE INDEX IF NOT EXISTS ceilingrate_rows_by_price ON ceilingrate_rows (${rankColumn('current_price')}, id);
  -- A search matching most rates reads the few it leaves out; a range's complement is ranges of these.
  CREATE INDEX IF NOT EXISTS ceilingrate_rows_by_current_price ON ceilingrate_rows (current_price);
  CREATE INDEX IF NOT EXISTS ceilingrate_rows_by_experience ON ceilingrate_rows (min_years_experience);
  ${ORDERED_TEXT.map((f) => `CREATE INDEX IF NOT EXISTS ceilingrate_rows_by_${rankColumn(f)} ON ceilingrate_rows (${rankColumn(f)}, id);`).join('\n  ')}
  ${INDEXED_CODES.map((f) => `CREATE INDEX IF NOT EXISTS ceilingrate_rows_by_${f} ON ceilingrate_rows (${codeColumn(f)});`).join('\n  ')}
  -- A keyword's matches by labor category (tens of thousands of rates) read from this index's few pages in
  -- code order (index-only), not from the table's pages, nearly all of which hold one.
  CREATE INDEX IF NOT EXISTS ceilingrate_rows_place_by_${COVERED} ON ceilingrate_rows (${codeColumn(COVERED)})
    INCLUDE (place, current_price, min_years_experience, ${COVERED_COLUMNS.map(codeColumn).join(', ')});
  CREATE TABLE IF NOT EXISTS ceilingrate_counted (block integer PRIMARY KEY, codes bytea NOT NULL);
  -- Already compact: not compressed, so reading it is a copy.
  ALTER TABLE ceilingrate_counted ALTER COLUMN codes SET STORAGE EXTERNAL;
  -- Schema 6's tables: SIN and list tokens, every rate's counts and prices (the engine's plan and aggregator now).
  DROP TABLE IF EXISTS ceilingrate_tokens, ceilingrate_counts, ceilingrate_price_column, ceilingrate_groups;
  ALTER TABLE ceilingrates_loads DROP COLUMN IF EXISTS sums, DROP COLUMN IF EXISTS totals;
`;

/**
 * What the load derives from the rows in SQL (and a migration from rows an older schema wrote): the counted
 * rows' blocks, and each planned value's rows.
 */
export const DERIVED_SQL = `
  DELETE FROM ceilingrate_counted;
  INSERT INTO ceilingrate_counted (block, codes)
    SELECT pos / ${COUNTED_BLOCK}, string_agg(int4send(${codeColumn('labor_category')}) || int4send(c_combo)
      || int4send(coalesce(${rankColumn('current_price')}, (SELECT count(*) FROM ceilingrate_prices)::int4)), ''::bytea ORDER BY pos)
    FROM ceilingrate_rows GROUP BY 1;
  UPDATE ceilingrate_terms t SET rows = g.n FROM (
    ${PLANNED_FIELDS.map((f) => `SELECT '${f}' AS field, ${codeColumn(f)} AS code, count(*)::int4 AS n FROM ceilingrate_rows GROUP BY 2`).join('\n    UNION ALL ')}
  ) g WHERE t.field = g.field AND t.code = g.code;
`;

const nullable = (x: number): number | null => (x === x ? x : null);

/** Write the rates' tables from `db` (the engine's SQLite table), inside the caller's transaction. */
export async function writeCeilingRateTables(client: pg.PoolClient, db: Database): Promise<void> {
  await client.query('DELETE FROM ceilingrate_rows; DELETE FROM ceilingrate_terms; DELETE FROM ceilingrate_combos; DELETE FROM ceilingrate_prices');
  const { store, orders, combos, ratesTables } = ceilingRatesIndex(db);
  const dictionaries = { ...store.text, experience_key: store.experienceKeys, price_key: store.priceKeys };
  for (const field of TERM_FIELDS) {
    const dict = dictionaries[field];
    const first = (SEARCH_FIELDS as readonly string[]).includes(field) ? ratesTables.firstIds(field as (typeof SEARCH_FIELDS)[number]) : null;
    await client.query('INSERT INTO ceilingrate_terms (field, code, value, first_id) SELECT $1, * FROM unnest($2::int4[], $3::text[], $4::int8[])', [
      field,
      Array.from(dict.rank),
      dict.values,
      dict.values.map((_, code) => (first && first[code] >= 0 ? first[code] : null)),
    ]);
  }
  // Each combination of the five small fields, numbered as the engine numbers them, its codes as ranks.
  const comboDicts = COMBO_FIELDS.map((field) => comboDictionary(store, field));
  await client.query(`INSERT INTO ceilingrate_combos SELECT * FROM unnest($1::int4[], ${COMBO_FIELDS.map((_, i) => `$${i + 2}::int4[]`).join(', ')})`, [
    Array.from({ length: combos.count }, (_, c) => c),
    ...comboDicts.map((dict, i) => Array.from({ length: combos.count }, (_, c) => dict.rank[combos.fieldCodes[c * 5 + i]])),
  ]);
  // Each price rank's price and two-decimal key.
  const priceOrder = orders.get('current_price');
  const keys = ratesTables.aggregator.rows().priceKeyOfRank;
  await client.query('INSERT INTO ceilingrate_prices (rank, price, key) SELECT * FROM unnest($1::int4[], $2::float8[], $3::int4[])', [
    Array.from({ length: priceOrder.nullRank }, (_, rank) => rank),
    Array.from(priceOrder.rankValues!),
    Array.from(keys, (code) => store.priceKeys.rank[code]),
  ]);
  const orderColumns = RECORD_ORDER_FIELDS.map((field) => orders.get(field));
  const coded = PLANNED_FIELDS.map((field) => store.text[field]);
  const columns = ['id', 'pos', 'c_combo', ...PLANNED_FIELDS.map(codeColumn), 'current_price', 'min_years_experience', ...RECORD_ORDER_FIELDS.map(rankColumn)];
  function* rows(): Generator<unknown[]> {
    for (let r = 0; r < store.size; r++) {
      yield [
        store.ids[r],
        r,
        combos.codes[r],
        ...coded.map((dict) => dict.rank[dict.codes[r]]),
        nullable(store.numbers.current_price[r]),
        nullable(store.numbers.min_years_experience[r]),
        ...orderColumns.map((column) => (column.recordRank[r] === column.nullRank ? null : column.recordRank[r])),
      ];
    }
  }
  await copyRows(client, 'ceilingrate_rows', columns, rows());
  await client.query(DERIVED_SQL);
}
