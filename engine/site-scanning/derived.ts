/**
 * The derived checks (record.ts, DerivedChecks): made from the stored fields as a record is answered, the same way in
 * both dialects (the interface's shaping and the production dialect call `derivedCheck`). The snapshot has no
 * column for them: production's 2021–2024 records had them, and its current records still carry them.
 */
import type { DerivedField, WebsiteRecord } from './record.ts';

/**
 * The stored fields each check reads. They precede the check in ANSWERED_FIELDS order, as the answer's single walk
 * over a stored record needs (stored-record.ts checks it when loaded).
 */
export const CHECK_INPUTS = {
  robots_txt_final_url_live: ['robots_txt_final_url_status_code'],
  robots_txt_target_url_redirects: ['target_url', 'robots_txt_final_url'],
  sitemap_xml_final_url_live: ['sitemap_xml_final_url_status_code'],
  sitemap_xml_target_url_redirects: ['target_url', 'sitemap_xml_final_url'],
} as const satisfies Record<DerivedField, readonly (keyof WebsiteRecord)[]>;

export type CheckInput = (typeof CHECK_INPUTS)[DerivedField][number];

export type CheckInputs = { readonly [K in CheckInput]?: unknown };

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

/** One derived check of a record, from its stored fields (under the interface's names). */
export function derivedCheck(name: DerivedField, record: CheckInputs): boolean | null {
  switch (name) {
    case 'robots_txt_final_url_live':
      return live(record.robots_txt_final_url_status_code);
    case 'robots_txt_target_url_redirects':
      return redirected(record.robots_txt_final_url, record.target_url, 'robots.txt');
    case 'sitemap_xml_final_url_live':
      return live(record.sitemap_xml_final_url_status_code);
    case 'sitemap_xml_target_url_redirects':
      return redirected(record.sitemap_xml_final_url, record.target_url, 'sitemap.xml');
  }
}
