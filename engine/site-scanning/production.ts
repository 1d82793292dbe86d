/**
 * The Site Scanning answer in the production dialect (engine/dialect/dialect.ts): each record under production's
 * current names (record.ts, PRODUCTION_NAMES: `initial_domain`, `live`, `agency`, `primary_scan_status`,
 * `uswds_*`, …), without the two comparisons production no longer answers, and with the robots.txt and sitemap.xml
 * checks production's records carry beside `*_detected` (`robots_txt_final_url_live`,
 * `robots_txt_target_url_redirects`, and the sitemap's), made from the fields this data has as the interface
 * dialect makes them (derived.ts; there they are among the further fields). The envelope, the
 * analysis and the errors are the same in both dialects. Runs only for that dialect.
 */
import type { ApiResponse } from '../http/types.ts';
import type { RouteContext } from '../http/routes.ts';
import { PRODUCTION_NAMES, WEBSITE_FIELDS } from './record.ts';
import { derivedCheck } from './derived.ts';

/** Each field's name in a production record, or null when production has none. */
const NAMES: readonly (readonly [string, string | null])[] = WEBSITE_FIELDS.map(([name]) => {
  const production = PRODUCTION_NAMES[name];
  return [name, production === undefined ? name : production] as const;
});

type Record_ = Record<string, unknown>;

/**
 * One record in production's names, key order the interface's, except that the derived checks follow the
 * `*_detected` they go with (where the interface dialect has them, among the further fields, production's current
 * order is not known from a recording). Read from the interface's answer: the checks are made again from its
 * fields, by the same function.
 */
export function productionRecord(record: Record_): Record_ {
  const out: Record_ = {};
  for (const [name, production] of NAMES) {
    if (production === null) continue;
    out[production] = record[name] ?? null;
    if (name === 'robots_txt_detected') {
      out.robots_txt_final_url_live = derivedCheck('robots_txt_final_url_live', record);
      out.robots_txt_target_url_redirects = derivedCheck('robots_txt_target_url_redirects', record);
    } else if (name === 'sitemap_xml_detected') {
      out.sitemap_xml_final_url_live = derivedCheck('sitemap_xml_final_url_live', record);
      out.sitemap_xml_target_url_redirects = derivedCheck('sitemap_xml_target_url_redirects', record);
    }
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
