/** The response shapes the views read: the engine's own types wherever it declares them. */
import type { CeilingRateRecord } from '../../engine/ceilingrates/record.ts';
import type { Aggregations } from '../../engine/ceilingrates/query/aggregations.ts';
import type { TermsAggregation } from '../../engine/ceilingrates/query/terms.ts';
import type { HistogramBucket } from '../../engine/ceilingrates/query/histogram.ts';
import type { AnalysisBody, WebsitePage } from '../../engine/site-scanning/shape.ts';
import type { WebsiteRecord } from '../../engine/site-scanning/record.ts';

export type { HistogramBucket, WebsiteRecord };

/** The record is the engine's own type: one definition for what `_source` holds. */
export type RateRecord = CeilingRateRecord;

export interface RateHit {
  _id: string;
  _source: RateRecord;
  sort: (number | string | null)[];
}

export interface RatesResponse {
  took: number;
  hits: { total: { value: number; relation: 'eq' | 'gte' }; hits: RateHit[] };
  aggregations: Aggregations;
}

export interface SuggestContainsResponse {
  hits: { total: { value: number; relation: string } };
  aggregations: Record<string, TermsAggregation>;
}

/** Errors: the ceiling-rates API answers `{detail}`, Site Scanning `{statusCode, message, error}`. */
export interface ApiErrorBody {
  detail?: string;
  message?: string | string[];
}

export function errorText(status: number, body: unknown): string {
  const b = (body ?? {}) as ApiErrorBody;
  const message = b.detail ?? (Array.isArray(b.message) ? b.message.join('; ') : b.message);
  return message ? `${message} (HTTP ${status})` : `HTTP ${status}`;
}

export type WebsitesResponse = WebsitePage;

export type AnalysisResponse = AnalysisBody;
