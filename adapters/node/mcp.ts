/**
 * The MCP door: the tools of mcp-tools.ts registered with their input schemas, over stdio.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Engine } from '../../engine/http/engine.ts';
import { LIMIT_PARAMETER, PAGE_PARAMETER } from '../../engine/site-scanning/parameters.ts';
import { LineTransport } from './mcp-stdio.ts';
import { agencyAnalysis, ApiAnswerError, listWebsites, priceCheck, rateFilters, searchCeilingRates, websiteFilters } from './mcp-tools.ts';

function result(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

/** An API refusal (a 400 for a bad filter, say) goes back to the model as a tool error it can read. */
function tool<A>(run: (args: A) => unknown): (args: A) => CallToolResult {
  return (args) => {
    try {
      return result(run(args));
    } catch (error) {
      if (!(error instanceof ApiAnswerError)) throw error;
      return { isError: true, content: [{ type: 'text', text: error.message }] };
    }
  };
}

export function createMcpServer(engine: Engine): McpServer {
  const server = new McpServer({ name: 'offline-gov-api', version: '0.1.0' });
  server.registerTool(
    'search_ceiling_rates',
    {
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
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool((args) => searchCeilingRates(engine, args)),
  );
  server.registerTool(
    'price_check',
    {
      title: 'Check a proposed hourly price',
      description:
        'Where a proposed hourly price falls among the ceiling rates that match the filters: its percentile (share of rates at or below it), with the median and average.',
      inputSchema: { price: z.number().positive().describe('Proposed hourly price in dollars'), ...rateFilters },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool((args) => priceCheck(engine, args)),
  );
  server.registerTool(
    'list_websites',
    {
      title: 'List federal websites (Site Scanning)',
      description: 'Federal websites from the Site Scanning snapshot, filtered by domain, owner, liveness, redirects, scan status and analytics; paged.',
      inputSchema: {
        ...websiteFilters,
        page: z.number().int().min(PAGE_PARAMETER.min).optional().describe(PAGE_PARAMETER.help),
        limit: z.number().int().min(LIMIT_PARAMETER.min).max(LIMIT_PARAMETER.max).optional().describe(LIMIT_PARAMETER.help),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool((args) => listWebsites(engine, args)),
  );
  server.registerTool(
    'agency_analysis',
    {
      title: "An agency's websites",
      description: 'How many websites an agency (or one of its bureaus) owns, and the share that are live, run analytics, redirect and scanned completely.',
      inputSchema: { agency: z.string().describe('Agency, the whole name'), bureau: z.string().optional().describe('Bureau, the whole name') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool((args) => agencyAnalysis(engine, args)),
  );
  return server;
}

export async function serveMcpOverStdio(engine: Engine): Promise<void> {
  await createMcpServer(engine).connect(new LineTransport());
}
