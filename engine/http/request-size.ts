/**
 * Request size limits, read from an API's parameter table (maxItems, maxLength, maxListItems) and
 * QUERY_LIMITS. Each API words the first problem in its own error shape; checking sizes first keeps every
 * later step's work bounded by these limits.
 */
import { QUERY_LIMITS, type ParameterSpec } from './parameter-spec.ts';

export type SizeProblem =
  | { kind: 'parameters'; limit: number; actual: number }
  | { kind: 'query-length'; limit: number; actual: number }
  | { kind: 'count'; parameter: string; limit: number; actual: number }
  | { kind: 'length'; parameter: string; limit: number; actual: number }
  | { kind: 'list'; parameter: string; limit: number; actual: number };

/** How many `|`-separated items a value holds. */
function listItems(value: string): number {
  let items = 1;
  for (let at = value.indexOf('|'); at >= 0; at = value.indexOf('|', at + 1)) items++;
  return items;
}

/**
 * The first size problem of a query, in table order after the whole-query bounds; null when it is within
 * every limit. `search` is the URL's `search` (with its `?`, or empty).
 */
export function sizeProblem(table: readonly ParameterSpec[], search: string, query: URLSearchParams): SizeProblem | null {
  const length = Math.max(0, search.length - 1);
  if (length > QUERY_LIMITS.maxLength) return { kind: 'query-length', limit: QUERY_LIMITS.maxLength, actual: length };
  let pairs = 0;
  for (const _ of query.keys()) pairs++;
  if (pairs > QUERY_LIMITS.maxParameters) return { kind: 'parameters', limit: QUERY_LIMITS.maxParameters, actual: pairs };
  for (const spec of table) {
    if (spec.in !== 'query') continue;
    const values = spec.repeatable ? query.getAll(spec.name) : [query.get(spec.name) ?? ''];
    if (spec.maxItems !== undefined && values.length > spec.maxItems) {
      return { kind: 'count', parameter: spec.name, limit: spec.maxItems, actual: values.length };
    }
    for (const value of values) {
      // Like minLength, a `<field>:<text>` or `<name>:<value>` measures what follows the first colon.
      const measured = spec.kind === 'field-text' || spec.kind === 'filter' ? value.length - value.indexOf(':') - 1 : value.length;
      if (spec.maxLength !== undefined && measured > spec.maxLength) {
        return { kind: 'length', parameter: spec.name, limit: spec.maxLength, actual: measured };
      }
    }
    if (spec.maxListItems !== undefined) {
      // An id list counts its ids over every repeat; a filter, the alternatives of each one.
      const counts = values.map(listItems);
      const actual = spec.kind === 'id-list' ? counts.reduce((a, b) => a + b, 0) : Math.max(0, ...counts);
      if (actual > spec.maxListItems) return { kind: 'list', parameter: spec.name, limit: spec.maxListItems, actual };
    }
  }
  return null;
}
