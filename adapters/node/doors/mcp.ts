/**
 * The MCP door: the tools of mcp-tools.ts registered with their input schemas, over stdio.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Engine } from '../../../engine/http/engine.ts';
import { LIMIT_PARAMETER, PAGE_PARAMETER } from '../../../engine/site-scanning/parameters.ts';
import { LineTransport } from './mcp-stdio.ts';
import { agencyAnalysis, ApiAnswerError, listWebsites, priceCheck, rateFilters, searchCeilingRates, snapshotArgument, websiteFilters } from './mcp-tools.ts';
import type { DataLabels } from '../../../engine/openapi/documents.ts';
import type { Dialect } from '../../../engine/dialect/dialect.ts';

export interface McpOptions {
  /** The answer dialect of the tools' requests (the records `list_websites` returns); default: the engine's. */
  dialect?: Dialect;
}

/** Every answer names its data first: a model must never pass a generated rate off as a real one. */
function result(value: unknown, source: string | undefined): CallToolResult {
  const answer = source ? { data_source: source, ...(value as object) } : value;
  return { content: [{ type: 'text', text: JSON.stringify(answer, null, 2) }] };
}

/** An API refusal (a 400 for a bad filter, say) goes back to the model as a tool error it can read. */
function tool<A>(source: string | undefined, run: (args: A) => unknown): (args: A) => CallToolResult {
  return (args) => {
    try {
      return result(run(args), source);
    } catch (error) {
      if (!(error instanceof ApiAnswerError)) throw error;
      return { isError: true, content: [{ type: 'text', text: error.message }] };
    }
  };
}

/** `labels`: each dataset's source line (the CLI's start line), said in the tools' descriptions and answers. */
export function createMcpServer(opened: Engine, labels: DataLabels = {}, options: McpOptions = {}): McpServer {
  const { dialect } = options;
  const engine = dialect ? { handle: (request: Parameters<Engine['handle']>[0]) => opened.handle({ ...request, dialect }) } : opened;
  const server = new McpServer({ name: 'offline-gov-api', version: '0.1.0' });
  const data = (name: keyof DataLabels): string => (labels[name] ? ` Data: ${labels[name]}.` : '');
  server.registerTool(
    'search_ceiling_rates',
    {
      title: 'Search GSA ceiling rates',
      description:
        'Search awarded hourly ceiling rates (GSA CALC) by labor category, keyword, vendor, education, experience, business size and price; ' +
        'returns statistics over every match (count, min, max, average, median, percentiles), the commonest labor categories and the lowest rates.' +
        data('ceilingrates'),
      inputSchema: {
        ...rateFilters,
        price_min: z.number().min(0).optional(),
        price_max: z.number().min(0).optional(),
        limit: z.number().int().min(1).max(50).optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(labels.ceilingrates, (args) => searchCeilingRates(engine, args)),
  );
  server.registerTool(
    'price_check',
    {
      title: 'Check a proposed hourly price',
      description:
        'Where a proposed hourly price falls among the ceiling rates that match the filters: its percentile (share of rates at or below it), with the median and average.' +
        data('ceilingrates'),
      inputSchema: { price: z.number().positive().describe('Proposed hourly price in dollars'), ...rateFilters },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(labels.ceilingrates, (args) => priceCheck(engine, args)),
  );
  server.registerTool(
    'list_websites',
    {
      title: 'List federal websites (Site Scanning)',
      description:
        'Federal websites from the Site Scanning snapshot, filtered by domain, owner, liveness, redirects, scan status and analytics; paged.' +
        data('websites'),
      inputSchema: {
        ...websiteFilters,
        page: z.number().int().min(PAGE_PARAMETER.min).optional().describe(PAGE_PARAMETER.help),
        limit: z.number().int().min(LIMIT_PARAMETER.min).max(LIMIT_PARAMETER.max).optional().describe(LIMIT_PARAMETER.help),
        snapshot: snapshotArgument,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(labels.websites, (args) => listWebsites(engine, args)),
  );
  server.registerTool(
    'agency_analysis',
    {
      title: "An agency's websites",
      description:
        'How many websites an agency (or one of its bureaus) owns, and the share that are live, run analytics, redirect and scanned completely.' +
        data('websites'),
      inputSchema: {
        agency: z.string().describe('Agency, the whole name'),
        bureau: z.string().optional().describe('Bureau, the whole name'),
        snapshot: snapshotArgument,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(labels.websites, (args) => agencyAnalysis(engine, args)),
  );
  return server;
}

export async function serveMcpOverStdio(engine: Engine, labels: DataLabels = {}, options: McpOptions = {}): Promise<void> {
  await createMcpServer(engine, labels, options).connect(new LineTransport());
}
