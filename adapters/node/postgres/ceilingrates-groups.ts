/**
 * Every count a ceiling-rates search returns comes from one grouping of its matches: by the combination of the
 * five small fields (clearance, worksite, experience, education, business size: a few thousand combinations),
 * by price (each distinct price with its two-decimal key), and by each other term field (the labor category),
 * as GROUPING SETS in one hashed pass. `load` stores the grouping of every rate (`ceilingrate_groups`), so a
 * search matching most rates groups only the rates it leaves out and subtracts (counts are exact integers):
 * the app's default request leaves out 2% of them.
 */
import type { TermAggregations } from '../../../engine/ceilingrates/query/aggregations.ts';
import { codeColumn, type TermField } from './ceilingrates-tables.ts';

/** Each term aggregation's field in `ceilingrate_terms` (the numeric fields' two-decimal and plain keys). */
export const TERM_AGGREGATIONS: readonly (readonly [keyof TermAggregations, TermField])[] = [
  ['labor_category', 'labor_category'],
  ['security_clearance', 'security_clearance'],
  ['worksite', 'worksite'],
  ['min_years_experience', 'experience_key'],
  ['education_level', 'education_level'],
  ['current_price', 'price_key'],
  ['business_size', 'business_size'],
];

export const COMBO_FIELDS: readonly TermField[] = ['security_clearance', 'worksite', 'experience_key', 'education_level', 'business_size'];

/** The term fields counted in a grouping set of their own (neither a combination's nor the prices'). */
export const OWN_FIELDS: readonly TermField[] = TERM_AGGREGATIONS.map(([, field]) => field).filter((f) => !COMBO_FIELDS.includes(f) && f !== 'price_key');

const COMBO = COMBO_FIELDS.map(codeColumn);
const OWN = OWN_FIELDS.map(codeColumn);
/** Which set a group row belongs to: GROUPING(x) is 0 in the rows of x's own set, 1 elsewhere. */
const FLAGS = ['own_price', ...OWN_FIELDS.map((f) => `own_${f}`)];
/** A group row: its keys (null where its set does not group), its price key, its count, its set's flags. */
const KEYS = [...COMBO, ...OWN, 'current_price'];

export const GROUPS_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS ceilingrate_groups (
    ${[...COMBO.map((c) => `${c} integer`), ...OWN.map((c) => `${c} integer`), 'current_price double precision', 'key integer', 'n integer NOT NULL', ...FLAGS.map((f) => `${f} integer NOT NULL`)].join(',\n    ')}
  );
`;

/** The grouping of the rows of `relation` (holding the code columns and current_price), as group rows. */
export function groupsOf(relation: string): string {
  const flags = [`GROUPING(current_price) AS own_price`, ...OWN.map((c, i) => `GROUPING(${c}) AS ${FLAGS[i + 1]}`)];
  return `SELECT ${[...KEYS, `min(${codeColumn('price_key')}) AS key`, 'count(*)::int4 AS n', ...flags].join(', ')}
    FROM ${relation} GROUP BY GROUPING SETS ((${COMBO.join(', ')}), (current_price)${OWN.map((c) => `, (${c})`).join('')})`;
}

/** The stored grouping of every rate less that of the rows of `rest`: the groups of the others. */
export function groupsBut(rest: string): string {
  const columns = [...KEYS, ...FLAGS];
  // GROUP BY puts nulls together, so the keys a set does not group match as they should.
  return `SELECT ${columns.join(', ')}, min(key) AS key, sum(n)::int4 AS n
    FROM (SELECT ${[...columns, 'key', 'n'].join(', ')} FROM ceilingrate_groups
          UNION ALL SELECT ${[...columns, 'key', '-n'].join(', ')} FROM (${groupsOf(rest)}) x) u
    GROUP BY ${columns.join(', ')} HAVING sum(n) > 0`;
}

/** The CTEs over `groups`: the combinations, and the distinct prices with their keys and counts. */
export const GROUP_PARTS = `combos AS (SELECT ${COMBO.join(', ')}, n FROM groups WHERE own_price = 1 AND ${OWN_FIELDS.map((f) => `own_${f} = 1`).join(' AND ')}),
    prices AS (SELECT current_price AS price, key, n FROM groups WHERE own_price = 0)`;

/** Where each term aggregation's counts come from: the combinations, the distinct prices, or its own groups. */
export function termCounts(field: TermField): string {
  if (COMBO_FIELDS.includes(field)) return `SELECT ${codeColumn(field)} AS code, sum(n)::int4 AS n FROM combos GROUP BY 1`;
  // Each distinct price has one two-decimal key (a null price the null key, which is no bucket).
  if (field === 'price_key') return 'SELECT key AS code, sum(n)::int4 AS n FROM prices GROUP BY 1';
  return `SELECT ${codeColumn(field)} AS code, n FROM groups WHERE own_${field} = 0`;
}
