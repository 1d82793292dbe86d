/**
 * MCP over stdio, one JSON-RPC message a line, answering what the SDK's StdioServerTransport leaves
 * unanswered: a line that is not JSON gets -32700 (the SDK only logs it), a message that is not JSON-RPC
 * -32600, a tools/call whose `arguments` is not an object -32602 (the SDK's schema check says -32603), and a
 * line over the size limit -32600 with the rest of that line skipped (the SDK closes the transport, and the
 * process exits 0 with nothing said). Each refusal is also a line on stderr: stdout is the protocol's.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/** The longest message read, in bytes: a tool call is a few hundred; the SDK's own limit is 10 MiB. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** How much of a refused line a log line quotes. */
const QUOTED = 200;

export interface StdioOptions {
  input?: Readable;
  output?: Writable;
  log?: (line: string) => void;
  maxMessageBytes?: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request's id when the value has a usable one, for an error that answers it; else null. */
function idOf(value: unknown): RequestId | null {
  const id = isObject(value) ? value.id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly input: Readable;
  private readonly output: Writable;
  private readonly log: (line: string) => void;
  private readonly limit: number;
  private parts: Buffer[] = [];
  private bytes = 0;
  /** The current line passed the limit: its bytes are dropped up to its end. */
  private skipping = false;

  constructor({ input = process.stdin, output = process.stdout, log = (line) => console.error(line), maxMessageBytes = MAX_MESSAGE_BYTES }: StdioOptions = {}) {
    this.input = input;
    this.output = output;
    this.log = log;
    this.limit = maxMessageBytes;
  }

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      this.take(chunk.subarray(start, end));
      this.endLine();
      start = end + 1;
    }
    this.take(chunk.subarray(start));
  };

  private readonly onEnd = (): void => void this.close();

  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.bytes + part.length > this.limit) {
      this.skipping = true;
      this.parts = [];
      this.bytes = 0;
      return;
    }
    this.parts.push(part);
    this.bytes += part.length;
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      this.refuse(null, ErrorCode.InvalidRequest, `Message over the ${this.limit}-byte limit: not read`, 'a line over the size limit');
      return;
    }
    const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.bytes = 0;
    if (line.trim() !== '') this.read(line);
  }

  private read(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return this.refuse(null, ErrorCode.ParseError, 'Parse error: the line is not JSON', line);
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) return this.refuse(idOf(value), ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message', line);
    const params = (value as { method?: unknown; params?: unknown }).params;
    if ((value as { method?: unknown }).method === 'tools/call' && isObject(params) && params.arguments !== undefined && !isObject(params.arguments)) {
      return this.refuse(idOf(value), ErrorCode.InvalidParams, 'Invalid params: `arguments` must be an object', line);
    }
    this.onmessage?.(message.data);
  }

  private refuse(id: RequestId | null, code: number, message: string, line: string): void {
    const quoted = line.length > QUOTED ? `${line.slice(0, QUOTED)}… (${line.length} characters)` : line;
    this.log(`offline-gov-api mcp: ${code} ${message}: ${quoted}`);
    // JSON-RPC 2.0 answers an unreadable request with a null id; the SDK's message type has no room for one.
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.once('end', this.onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  private write(message: unknown): Promise<void> {
    return new Promise((done) => {
      if (this.output.write(JSON.stringify(message) + '\n')) done();
      else this.output.once('drain', done);
    });
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.pause();
    this.onclose?.();
  }
}
