/**
 * The answer dialect: `interface`, the 2.0 interface and GSA's 2024 documentation (the default), or
 * `production`, the shape production answered in the recordings of 2022–2026 (docs/api/differences.md). One
 * query, one result; the production dialect is the last shaping step over the answer the interface would give
 * (engine/http/engine.ts), so no query path and no field table exists twice.
 */
export const DIALECTS = ['interface', 'production'] as const;
export type Dialect = (typeof DIALECTS)[number];
export const DEFAULT_DIALECT: Dialect = 'interface';

export function isDialect(value: unknown): value is Dialect {
  return value === 'interface' || value === 'production';
}

/** A dialect named by a user (a flag, a setting); anything else is refused with the accepted names. */
export function parseDialect(value: string): Dialect {
  if (isDialect(value)) return value;
  throw new Error(`unknown answer dialect "${value}": use ${DIALECTS.map((d) => `"${d}"`).join(' or ')}`);
}
