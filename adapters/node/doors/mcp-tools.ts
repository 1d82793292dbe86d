/**
 * What every API's MCP tools share: a tool's declaration, and asking the engine the same URLs a prototype
 * would. Each API declares its tools beside this (mcp-ceilingrates.ts, mcp-websites.ts) and mcp.ts registers
 * them all. Every result names the API URLs it came from, so the figures can be checked against the API itself.
 */
import type { z } from 'zod';
import type { Engine } from '../../../engine/http/engine.ts';
import type { DatasetName } from '../../../engine/http/types.ts';

/** What the tools ask: an engine, or one answering in a dialect (mcp.ts). */
export type Asked = Pick<Engine, 'handle'>;

/** One tool as an API declares it; mcp.ts says the dataset's source after the description and in the answer. */
export interface McpTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  inputSchema: Shape;
  run(engine: Asked, args: z.infer<z.ZodObject<Shape>>): unknown;
}

/** An API's tools, and the dataset whose source line they say. */
export interface McpApiTools {
  dataset: DatasetName;
  tools: readonly McpTool[];
}

/** A tool, its arguments typed by its own input schema. */
export const mcpTool = <Shape extends z.ZodRawShape>(tool: McpTool<Shape>): McpTool => tool as unknown as McpTool;

/** A URL with the parameters that have a value, repeated ones in order. */
export function url(path: string, params: [string, string | number | boolean | undefined][]): string {
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

export function ask<T>(engine: Asked, requestUrl: string): T {
  const answer = engine.handle({ method: 'GET', url: requestUrl });
  if (answer.status !== 200) throw new ApiAnswerError(`${echo(requestUrl)} answered ${answer.status}: ${echo(answer.body)}`);
  return JSON.parse(answer.body) as T;
}

export const round = (n: number | null | undefined): number | null => (n === null || n === undefined ? null : Math.round(n * 100) / 100);
