/**
 * The ceiling-rates API's MCP tools: rate research and a price check, asked as a prototype would ask the API.
 */
import { z } from 'zod';
import { ceilingRatesApi } from '../../../engine/ceilingrates/api.ts';
import { CEILING_RATES_PATH, EDUCATION_LEVELS } from '../../../engine/ceilingrates/parameters.ts';
import { ask, mcpTool, round, url, type Asked, type McpApiTools } from './mcp-tools.ts';

const rateFilters = {
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

export const CEILING_RATES_TOOLS: McpApiTools = {
  dataset: ceilingRatesApi.dataset,
  tools: [
    mcpTool({
      name: 'search_ceiling_rates',
      title: 'Search GSA ceiling rates',
      description:
        'Search awarded hourly ceiling rates (GSA CALC) by labor category, keyword, vendor, education, experience, business size and price; ' +
        'returns statistics over every match (count, min, max, average, median, percentiles), the commonest labor categories and the lowest rates.',
      inputSchema: {
        ...rateFilters,
        price_min: z.number().min(0).optional(),
        price_max: z.number().min(0).optional(),
        limit: z.number().int().min(1).max(50).optional(),
      },
      run: searchCeilingRates,
    }),
    mcpTool({
      name: 'price_check',
      title: 'Check a proposed hourly price',
      description:
        'Where a proposed hourly price falls among the ceiling rates that match the filters: its percentile (share of rates at or below it), with the median and average.',
      inputSchema: { price: z.number().positive().describe('Proposed hourly price in dollars'), ...rateFilters },
      run: priceCheck,
    }),
  ],
};
