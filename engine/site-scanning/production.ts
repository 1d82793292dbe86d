/**
 * The Site Scanning answer in the production dialect (engine/dialect/dialect.ts): each record under production's
 * current names (record.ts, PRODUCTION_NAMES: `initial_domain`, `live`, `agency`, `primary_scan_status`,
 * `uswds_*`, …), without the two comparisons production no longer answers, and with the robots.txt and sitemap.xml
 * checks production's records carry beside `*_detected` (`robots_txt_final_url_live`,
 * `robots_txt_target_url_redirects`, and the sitemap's), made from the fields this data has. The envelope, the
 * analysis and the errors are the same in both dialects. Runs only for that dialect.
 */
import type { ApiResponse } from '../http/types.ts';
import type { RouteContext } from '../http/routes.ts';
import { PRODUCTION_NAMES, WEBSITE_FIELDS } from './record.ts';

/** Each field's name in a production record, or null when production has none. */
const NAMES: readonly (readonly [string, string | null])[] = WEBSITE_FIELDS.map(([name]) => {
  const production = PRODUCTION_NAMES[name];
  return [name, production === undefined ? name : production] as const;
});

type Record_ = Record<string, unknown>;

/** A final URL answered 2xx: live. Unknown without a status code. */
function live(status: unknown): boolean | null {
  return typeof status === 'number' ? status >= 200 && status < 300 : null;
}

/**
 * The file was reached at another address than the one asked for, `<the site>/<file>`; unknown without a final
 * address. (Production's scanner follows the redirects itself; this is the same question asked of its answer.)
 */
function redirected(finalUrl: unknown, site: unknown, file: string): boolean | null {
  if (typeof finalUrl !== 'string' || typeof site !== 'string') return null;
  return finalUrl !== `https://${site}/${file}` && finalUrl !== `http://${site}/${file}`;
}

/** One record in production's names, key order the interface's. */
export function productionRecord(record: Record_): Record_ {
  const out: Record_ = {};
  for (const [name, production] of NAMES) {
    if (production === null) continue;
    out[production] = record[name] ?? null;
    if (name === 'robots_txt_detected') {
      out.robots_txt_final_url_live = live(record.robots_txt_final_url_status_code);
      out.robots_txt_target_url_redirects = redirected(record.robots_txt_final_url, record.target_url, 'robots.txt');
    } else if (name === 'sitemap_xml_detected') {
      out.sitemap_xml_final_url_live = live(record.sitemap_xml_final_url_status_code);
      out.sitemap_xml_target_url_redirects = redirected(record.sitemap_xml_final_url, record.target_url, 'sitemap.xml');
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
