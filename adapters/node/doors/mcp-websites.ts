/**
 * The Site Scanning API's MCP tools: website lists and an agency's picture, asked as a prototype would ask the API.
 */
import { z } from 'zod';
import { siteScanningApi } from '../../../engine/site-scanning/api.ts';
import {
  FILTER_NAMES,
  LIMIT_PARAMETER,
  PAGE_PARAMETER,
  WEBSITE_FILTER_PARAMETERS,
  type FilterName,
  type WebsiteFilterParameter,
} from '../../../engine/site-scanning/parameters.ts';
import { ask, mcpTool, round, url, type Asked, type McpApiTools } from './mcp-tools.ts';

/** The tool's inputs are the API's own filters, from its parameter table: names, kinds, values and help. */
function websiteFilterSchema(spec: WebsiteFilterParameter): z.ZodType<string | boolean | undefined> {
  const base = spec.kind === 'boolean' ? z.boolean() : spec.kind === 'enum' ? z.enum(spec.values) : z.string();
  return base.optional().describe(spec.help + ('example' in spec ? ` (e.g. ${spec.example})` : ''));
}
const websiteFilters = Object.fromEntries(WEBSITE_FILTER_PARAMETERS.map((spec) => [spec.name, websiteFilterSchema(spec)])) as Record<
  FilterName,
  z.ZodType<string | boolean | undefined>
>;
type WebsiteFilters = Partial<Record<FilterName, string | boolean>>;

const websiteParams = (f: WebsiteFilters): [string, string | boolean | undefined][] => FILTER_NAMES.map((name) => [name, f[name]]);

/** `snapshot`: a week held (`GET /snapshots` lists them), asked under its dated path; absent: the newest. */
const snapshotArgument = z
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

export const WEBSITES_TOOLS: McpApiTools = {
  dataset: siteScanningApi.dataset,
  tools: [
    mcpTool({
      name: 'list_websites',
      title: 'List federal websites (Site Scanning)',
      description: 'Federal websites from the Site Scanning snapshot, filtered by domain, owner, liveness, redirects, scan status and analytics; paged.',
      inputSchema: {
        ...websiteFilters,
        page: z.number().int().min(PAGE_PARAMETER.min).optional().describe(PAGE_PARAMETER.help),
        limit: z.number().int().min(LIMIT_PARAMETER.min).max(LIMIT_PARAMETER.max).optional().describe(LIMIT_PARAMETER.help),
        snapshot: snapshotArgument,
      },
      run: listWebsites,
    }),
    mcpTool({
      name: 'agency_analysis',
      title: "An agency's websites",
      description: 'How many websites an agency (or one of its bureaus) owns, and the share that are live, run analytics, redirect and scanned completely.',
      inputSchema: {
        agency: z.string().describe('Agency, the whole name'),
        bureau: z.string().optional().describe('Bureau, the whole name'),
        snapshot: snapshotArgument,
      },
      run: agencyAnalysis,
    }),
  ],
};
