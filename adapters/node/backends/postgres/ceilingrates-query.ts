/**
 * A match plan (engine/ceilingrates/query/match-plan.ts: the engine decided, per distinct value, which codes
 * each condition allows) as SQL over `ceilingrate_rows r`: a condition on codes as the codes it allows (or for
 * more than half of them as those it does not), ranges and exclusions as comparisons, each found through its
 * index; the rows a plan leaves out as every condition's complement; a keyword's fields as parts read through
 * their own indexes; and the order of a page. Nothing here decides what matches.
 */
import type { CeilingRatesQuery } from '../../../../engine/ceilingrates/parse-query.ts';
import { RECORD_ORDER_FIELDS, type RecordOrderField } from '../../../../engine/ceilingrates/parameters.ts';
import type { CodeCondition, MatchPlan, RangeCondition } from '../../../../engine/ceilingrates/query/match-plan.ts';
import type { PlannedField } from '../../../../engine/ceilingrates/query/value-forms.ts';
import { codeColumn, COVERED, COVERED_COLUMNS, rankColumn } from './ceilingrates-tables.ts';
import { notNullRateField } from './ceilingrates-schema.ts';

/** Statement parameters, each added with its type. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
}

/** The codes `allowed` marks as `value` (1: allowed, 0: not). */
function codesMarked(allowed: Uint8Array, value: number): number[] {
  const codes: number[] = [];
  for (let code = 0; code < allowed.length; code++) if (allowed[code] === value) codes.push(code);
  return codes;
}

/**
 * The rows whose code in `field` is marked `value` in `allowed`: as those codes, through the field's index,
 * or for more than half of them as the codes left out, so no array is longer than half the field's values.
 */
function inCodes(field: PlannedField, allowed: Uint8Array, value: number, params: Params): string {
  const codes = codesMarked(allowed, value);
  if (codes.length === 0) return 'false';
  if (codes.length === allowed.length) return 'true';
  const column = `r.${codeColumn(field)}`;
  if (codes.length <= allowed.length / 2) return `${column} = ANY(${params.add(codes, 'int4[]')})`;
  return `NOT (${column} = ANY(${params.add(codesMarked(allowed, 1 - value), 'int4[]')}))`;
}

const anyOf = (condition: CodeCondition, params: Params): string =>
  `(${condition.map(({ field, allowed }) => inCodes(field, allowed, 1, params)).join(' OR ')})`;
const noneOf = (condition: CodeCondition, params: Params): string =>
  `(${condition.map(({ field, allowed }) => inCodes(field, allowed, 0, params)).join(' AND ')})`;

/** A range with its low end above its high end holds no value. */
const nonEmpty = (ranges: RangeCondition['ranges']): RangeCondition['ranges'] => ranges.filter(([lo, hi]) => lo <= hi);

/** Inclusive ranges of a numeric column, any of which matches (exact values as one array); a null value matches none. */
function inRanges({ field, ranges }: RangeCondition, params: Params): string {
  const held = nonEmpty(ranges);
  if (held.length === 0) return 'false';
  if (held.every(([lo, hi]) => lo === hi))
    return `r.${field} = ANY(${params.add(
      held.map(([v]) => v),
      'float8[]',
    )})`;
  return `(${held.map(([lo, hi]) => `r.${field} BETWEEN ${params.add(lo, 'float8')} AND ${params.add(hi, 'float8')}`).join(' OR ')})`;
}

/**
 * The values outside inclusive ranges, as open ranges an index reads (below the lowest, between two, above the
 * highest), or a null value.
 */
function outsideRanges({ field, ranges }: RangeCondition, params: Params): string {
  const merged: [number, number][] = [];
  for (const [lo, hi] of [...nonEmpty(ranges)].sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last && lo <= last[1]) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  if (merged.length === 0) return 'true';
  const c = `r.${field}`;
  const gaps = [`${c} IS NULL`, `${c} < ${params.add(merged[0][0], 'float8')}`];
  merged.forEach(([, hi], i) => {
    const above = `${c} > ${params.add(hi, 'float8')}`;
    gaps.push(i === merged.length - 1 ? above : `(${above} AND ${c} < ${params.add(merged[i + 1][0], 'float8')})`);
  });
  return `(${gaps.join(' OR ')})`;
}

/**
 * The rows a plan selects: every condition. A condition allowing nothing stays written beside the others (the
 * planner drops them), so every parameter added is named in the statement.
 */
export function planCondition(plan: MatchPlan, params: Params): string {
  const parts = [
    ...plan.codes.map((condition) => anyOf(condition, params)),
    ...plan.ranges.map((condition) => inRanges(condition, params)),
    ...(plan.exclude.length > 0 ? [`NOT (r.id::float8 = ANY(${params.add(plan.exclude, 'float8[]')}))`] : []),
  ].filter((part) => part !== '(true)');
  return parts.length === 0 ? 'true' : parts.join(' AND ');
}

/**
 * The rows a plan leaves out: those failing one of its conditions. A range's complement is written as ranges,
 * so a search matching most rates (the app's default: price and experience ranges) finds the few others by
 * index instead of reading every rate.
 */
export function restCondition(plan: MatchPlan, params: Params): string {
  const parts = [
    ...plan.codes.map((condition) => noneOf(condition, params)),
    ...plan.ranges.map((condition) => outsideRanges(condition, params)),
    ...(plan.exclude.length > 0 ? [`r.id::float8 = ANY(${params.add(plan.exclude, 'float8[]')})`] : []),
  ].filter((part) => part !== '(false)');
  return parts.length === 0 ? 'false' : parts.join(' OR ');
}

/** A part of a plan's matches: the rows of `from` (a relation `r` of ceilingrate_rows) passing `where`. */
export interface Branch {
  from: string;
  where: string;
}

const ROWS = 'ceilingrate_rows r';
const COVERED_FIELDS: ReadonlySet<string> = new Set([COVERED, ...COVERED_COLUMNS]);

/** Whether every condition of a plan reads columns the labor category's index holds (ceilingrates-tables.ts). */
export const coveredPlan = (plan: MatchPlan): boolean => plan.codes.every((condition) => condition.every(({ field }) => COVERED_FIELDS.has(field)));

/** Sorted codes as runs of consecutive codes: each run's first and last. */
function runsOf(codes: readonly number[]): [number[], number[]] {
  const firsts: number[] = [];
  const lasts: number[] = [];
  codes.forEach((code, i) => {
    if (i > 0 && codes[i - 1] === code - 1) lasts[lasts.length - 1] = code;
    else {
      firsts.push(code);
      lasts.push(code);
    }
  });
  return [firsts, lasts];
}

/**
 * The rows a plan selects as parts whose union is planCondition's: with `covered` (every column read is in the
 * labor category's index), a keyword's fields one by one, each read through its own field's index, not a
 * bitmap of the three visiting nearly every table page. A labor category's allowed codes are read as runs of
 * consecutive codes (values sharing a beginning sort together): one index descent a run, not one a code
 * (engineer: 372 runs of 3,005 labor codes). The parts overlap where a rate matches in two fields: the
 * reader keeps each rate once (a match set, or UNION), where a part less the fields before it cost more
 * planning and comparing than the few rates it drops.
 */
export function planBranches(plan: MatchPlan, params: Params, covered: boolean): Branch[] {
  const keyword = plan.codes.findIndex((condition) => condition.length > 1);
  if (keyword < 0 || !covered) return [{ from: ROWS, where: planCondition(plan, params) }];
  const others = planCondition({ ...plan, codes: plan.codes.filter((_, i) => i !== keyword) }, params);
  const branches: Branch[] = [];
  for (const { field, allowed } of plan.codes[keyword]) {
    const codes = codesMarked(allowed, 1);
    if (codes.length === 0) continue;
    if (field === COVERED) {
      const [firsts, lasts] = runsOf(codes);
      branches.push({
        from: `unnest(${params.add(firsts, 'int4[]')}, ${params.add(lasts, 'int4[]')}) AS k(first, last) JOIN ${ROWS} ON r.${codeColumn(field)} BETWEEN k.first AND k.last`,
        where: others,
      });
    } else {
      // The codes as an array: the planner estimates each code's rates, where a run's (a range joined to the
      // runs) is a guess that can turn a few hundred matches into a pass over every rate.
      branches.push({ from: ROWS, where: `r.${codeColumn(field)} = ANY(${params.add(codes, 'int4[]')}) AND ${others}` });
    }
  }
  // No field matches: still one part, naming every parameter the other conditions added.
  return branches.length > 0 ? branches : [{ from: ROWS, where: `false AND ${others}` }];
}

export const isRecordOrderField = (field: string): field is RecordOrderField => (RECORD_ORDER_FIELDS as readonly string[]).includes(field);

/** The orderable fields a query's keys name that records hold (the others are null everywhere: no key). */
export function orderFields(query: CeilingRatesQuery): { field: RecordOrderField; desc: boolean }[] {
  return query.ordering.filter((o): o is { field: RecordOrderField; desc: boolean } => isRecordOrderField(o.field));
}

/**
 * ORDER BY of the query's keys over a relation `alias` holding the rank columns: nulls last either way, then id.
 * A field no record leaves empty has no null rank, so its descending key is written plainly (nulls first, which
 * orders the same): a backward scan of its rank index then yields it, where NULLS LAST would need a second index.
 */
export function orderBy(query: CeilingRatesQuery, alias: string): string {
  const keys = orderFields(query).map(
    ({ field, desc }) => `${alias}.${rankColumn(field)} ${desc ? 'DESC' : 'ASC'}${notNullRateField(field) ? '' : ' NULLS LAST'}`,
  );
  return [...keys, `${alias}.id`].join(', ');
}
