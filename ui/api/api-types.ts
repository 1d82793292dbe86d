import type { CeilingRateRecord } from '../../engine/ceilingrates/record.ts';
/** The response shapes the views read, as the API specs give them (only the fields the UI uses are typed). */

/** The record is the engine's own type: one definition for what `_source` holds. */
export type RateRecord = CeilingRateRecord;

export interface RateHit {
  _id: string;
  _source: RateRecord;
  sort: (number | string | null)[];
}

export interface TermBucket {
  key: string;
  doc_count: number;
}

export interface TermAggregation {
  doc_count_error_upper_bound: number;
  sum_other_doc_count: number;
  buckets: TermBucket[];
}

export interface HistogramBucket {
  min: number;
  key: number;
  max: number;
  doc_count: number;
}

export interface WageStats {
  count: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  sum: number;
  std_deviation: number | null;
}

export interface RatesResponse {
  took: number;
  hits: { total: { value: number; relation: 'eq' | 'gte' }; hits: RateHit[] };
  aggregations: {
    wage_histogram: { buckets: HistogramBucket[] };
    histogram_percentiles: { values: Record<string, number | null> };
    median_price: { values: Record<string, number | null> };
    wage_stats: WageStats;
    [term: string]: unknown;
  };
}

export interface SuggestContainsResponse {
  hits: { total: { value: number; relation: string } };
  aggregations: Record<string, TermAggregation>;
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

export interface WebsiteRecord {
  target_url: string;
  target_url_domain: string;
  target_url_agency_owner: string | null;
  target_url_bureau_owner: string | null;
  scan_status: string;
  scan_date: string | null;
  final_url: string | null;
  final_url_live: boolean | null;
  final_url_status_code: number | null;
  dap_detected_final_url: boolean | null;
  [field: string]: unknown;
}

export interface WebsitesResponse {
  items: WebsiteRecord[];
  meta: { totalItems: number; itemCount: number; itemsPerPage: number; totalPages: number; currentPage: number };
  links: { first: string; previous: string; next: string; last: string };
}

export interface AnalysisResponse {
  total: number;
  totalFinalUrlBaseDomains: number;
  totalAgencies: number;
  [field: string]: unknown;
}
