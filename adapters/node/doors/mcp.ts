/**
 * The MCP door: every API's tools (mcp-ceilingrates.ts, mcp-websites.ts) registered with their input schemas,
 * over stdio.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../../../engine/http/engine.ts';
import { LineTransport } from './mcp-stdio.ts';
import { ApiAnswerError, type McpApiTools } from './mcp-tools.ts';
import { CEILING_RATES_TOOLS } from './mcp-ceilingrates.ts';
import { WEBSITES_TOOLS } from './mcp-websites.ts';
import type { DataLabels } from '../../../engine/openapi/documents.ts';
import type { Dialect } from '../../../engine/dialect/dialect.ts';

/** Every API's tools, registered in this order. */
const API_TOOLS: readonly McpApiTools[] = [CEILING_RATES_TOOLS, WEBSITES_TOOLS];

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
  for (const { dataset, tools } of API_TOOLS) {
    const source = labels[dataset];
    for (const { name, title, description, inputSchema, run } of tools) {
      server.registerTool(
        name,
        { title, description: description + (source ? ` Data: ${source}.` : ''), inputSchema, annotations: { readOnlyHint: true, openWorldHint: false } },
        tool(source, (args) => run(engine, args)),
      );
    }
  }
  return server;
}

export async function serveMcpOverStdio(engine: Engine, labels: DataLabels = {}, options: McpOptions = {}): Promise<void> {
  await createMcpServer(engine, labels, options).connect(new LineTransport());
}
