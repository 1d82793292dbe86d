/**
 * The Site Scanning answer in the production dialect (engine/dialect/dialect.ts): each record with exactly the keys
 * of production's current serializer (GSA/site-scanning-engine, entities/core-result.entity.ts and
 * entities/website.entity.ts, 2026-08): under production's names (record.ts, PRODUCTION_NAMES: `initial_domain`,
 * `live`, `agency`, `primary_scan_status`, `uswds_*`, …), without the two comparisons and the four robots.txt and
 * sitemap.xml checks its records no longer carry, and with its fields this data lacks (PRODUCTION_ONLY: `www_same`,
 * `cumulative_layout_shift`, …) answered `null`. The envelope, the analysis and the errors are the same in both
 * dialects. Runs only for that dialect.
 */
import type { ApiResponse } from '../http/types.ts';
import type { RouteContext } from '../http/routes.ts';
import { PRODUCTION_NAMES, PRODUCTION_ONLY, WEBSITE_FIELDS } from './record.ts';

type Record_ = Record<string, unknown>;

/** Each field's production name (null when production has none) and the production-only fields written after it. */
const WRITTEN: readonly (readonly [string, string | null, readonly string[]])[] = WEBSITE_FIELDS.map(([name]) => {
  const production = PRODUCTION_NAMES[name];
  const after = PRODUCTION_ONLY.filter((field) => field.after === name).map((field) => field.name);
  return [name, production === undefined ? name : production, after] as const;
});

/**
 * One record in production's names, key order the interface's (production's own order is not known from a
 * recording), each field production has and this data lacks `null` after its neighbour.
 */
export function productionRecord(record: Record_): Record_ {
  const out: Record_ = {};
  for (const [name, production, after] of WRITTEN) {
    if (production !== null) out[production] = record[name] ?? null;
    for (const absent of after) out[absent] = null;
  }
  return out;
}

export function productionSiteScanning(ctx: RouteContext, response: ApiResponse): ApiResponse {
  if (response.status !== 200 || !response.headers['content-type']?.startsWith('application/json')) return response;
  if (ctx.route === 'website') return { ...response, body: JSON.stringify(productionRecord(JSON.parse(response.body) as Record_)) };
  if (ctx.route === 'websites') {
    const page = JSON.parse(response.body) as { items: Record_[] };
    return { ...response, body: JSON.stringify({ ...page, items: page.items.map(productionRecord) }) };
  }
  return response;
}
