/** The whole API surface: one request in, one response out. Plain data so it crosses workers and ports. */
export interface ApiRequest {
  method: string;
  /** Absolute URL or path with query, e.g. `/websites?limit=3`. */
  url: string;
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text, CSV text, or '' (HEAD, 204). */
  body: string;
}

/** The datasets the engine can hold; each API reads exactly one. */
export type DatasetName = 'websites' | 'ceilingrates';
export const DATASET_NAMES: readonly DatasetName[] = ['websites', 'ceilingrates'];
