/**
 * api.data.gov's gateway rehearsed (`serve --require-key`, `--rate-limit N/h`): what production's gateway (API
 * Umbrella, in front of api.gsa.gov) answers before a request reaches either API, so a prototype meets its 403 and
 * 429 here first. Its shapes: the error body `{"error":{"code":…,"message":…}}` (the gateway's JSON template,
 * two-space indented, `Content-Type: application/json`, readable cross-origin), the key read from the `X-Api-Key`
 * header, else the `api_key` query parameter, else the user name of HTTP basic authentication; a rate limit per
 * key (per client address without one) with `X-RateLimit-Limit` and `X-RateLimit-Remaining` on every answer it
 * counts and `Retry-After` on its 429; a refused request is not counted. The window is fixed, from a key's first
 * request in it (production estimates a sliding hour, so its remaining counts differ a little: the shapes are what
 * is rehearsed). Offline there are no accounts: any key is valid.
 */
import { isPreflight } from '../../../engine/http/cors.ts';
import type { ApiRequest, ApiResponse } from '../../../engine/http/types.ts';
import type { Routed } from '../../../engine/http/route.ts';
import { siteScanningApi } from '../../../engine/site-scanning/api.ts';

/**
 * The APIs production's gateway asks a key of: Site Scanning answers 403 without one. CALC+'s ceiling rates answer
 * without a key (its clients' reports of 2026-07 and 2026-08), so a keyless rates request passes here too.
 */
const KEY_REQUIRED: ReadonlySet<string> = new Set([siteScanningApi.id]);

/** The gateway's texts name the host's own base URL (scheme, host and port): production's is api.gsa.gov's. */
const PRODUCTION_BASE_URL = 'https://api.gsa.gov:443';

export const API_KEY_MISSING = {
  status: 403,
  code: 'API_KEY_MISSING',
  message: `No api_key was supplied. Get one at ${PRODUCTION_BASE_URL}`,
} as const;

export const OVER_RATE_LIMIT = {
  status: 429,
  code: 'OVER_RATE_LIMIT',
  message: `You have exceeded your rate limit. Try again later or contact us at ${PRODUCTION_BASE_URL}/contact/ for assistance`,
} as const;

/** At most this many keys (and addresses) are counted at once; the least recently seen is forgotten first. */
const MAX_COUNTED = 10_000;

export interface RateLimit {
  /** Requests allowed in any window. */
  limit: number;
  windowMs: number;
}

export interface GatewayOptions {
  /** Refuse an API request without a key, as production does (403 API_KEY_MISSING). */
  requireKey?: boolean;
  rateLimit?: RateLimit | null;
  /** The clock, for tests. */
  now?: () => number;
}

/** What the gateway decided: refused (its answer) or passed on, with the headers to add to the API's answer. */
export type Passage = { refused: ApiResponse } | { headers: Record<string, string> };

const UNITS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `1000/h` (also `/s`, `/m`, `/d`): the count, from 1 to a million, and its window. Null when the text is not one. */
export function parseRateLimit(text: string): RateLimit | null {
  const match = /^(\d+)\/([smhd])$/.exec(text.trim());
  if (!match) return null;
  const limit = Number(match[1]);
  if (limit < 1 || limit > 1_000_000) return null;
  return { limit, windowMs: UNITS[match[2]] };
}

/** The gateway's error answer, in its JSON template's shape. */
function refusal(error: { status: number; code: string; message: string }, headers: Record<string, string> = {}): ApiResponse {
  const body = JSON.stringify({ error: { code: error.code, message: error.message } }, null, 2);
  return { status: error.status, headers: { 'content-type': 'application/json', ...headers }, body };
}

/** The request's key as the gateway reads it: the header, the query parameter, the basic-auth user name; empty is none. */
export function apiKeyOf(request: ApiRequest): string | null {
  const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  const header = headers['x-api-key'];
  if (header) return header;
  let query: string | null = null;
  try {
    query = new URL(request.url, 'http://localhost').searchParams.get('api_key');
  } catch {
    // A URL that cannot be read is the router's to answer.
  }
  if (query) return query;
  const basic = /^Basic\s+(\S+)$/i.exec(headers.authorization ?? '');
  if (basic) {
    const user = Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0];
    if (user) return user;
  }
  return null;
}

/** One key's (or address's) window: when it began and the requests counted in it. */
interface Window {
  start: number;
  count: number;
}

export class Gateway {
  /** Per key or address, the least recently seen first (a Map keeps insertion order). */
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;

  constructor(private readonly options: GatewayOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * The gateway's decision for one routed API request from `client` (its address). A preflight always passes: a
   * browser sends it without the key, which only the request it clears carries.
   */
  pass(routed: Routed, client: string): Passage {
    const { request } = routed;
    if (isPreflight(request)) return { headers: {} };
    const key = apiKeyOf(request);
    if (this.options.requireKey && key === null && routed.api !== null && KEY_REQUIRED.has(routed.api)) return { refused: refusal(API_KEY_MISSING) };
    const { rateLimit } = this.options;
    if (!rateLimit) return { headers: {} };
    return this.count(key === null ? `address ${client}` : `key ${key}`, rateLimit);
  }

  private count(who: string, { limit, windowMs }: RateLimit): Passage {
    const now = this.now();
    let window = this.windows.get(who);
    this.windows.delete(who);
    if (!window || now >= window.start + windowMs) window = { start: now, count: 0 };
    this.windows.set(who, window);
    if (this.windows.size > MAX_COUNTED) this.windows.delete(this.windows.keys().next().value!);
    const limits = { 'x-ratelimit-limit': String(limit) };
    if (window.count >= limit) {
      const retryAfter = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
      return { refused: refusal(OVER_RATE_LIMIT, { ...limits, 'x-ratelimit-remaining': '0', 'retry-after': String(retryAfter) }) };
    }
    window.count++;
    return { headers: { ...limits, 'x-ratelimit-remaining': String(limit - window.count) } };
  }
}
