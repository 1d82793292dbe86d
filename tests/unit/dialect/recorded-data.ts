/**
 * The recorded production answers (tests/fixtures/recorded/) and records like theirs, for the dialect's tests: the
 * recorded 2026 `_source` stored as this data stores it, 91 records like the recorded `Engineer 1` answer, and a
 * JSON value's shape (keys in order, JSON types) to compare answers with recordings.
 */
import { readFileSync } from 'node:fs';
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';

export const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/recorded/${name}`, import.meta.url), 'utf8'));
export const ENVELOPE = fixture('calc-2026-10-10-gsa-calc-mcp-envelope.json');
export const REC_2026 = fixture('calc-2026-10-10-gsa-calc-mcp.json');
export const SITE_2022 = fixture('site-scanning-2022-06-docs-sample.json');
export const API = '/api/v3/search/ceilingrates/';
export const queryOf = (url: string): string => url.slice(url.indexOf('?'));

/** A JSON value's shape: keys in order with the shape of each value, an array by its first element, else its type. */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [shapeOf(value[0])] : [];
  if (value === null) return 'null';
  if (typeof value === 'object') return Object.entries(value).map(([key, v]) => [key, shapeOf(v)]);
  return typeof value;
}

/** A recorded 2026 `_source` as this data stores it (the interface's values: differences.md). */
export function stored(source: Record<string, unknown>): CeilingRateRecord {
  const codes: Record<string, string> = { Bachelors: 'BA', 'High School': 'HS', 'High School Equivalent': 'HS', Masters: 'MA' };
  const { data_source: _only2026, ...rest } = source;
  return {
    ...(rest as unknown as CeilingRateRecord),
    security_clearance: source.security_clearance ? 'Yes' : 'No',
    education_level: codes[String(source.education_level)] ?? String(source.education_level),
    worksite: String(source.worksite).replaceAll('_', ' '),
    dt_termg: source.dt_termg === '' ? null : (source.dt_termg as string | null),
  };
}

/** 91 records like the recorded answer's: its two hits, then its clearance, worksite, education and size counts. */
export function engineerOnes(): CeilingRateRecord[] {
  const recorded: CeilingRateRecord[] = ENVELOPE.raw.hits.hits.map((h: { _source: Record<string, unknown> }) => stored(h._source));
  // The recorded prices by their counts, less the recorded hits' two (51.8).
  const prices: number[] = ENVELOPE.raw.aggregations.current_price.buckets.flatMap((b: { key: string; doc_count: number }) =>
    Array(b.key === '51.8' ? b.doc_count - 2 : b.doc_count).fill(Number(b.key)),
  );
  const made = Array.from({ length: 89 }, (_, j) => {
    const i = j + 2;
    return {
      ...recorded[0],
      id: recorded[0].id + 100 + i,
      security_clearance: i < 7 ? 'Yes' : 'No',
      worksite: i < 46 ? 'Customer Facility' : i < 89 ? 'Contractor Facility' : 'Virtual',
      education_level: i < 78 ? 'BA' : i < 89 ? 'HS' : 'MA',
      business_size: i < 56 ? 'O' : 'S',
      current_price: prices[j] ?? 110 + i,
      min_years_experience: i < 65 ? 0 : 1,
    };
  });
  return [...recorded, ...made];
}
