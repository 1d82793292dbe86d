/** The Websites list's CSV: every site the filters match, paged through the API, with the query and the data's source on top. */
import { csvLine } from '../../engine/ceilingrates/export.ts';
import { LIMIT_PARAMETER } from '../../engine/site-scanning/parameters.ts';
import type { WebsiteRecord } from '../../engine/site-scanning/record.ts';
import type { WebsitePage } from '../../engine/site-scanning/shape.ts';
import { WEBSITES_PATH, websitesFilterQuery, type WebsitesQuery } from './websites-query.ts';

/**
 * The most sites one export holds: every site of the real snapshot (36,331) fits, while a file past it would take
 * hundreds of requests more to page through. Past it the file says how many it left out.
 */
export const WEBSITES_CSV_MAX = 40_000;

/** The table's columns, as the API names them. */
const COLUMNS = [
  'target_url',
  'target_url_agency_owner',
  'target_url_bureau_owner',
  'scan_status',
  'final_url',
  'final_url_live',
  'final_url_status_code',
  'dap_detected_final_url',
  'scan_date',
] as const satisfies readonly (keyof WebsiteRecord)[];

type Listed = Pick<WebsiteRecord, (typeof COLUMNS)[number]>;

const cell = (value: string | number | boolean | null): string | number | null => (typeof value === 'boolean' ? String(value) : value);

/** Every matching site up to `max`, page by page at the API's largest page; the total the API counted. */
export async function matchingWebsites(
  get: (url: string) => Promise<WebsitePage>,
  q: WebsitesQuery,
  max = WEBSITES_CSV_MAX,
  progress?: (read: number, total: number) => void,
): Promise<{ items: Listed[]; total: number }> {
  const filters = websitesFilterQuery(q);
  const items: Listed[] = [];
  let total = 0;
  for (let page = 1; items.length < max; page++) {
    const body = await get(`${WEBSITES_PATH}?${filters ? `${filters}&` : ''}page=${page}&limit=${LIMIT_PARAMETER.max}`);
    total = body.meta.totalItems;
    items.push(...body.items.slice(0, max - items.length));
    progress?.(items.length, Math.min(total, max));
    if (body.items.length < LIMIT_PARAMETER.max || page >= body.meta.totalPages) break;
  }
  return { items, total };
}

/** Notes (the query, the snapshot's date, the source), the count, then one row per site. */
export function websitesCsv(items: readonly Listed[], total: number, notes: readonly (readonly [string, string])[]): string {
  const lines = [
    ...notes.map((note) => csvLine(note)),
    csvLine(['Sites', items.length < total ? `${items.length} of ${total} (an export holds at most ${WEBSITES_CSV_MAX}: narrow the filters)` : String(total)]),
    csvLine(COLUMNS),
    ...items.map((w) => csvLine(COLUMNS.map((c) => cell(w[c])))),
  ];
  return lines.join('\r\n') + '\r\n';
}
