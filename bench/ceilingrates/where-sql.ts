/**
 * The WHERE clause of a parsed ceiling-rates query, for the benchmark's two SQL peers (sql.js with functions
 * registered in JavaScript, DuckDB with columns prepared at load). They differ only in how a few predicates are
 * written, which each gives as a `Dialect`.
 */
import type { CeilingRatesQuery, Filter } from '../../engine/ceilingrates/parse-query.ts';

export interface Where<V> {
  sql: string;
  params: V[];
}

/** How one SQL engine writes the predicates that are not plain comparisons; each pushes its own parameters. */
export interface Dialect<V> {
  /** `keyword`: the three search fields contain the text, case-folded. */
  keyword(text: string, params: V[]): string;
  sin(code: string, params: V[]): string;
  /** category or subcategory lists the value. */
  listHas(field: 'category' | 'subcategory', value: string, params: V[]): string;
  /** worksite contains the phrase's words. */
  worksiteWords(phrase: string, params: V[]): string;
  clearanceIs(cls: string, params: V[]): string;
}

function filterSql<V>(filter: Filter, params: V[], dialect: Dialect<V>): string {
  const any = (parts: string[]): string => `(${parts.join(' OR ')})`;
  const push = (...values: unknown[]): void => void params.push(...(values as V[]));
  switch (filter.name) {
    case 'education_level':
    case 'business_size':
      push(...filter.values);
      return `${filter.name} IN (${filter.values.map(() => '?').join(',')})`;
    case 'price_range':
    case 'experience_range': {
      const column = filter.name === 'price_range' ? 'current_price' : 'min_years_experience';
      return any(filter.ranges.map(([lo, hi]) => (push(lo, hi), `${column} BETWEEN ? AND ?`)));
    }
    case 'current_price':
    case 'min_years_experience':
      return any(filter.values.map((v) => (push(v), `${filter.name} = ?`)));
    case 'sin':
      return any(filter.codes.map((c) => dialect.sin(c, params)));
    case 'category':
    case 'subcategory':
      return any(filter.values.map((v) => dialect.listHas(filter.name, v, params)));
    case 'site':
      return any(filter.phrases.map((p) => dialect.worksiteWords(p, params)));
    case 'security_clearance':
      return any(filter.classes.map((c) => dialect.clearanceIs(c, params)));
  }
}

/** Searches, keyword, filters and excluded ids ANDed, then any extra conditions with their parameters. */
export function whereSql<V>(query: CeilingRatesQuery, dialect: Dialect<V>, extra: string[] = [], extraParams: V[] = []): Where<V> {
  const parts: string[] = [];
  const params: V[] = [];
  const push = (...values: unknown[]): void => void params.push(...(values as V[]));
  for (const s of query.searches) {
    parts.push(`${s.field} = ?`);
    push(s.text);
  }
  if (query.keyword !== null) parts.push(dialect.keyword(query.keyword, params));
  for (const f of query.filters) parts.push(filterSql(f, params, dialect));
  if (query.exclude.length) {
    parts.push(`id NOT IN (${query.exclude.map(() => '?').join(',')})`);
    push(...query.exclude);
  }
  parts.push(...extra);
  params.push(...extraParams);
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}
