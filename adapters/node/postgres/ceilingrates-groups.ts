/**
 * Every count a ceiling-rates search returns comes from three integer codes the load wrote per rate: its combination of the five small fields (clearance, worksite,
 * experience, education, business size: some thousands of combinations, `ceilingrate_combos`), its price's
 * rank (`ceilingrate_prices` holds each rank's price and two-decimal key) and its labor category. Postgres
 * returns the matches' codes in one pass (row-codes.ts); Node counts them and reads the term buckets, the distinct
 * prices and the education counts off the counts (ceilingrates-counts.ts), as the engine reads its own.
 *
 * `load` stores the counts of every rate (`ceilingrate_counts`), so a search matching most rates groups only
 * the rates it leaves out and subtracts (counts are exact integers): the app's default request leaves out 2%.
 */
import { codeColumn, rankColumn, type TermField } from './ceilingrates-tables.ts';

/** The combination's fields, in the engine's order (columns/combos.ts COMBO_FIELDS). */
export const COMBO_FIELDS: readonly TermField[] = ['security_clearance', 'worksite', 'experience_key', 'education_level', 'business_size'];

/** A group's set: GROUPING(c_combo, o_current_price), 1 for a combination, 2 for a price rank, 3 for a labor category. */
export const COMBO_SET = 1;
export const PRICE_SET = 2;
export const LABOR_SET = 3;

const PRICE_RANK = rankColumn('current_price');
const LABOR = codeColumn('labor_category');

export const COUNTS_TABLES_SQL = `
  CREATE TABLE IF NOT EXISTS ceilingrate_combos (
    combo integer PRIMARY KEY,
    ${COMBO_FIELDS.map((f) => `${codeColumn(f)} integer NOT NULL`).join(',\n    ')}
  );
  CREATE TABLE IF NOT EXISTS ceilingrate_prices (rank integer PRIMARY KEY, price double precision NOT NULL, key integer NOT NULL);
  CREATE TABLE IF NOT EXISTS ceilingrate_counts (set integer NOT NULL, code integer NOT NULL, n integer NOT NULL);
  ALTER TABLE ceilingrate_rows ADD COLUMN IF NOT EXISTS c_combo integer;
  -- Schema 3's grouping of every rate and its stored aggregations, which these replace.
  DROP TABLE IF EXISTS ceilingrate_groups;
  ALTER TABLE ceilingrates_loads DROP COLUMN IF EXISTS totals;
  -- The price sums of every rate, as the engine adds them (ceilingrates-tables.ts StoredSums).
  ALTER TABLE ceilingrates_loads ADD COLUMN IF NOT EXISTS sums json;
`;

/**
 * The groups of the rows of `relation` (holding c_combo, o_current_price and c_labor_category): set, code and
 * count, one hashed pass (`load`'s counts of every rate). A null price is a group with a null code.
 */
export function countsOf(relation: string): string {
  return `SELECT GROUPING(c_combo, ${PRICE_RANK}) AS set, coalesce(c_combo, ${PRICE_RANK}, ${LABOR}) AS code, count(*)::int4 AS n
    FROM ${relation} GROUP BY GROUPING SETS ((c_combo), (${PRICE_RANK}), (${LABOR}))`;
}
