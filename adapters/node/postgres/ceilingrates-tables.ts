/**
 * The tables the ceiling rates are answered from in SQL, written at load with the engine's own code, so the
 * text analysis that matching and ordering depend on has one definition (engine/ceilingrates):
 *
 * - `ceilingrate_terms`: each distinct value of each text field (and the price and experience term keys) under
 *   its code, which is the engine's byte-order rank of the value, null last (term buckets and suggestions order
 *   by it, so the codes sort and group as the values do without a join), its case-folded form
 *   (`fold`: keyword, suggest-contains, suggest), the lowest id carrying it (suggest), and per field what a
 *   filter compares: the worksite's words (`words`, for `site:`), the clearance class (`clearanceClass`), the
 *   education count code (`educationCountCode`).
 * - `ceilingrate_tokens`: the parts list filters match whole (`sinCodes` of a SIN value, `listElements` of a
 *   category or subcategory), by value code.
 * - `ceilingrate_rows`: per record its codes into the terms, its price and experience, and its rank in each
 *   orderable field (the engine's order columns: null ranks are NULL, so they sort last either way).
 *
 * The records themselves (for pages and the export) stay in `ceilingrates`, with the engine's `_source` JSON.
 */
import type pg from 'pg';
import type { Database } from 'sql.js';
import { ceilingRatesIndex } from '../../../engine/ceilingrates/ceiling-rates-index.ts';
import { TEXT_FIELDS, type TextField } from '../../../engine/ceilingrates/columns/store.ts';
import type { Dictionary } from '../../../engine/ceilingrates/columns/dictionary.ts';
import { RECORD_ORDER_FIELDS, type RecordOrderField } from '../../../engine/ceilingrates/parameters.ts';
import { SEARCH_FIELDS } from '../../../engine/ceilingrates/parse-query.ts';
import { clearanceClass, educationCountCode, words } from '../../../engine/ceilingrates/text.ts';
import { buildCombos } from '../../../engine/ceilingrates/columns/combos.ts';
import { priceSums, type PriceSums } from '../../../engine/ceilingrates/query/aggregations.ts';
import { copyRows } from './copy.ts';
import { rowCodes } from './row-codes.ts';

/** Term fields beyond the text fields: the numeric fields' term keys (`"27.00"`, `"3"`). */
export type TermField = TextField | 'price_key' | 'experience_key';

/** The column of a record's code (its value's rank) in a term field. */
export const codeColumn = (field: TermField): string => `c_${field}`;
/** The column of a record's rank in an orderable field. */
export const rankColumn = (field: RecordOrderField): string => `o_${field}`;

const TERM_FIELDS: readonly TermField[] = [...TEXT_FIELDS, 'price_key', 'experience_key'];

/** Fields whose values hold parts a filter matches whole. */
export const TOKEN_FIELDS = ['sin', 'category', 'subcategory'] as const;

const COMBO_CODE_COLUMNS = ['c_security_clearance', 'c_worksite', 'c_experience_key', 'c_education_level', 'c_business_size'];

/** The orderable text fields (no record leaves them empty, schema.ts). */
const ORDERED_TEXT = RECORD_ORDER_FIELDS.filter((f): f is Extract<RecordOrderField, TextField> => (TEXT_FIELDS as readonly string[]).includes(f));

/**
 * The field whose index covers a search's columns (COVERING_INDEX_SQL): a keyword matches by far the most rates
 * through it.
 */
export const COVERED: TermField = 'labor_category';

/** The code columns with a plain index: the other search fields and the list filters' fields. */
const INDEXED_CODES: readonly TermField[] = [...new Set<TermField>([...SEARCH_FIELDS, ...TOKEN_FIELDS])].filter((f) => f !== COVERED);

/**
 * The labor category's index holds, beside the code, what a narrow search reads of its matches (their codes:
 * row-codes.ts) and what a keyword's other fields and the small filters compare,
 * so a keyword's matches by labor category (tens of thousands of rates) are read from the index's few pages in
 * code order (index-only), not from the table's pages, nearly all of which hold one.
 */
export const COVERING_INDEX_SQL = `
  DROP INDEX IF EXISTS ceilingrate_rows_by_${COVERED};
  -- Schema 5's, which held the codes as columns.
  DROP INDEX IF EXISTS ceilingrate_rows_cover_${COVERED};
  CREATE INDEX IF NOT EXISTS ceilingrate_rows_codes_by_${COVERED} ON ceilingrate_rows (${codeColumn(COVERED)}) INCLUDE (${[
    ...SEARCH_FIELDS.filter((f) => f !== COVERED).map(codeColumn),
    'codes',
    'current_price',
    'min_years_experience',
    ...(['education_level', 'business_size', 'security_clearance', 'worksite'] as const).map(codeColumn),
  ].join(', ')});
`;

/** Prices per row of `ceilingrate_price_column` (512 KiB). */
const PRICE_BLOCK = 65_536;

/**
 * The worksite's words as one text with a space around each word: a phrase's words occur consecutively in the
 * value exactly when ` w1 w2 ` is a substring (words hold letters and digits only). Null for no words.
 */
export function spacedWords(text: string): string | null {
  const list = words(text);
  return list.length === 0 ? null : ` ${list.join(' ')} `;
}

export const CEILINGRATE_TABLES_SQL = `
  CREATE TABLE IF NOT EXISTS ceilingrate_terms (
    field text NOT NULL,
    code integer NOT NULL,
    value text,
    folded text NOT NULL,
    first_id bigint,
    words text,
    clearance text,
    education text,
    PRIMARY KEY (field, code)
  );
  CREATE TABLE IF NOT EXISTS ceilingrate_tokens (field text NOT NULL, token text NOT NULL, code integer NOT NULL);
  CREATE INDEX IF NOT EXISTS ceilingrate_tokens_by_token ON ceilingrate_tokens (field, token);
  CREATE TABLE IF NOT EXISTS ceilingrate_rows (
    id bigint PRIMARY KEY,
    ${TERM_FIELDS.map((f) => `${codeColumn(f)} integer NOT NULL`).join(',\n    ')},
    current_price double precision,
    min_years_experience double precision,
    ${RECORD_ORDER_FIELDS.map((f) => `${rankColumn(f)} integer`).join(',\n    ')}
  );
  CREATE INDEX IF NOT EXISTS ceilingrate_rows_by_price ON ceilingrate_rows (${rankColumn('current_price')}, id);
  -- Schema 3 read the default request's price sums from this index; the price column holds them now.
  DROP INDEX IF EXISTS ceilingrate_rows_by_id_priced;
  -- A record's row in the engine's store (its place in the price column below).
  ALTER TABLE ceilingrate_rows ADD COLUMN IF NOT EXISTS pos integer;
  -- What a search returns of a rate (row-codes.ts): 24 bytes, never compressed.
  ALTER TABLE ceilingrate_rows ADD COLUMN IF NOT EXISTS codes bytea;
  ALTER TABLE ceilingrate_rows ALTER COLUMN codes SET STORAGE PLAIN;
  -- A search matching most rates reads the few it leaves out; a range filter's complement is ranges of these.
  CREATE INDEX IF NOT EXISTS ceilingrate_rows_by_current_price ON ceilingrate_rows (current_price);
  CREATE INDEX IF NOT EXISTS ceilingrate_rows_by_experience ON ceilingrate_rows (min_years_experience);
  -- An unconditioned search's page in a text field's order: walked from its rank index (either way), not sorted.
  ${ORDERED_TEXT.map((f) => `CREATE INDEX IF NOT EXISTS ceilingrate_rows_by_${rankColumn(f)} ON ceilingrate_rows (${rankColumn(f)}, id);`).join('\n  ')}
  -- The fields a search, keyword or list filter names: their matches are found by code.
  ${INDEXED_CODES.map((f) => `CREATE INDEX IF NOT EXISTS ceilingrate_rows_by_${f} ON ceilingrate_rows (${codeColumn(f)});`).join('\n  ')}
  -- Every rate's price in store order, ${PRICE_BLOCK} a row, as little-endian doubles (NaN for none): the price
  -- sums of a search matching most rates are the engine's priceSums over it, skipping the rest.
  CREATE TABLE IF NOT EXISTS ceilingrate_price_column (block integer PRIMARY KEY, prices bytea NOT NULL);
  -- Already compact: not compressed, so reading it is a copy.
  ALTER TABLE ceilingrate_price_column ALTER COLUMN prices SET STORAGE EXTERNAL;
`;

const nullable = (x: number): number | null => (x === x ? x : null);

/** Write the price column's blocks: each price as a little-endian double, NaN where there is none. */
async function writePriceColumn(client: pg.PoolClient, prices: Float64Array, size: number): Promise<void> {
  await client.query('DELETE FROM ceilingrate_price_column');
  for (let block = 0; block * PRICE_BLOCK < size; block++) {
    const from = block * PRICE_BLOCK;
    const to = Math.min(size, from + PRICE_BLOCK);
    const bytes = Buffer.alloc((to - from) * 8);
    for (let r = from; r < to; r++) bytes.writeDoubleLE(prices[r], (r - from) * 8);
    await client.query('INSERT INTO ceilingrate_price_column (block, prices) VALUES ($1, $2)', [block, bytes]);
  }
}

/** The prices of the price column's bytes (every block, in order), as the engine's store holds them. */
export function priceColumnOf(bytes: Uint8Array): Float64Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const prices = new Float64Array(bytes.byteLength / 8);
  for (let i = 0; i < prices.length; i++) prices[i] = view.getFloat64(i * 8, true);
  return prices;
}

/** The price sums of every rate, as the engine adds them (in store order; scaled when they would overflow). */
export type StoredSums = Pick<PriceSums, 'sum' | 'sumOfSquares' | 'exponent'>;

/**
 * Write the match tables of the rates in `db` (the engine's SQLite table), inside the caller's transaction.
 * Returns the price sums of every rate, which the engine's own function adds.
 */
export async function writeCeilingRateTables(client: pg.PoolClient, db: Database): Promise<StoredSums> {
  await client.query(
    'DELETE FROM ceilingrate_rows; DELETE FROM ceilingrate_terms; DELETE FROM ceilingrate_tokens; DELETE FROM ceilingrate_combos; DELETE FROM ceilingrate_prices',
  );
  const index = ceilingRatesIndex(db);
  const { store, forms, orders, firstRows } = index;
  const dictionaries: Record<TermField, Dictionary> = { ...store.text, price_key: store.priceKeys, experience_key: store.experienceKeys };

  for (const field of TERM_FIELDS) {
    const dict = dictionaries[field];
    const text = field === 'price_key' || field === 'experience_key' ? null : field;
    const folded = text ? forms.folded.get(text) : dict.values.map((v) => v ?? '');
    const first = text ? firstRows.get(text) : null;
    const codes = dict.values.map((_, code) => code);
    await client.query(
      `INSERT INTO ceilingrate_terms (field, code, value, folded, first_id, words, clearance, education)
       SELECT $1, * FROM unnest($2::int4[], $3::text[], $4::text[], $5::int8[], $6::text[], $7::text[], $8::text[])`,
      [
        field,
        Array.from(dict.rank),
        dict.values,
        folded,
        codes.map((code) => (first && first[code] >= 0 ? store.ids[first[code]] : null)),
        dict.values.map((v) => (field === 'worksite' && v !== null ? spacedWords(v) : null)),
        dict.values.map((v) => (field === 'security_clearance' ? clearanceClass(v) : null)),
        dict.values.map((v) => (field === 'education_level' ? educationCountCode(v) : null)),
      ],
    );
  }

  for (const field of TOKEN_FIELDS) {
    const sets = field === 'sin' ? forms.sinSets.get() : forms.listSets.get(field);
    const tokens: string[] = [];
    const codes: number[] = [];
    const { rank } = store.text[field];
    sets.forEach((set, code) => {
      for (const token of set) {
        tokens.push(token);
        codes.push(rank[code]);
      }
    });
    await client.query('INSERT INTO ceilingrate_tokens (field, token, code) SELECT $1, * FROM unnest($2::text[], $3::int4[])', [field, tokens, codes]);
  }

  // Each rate's combination of the five small fields, numbered as the engine numbers them.
  const combos = buildCombos(store);
  await client.query(
    `INSERT INTO ceilingrate_combos (combo, ${COMBO_CODE_COLUMNS.join(', ')}) SELECT * FROM unnest($1::int4[], ${COMBO_CODE_COLUMNS.map((_, i) => `$${i + 2}::int4[]`).join(', ')})`,
    [
      Array.from({ length: combos.count }, (_, c) => c),
      ...combos.dicts.map((dict, i) => Array.from({ length: combos.count }, (_, c) => dict.rank[combos.fieldCodes[c * 5 + i]])),
    ],
  );

  // Each price rank's price and two-decimal key.
  const priceOrder = orders.get('current_price');
  const distinct = priceOrder.nullRank;
  const keyOfRank = new Int32Array(distinct);
  for (let r = 0; r < store.size; r++) {
    const rank = priceOrder.recordRank[r];
    if (rank !== priceOrder.nullRank) keyOfRank[rank] = store.priceKeys.rank[store.priceKeys.codes[r]];
  }
  await client.query('INSERT INTO ceilingrate_prices (rank, price, key) SELECT * FROM unnest($1::int4[], $2::float8[], $3::int4[])', [
    Array.from({ length: distinct }, (_, rank) => rank),
    Array.from(priceOrder.rankValues!.subarray(0, distinct)),
    Array.from(keyOfRank),
  ]);

  const orderColumns = RECORD_ORDER_FIELDS.map((field) => orders.get(field));
  const columns = [
    'id',
    'pos',
    'c_combo',
    ...TERM_FIELDS.map(codeColumn),
    'current_price',
    'min_years_experience',
    ...RECORD_ORDER_FIELDS.map(rankColumn),
    'codes',
  ];
  const termCodes = TERM_FIELDS.map((field) => dictionaries[field]);
  const labor = dictionaries.labor_category;
  function* rows(): Generator<unknown[]> {
    for (let r = 0; r < store.size; r++) {
      const priceRank = priceOrder.recordRank[r] === priceOrder.nullRank ? null : priceOrder.recordRank[r];
      yield [
        store.ids[r],
        r,
        combos.codes[r],
        ...termCodes.map((dict) => dict.rank[dict.codes[r]]),
        nullable(store.numbers.current_price[r]),
        nullable(store.numbers.min_years_experience[r]),
        ...orderColumns.map((column) => (column.recordRank[r] === column.nullRank ? null : column.recordRank[r])),
        rowCodes(combos.codes[r], priceRank, labor.rank[labor.codes[r]], r, store.ids[r]),
      ];
    }
  }
  await copyRows(client, 'ceilingrate_rows', columns, rows());
  await writePriceColumn(client, store.numbers.current_price, store.size);
  const prices = priceOrder.rankValues!;
  return priceSums(store.numbers.current_price, { rows: null, rest: [] }, prices[0], prices[distinct - 1]);
}
