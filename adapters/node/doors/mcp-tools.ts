/**
 * What the MCP tools do: ask the engine the same URLs a prototype would, for what people wrap these APIs for
 * (rate research, a price check, website lists, an agency's picture), and summarise the answers. Every result
 * names the API URLs it came from, so the figures can be checked against the API itself.
 */
import { z } from 'zod';
import type { Engine } from '../../../engine/http/engine.ts';

/** What the tools ask: an engine, or one answering in a dialect (mcp.ts). */
export type Asked = Pick<Engine, 'handle'>;
import { FILTER_NAMES, WEBSITE_FILTER_PARAMETERS, type FilterName, type WebsiteFilterParameter } from '../../../engine/site-scanning/parameters.ts';
import { CEILING_RATES_PATH, EDUCATION_LEVELS } from '../../../engine/ceilingrates/parameters.ts';

/** A URL with the parameters that have a value, repeated ones in order. */
function url(path: string, params: [string, string | number | boolean | undefined][]): string {
  const query = new URLSearchParams();
  for (const [name, value] of params) if (value !== undefined && value !== '') query.append(name, String(value));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** The engine refused the request (a 400 for a bad filter, say): its words go back to the model. */
export class ApiAnswerError extends Error {}

/** The most of a request URL or an answer an error message echoes: the model needs the gist, not the input back. */
export const ECHOED = 300;
const echo = (text: string): string => (text.length > ECHOED ? `${text.slice(0, ECHOED)}… (${text.length - ECHOED} more characters)` : text);

function ask<T>(engine: Asked, requestUrl: string): T {
  const answer = engine.handle({ method: 'GET', url: requestUrl });
  if (answer.status !== 200) throw new ApiAnswerError(`${echo(requestUrl)} answered ${answer.status}: ${echo(answer.body)}`);
  return JSON.parse(answer.body) as T;
}

export const rateFilters = {
  keyword: z.string().min(2).optional().describe('Words inside the labor category, vendor or contract number'),
  labor_category: z.string().optional().describe('The whole labor category exactly as stored, case-sensitive (e.g. "Project Manager")'),
  vendor_name: z.string().optional().describe('The whole vendor name exactly as stored, case-sensitive'),
  education_level: z.array(z.enum(EDUCATION_LEVELS)).optional().describe('Any of these minimum education levels'),
  min_experience: z.number().min(0).optional().describe('Minimum years of experience, at least'),
  max_experience: z.number().min(0).optional().describe('Minimum years of experience, at most'),
  business_size: z.enum(['S', 'O']).optional().describe('S: small business, O: other than small'),
  security_clearance: z.enum(['yes', 'no']).optional(),
  worksite: z.string().optional().describe('Words in the worksite: customer, contractor, both'),
};
type RateFilters = { [K in keyof typeof rateFilters]?: z.infer<(typeof rateFilters)[K]> };

function rateParams(f: RateFilters): [string, string | number | undefined][] {
  const params: [string, string | number | undefined][] = [['keyword', f.keyword]];
  if (f.labor_category) params.push(['search', `labor_category:${f.labor_category}`]);
  if (f.vendor_name) params.push(['search', `vendor_name:${f.vendor_name}`]);
  if (f.education_level?.length) params.push(['filter', `education_level:${f.education_level.join('|')}`]);
  if (f.min_experience !== undefined || f.max_experience !== undefined) {
    params.push(['filter', `experience_range:${f.min_experience ?? 0},${f.max_experience ?? 100}`]);
  }
  if (f.business_size) params.push(['filter', `business_size:${f.business_size}`]);
  if (f.security_clearance) params.push(['filter', `security_clearance:${f.security_clearance}`]);
  // `site:`, not `worksite:`: the API ignores a worksite filter, as production does.
  if (f.worksite) params.push(['filter', `site:${f.worksite}`]);
  return params;
}

interface Bucket {
  key: string;
  doc_count: number;
}
interface RatesAnswer {
  hits: { hits: { _source: Record<string, unknown> }[] };
  aggregations: {
    wage_stats: { count: number; min: number | null; max: number | null; avg: number | null; std_deviation: number | null };
    histogram_percentiles: { values: Record<string, number | null> };
    median_price: { values: Record<string, number | null> };
    labor_category: { buckets: Bucket[] };
    education_level: { buckets: Bucket[] };
  };
}

const round = (n: number | null | undefined): number | null => (n === null || n === undefined ? null : Math.round(n * 100) / 100);

function statistics(a: RatesAnswer['aggregations']) {
  return {
    count: a.wage_stats.count,
    min: round(a.wage_stats.min),
    max: round(a.wage_stats.max),
    average: round(a.wage_stats.avg),
    median: round(a.median_price.values['50.0']),
    std_deviation: round(a.wage_stats.std_deviation),
    percentiles: Object.fromEntries(Object.entries(a.histogram_percentiles.values).map(([p, v]) => [p, round(v)])),
  };
}

const RATE_FIELDS = [
  'labor_category',
  'vendor_name',
  'idv_piid',
  'education_level',
  'min_years_experience',
  'current_price',
  'next_year_price',
  'business_size',
  'worksite',
  'security_clearance',
];

export function searchCeilingRates(engine: Asked, args: RateFilters & { price_min?: number; price_max?: number; limit?: number }) {
  const params = rateParams(args);
  if (args.price_min !== undefined || args.price_max !== undefined) params.push(['filter', `price_range:${args.price_min ?? 0},${args.price_max ?? 100000}`]);
  const requestUrl = url(CEILING_RATES_PATH, [...params, ['page_size', args.limit ?? 10], ['ordering', 'current_price'], ['sort', 'asc']]);
  const answer = ask<RatesAnswer>(engine, requestUrl);
  return {
    api_url: requestUrl,
    statistics: statistics(answer.aggregations),
    top_labor_categories: answer.aggregations.labor_category.buckets.slice(0, 10).map((b) => ({ labor_category: b.key, count: b.doc_count })),
    education_levels: answer.aggregations.education_level.buckets.map((b) => ({ education_level: b.key, count: b.doc_count })),
    lowest_rates: answer.hits.hits.map((h) => Object.fromEntries(RATE_FIELDS.map((f) => [f, h._source[f]]))),
  };
}

/** Where a proposed hourly price falls among the matching ceiling rates: the share at or below it. */
export function priceCheck(engine: Asked, args: RateFilters & { price: number }) {
  const params = rateParams(args);
  const allUrl = url(CEILING_RATES_PATH, [...params, ['page_size', 1]]);
  const belowUrl = url(CEILING_RATES_PATH, [...params, ['filter', `price_range:0,${args.price}`], ['page_size', 1]]);
  const all = ask<RatesAnswer>(engine, allUrl).aggregations;
  const atOrBelow = ask<RatesAnswer>(engine, belowUrl).aggregations.wage_stats.count;
  const count = all.wage_stats.count;
  const percentile = count === 0 ? null : round((atOrBelow / count) * 100);
  const median = all.median_price.values['50.0'];
  return {
    api_urls: [allUrl, belowUrl],
    price: args.price,
    matching_rates: count,
    at_or_below: atOrBelow,
    percentile,
    statistics: statistics(all),
    summary:
      count === 0
        ? 'No ceiling rates match these filters: widen them.'
        : `${args.price} is at the ${percentile}th percentile of ${count} matching ceiling rates (median ${round(median)}, ` +
          `average ${round(all.wage_stats.avg)}): ${atOrBelow} are at or below it.`,
  };
}

/** The tool's inputs are the API's own filters, from its parameter table: names, kinds, values and help. */
function websiteFilterSchema(spec: WebsiteFilterParameter): z.ZodType<string | boolean | undefined> {
  const base = spec.kind === 'boolean' ? z.boolean() : spec.kind === 'enum' ? z.enum(spec.values) : z.string();
  return base.optional().describe(spec.help + ('example' in spec ? ` (e.g. ${spec.example})` : ''));
}
export const websiteFilters = Object.fromEntries(WEBSITE_FILTER_PARAMETERS.map((spec) => [spec.name, websiteFilterSchema(spec)])) as Record<
  FilterName,
  z.ZodType<string | boolean | undefined>
>;
type WebsiteFilters = Partial<Record<FilterName, string | boolean>>;

const websiteParams = (f: WebsiteFilters): [string, string | boolean | undefined][] => FILTER_NAMES.map((name) => [name, f[name]]);

/** `snapshot`: a week held (`GET /snapshots` lists them), asked under its dated path; absent: the newest. */
export const snapshotArgument = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .describe('A weekly snapshot to ask instead of the newest, YYYY-MM-DD (e.g. 2025-03-17; the weeks held are those /snapshots lists)');

const dated = (snapshot: string | undefined, path: string): string => (snapshot ? `/snapshots/${snapshot}${path}` : path);

export function listWebsites(engine: Asked, args: WebsiteFilters & { page?: number; limit?: number; snapshot?: string }) {
  const requestUrl = url(dated(args.snapshot, '/websites'), [...websiteParams(args), ['page', args.page], ['limit', args.limit ?? 10]]);
  const answer = ask<{ items: unknown[]; meta: unknown }>(engine, requestUrl);
  return { api_url: requestUrl, meta: answer.meta, items: answer.items };
}

interface AnalysisAnswer {
  total: number;
  totalFinalUrlBaseDomains: number;
  totalAgencies: number;
}

/** An agency's (or bureau's) websites: how many, and the share live, with analytics and redirecting. */
export function agencyAnalysis(engine: Asked, args: { agency: string; bureau?: string; snapshot?: string }) {
  const owner: [string, string | undefined][] = [
    ['target_url_agency_owner', args.agency],
    ['target_url_bureau_owner', args.bureau],
  ];
  const count = (extra: [string, string][]): { url: string; total: number } => {
    const requestUrl = url(dated(args.snapshot, '/analysis'), [...owner, ...extra]);
    return { url: requestUrl, total: ask<AnalysisAnswer>(engine, requestUrl).total };
  };
  const allUrl = url(dated(args.snapshot, '/analysis'), owner);
  const all = ask<AnalysisAnswer>(engine, allUrl);
  const share = (part: number): number | null => (all.total === 0 ? null : round((part / all.total) * 100));
  const facets = {
    live: count([['final_url_live', 'true']]),
    dap_detected: count([['dap_detected_final_url', 'true']]),
    redirecting: count([['target_url_redirects', 'true']]),
    scan_completed: count([['scan_status', 'completed']]),
  };
  return {
    api_urls: [allUrl, ...Object.values(facets).map((f) => f.url)],
    agency: args.agency,
    bureau: args.bureau ?? null,
    websites: all.total,
    final_url_base_domains: all.totalFinalUrlBaseDomains,
    ...Object.fromEntries(Object.entries(facets).map(([name, f]) => [name, { count: f.total, percent: share(f.total) }])),
    ...(all.total === 0 ? { note: 'No websites for this owner: agency and bureau names must match whole (see list_websites).' } : {}),
  };
}
