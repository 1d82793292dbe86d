/** The MCP door's answers to what a client should not send: each is refused in JSON-RPC terms, and said on stderr. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_MESSAGE_BYTES } from '../../../adapters/node/doors/mcp-stdio.ts';
import { ECHOED } from '../../../adapters/node/doors/mcp-tools.ts';
import { BIN, fixture, ROOT } from './cli-process.ts';

let dir: string;
let child: ChildProcess;
let stderr = '';
const answers = new Map<string | number | null, Record<string, any>[]>();
const waiting: { id: string | number | null; done: () => void }[] = [];

function send(line: string): void {
  child.stdin!.write(line + '\n');
}

/** The next answer with this id (null: the unreadable messages' answers, in order). */
function answer(id: string | number | null): Promise<Record<string, any>> {
  return new Promise((done) => {
    const take = (): void => done(answers.get(id)!.shift()!);
    if (answers.get(id)?.length) take();
    else waiting.push({ id, done: take });
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doors-mcp-stdio-'));
  child = spawn(process.execPath, [BIN, 'mcp', '--data', dir, '--websites', fixture('websites-current.csv')], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    let end: number;
    while ((end = pending.indexOf('\n')) !== -1) {
      const message = JSON.parse(pending.slice(0, end)) as Record<string, any>;
      pending = pending.slice(end + 1);
      const id = (message.id ?? null) as string | number | null;
      answers.set(id, [...(answers.get(id) ?? []), message]);
      const at = waiting.findIndex((w) => w.id === id);
      if (at !== -1) waiting.splice(at, 1)[0].done();
    }
  });
  send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  );
  expect((await answer('init')).result.serverInfo.name).toBe('offline-gov-api');
  send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
});

afterAll(() => {
  child?.kill();
  rmSync(dir, { recursive: true, force: true });
});

const call = (id: number, name: string, args: unknown): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const alive = async (id: number): Promise<void> => {
  send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }));
  expect((await answer(id)).result.tools.length).toBe(4);
};

describe('offline-gov-api mcp: refusals', () => {
  it('a line that is not JSON gets -32700 with a null id, a log line, and the server goes on', async () => {
    send('this is not json {');
    expect((await answer(null)).error.code).toBe(-32700);
    // The log line goes to stderr, the answer to stdout: either may arrive first.
    await vi.waitFor(() => expect(stderr).toMatch(/-32700 Parse error.*this is not json \{/));
    await alive(1);
  });

  it('JSON that is not a JSON-RPC message gets -32600, with its id when it has one', async () => {
    send('[1,2]');
    expect((await answer(null)).error.code).toBe(-32600);
    send('{"id":7,"method":12}');
    expect((await answer(7)).error.code).toBe(-32600);
    await alive(2);
  });

  it('a tools/call whose arguments is not an object gets -32602', async () => {
    for (const [id, args] of [
      [10, 'abc'],
      [11, [1, 2]],
      [12, 42],
      [13, null],
    ] as const) {
      send(call(id, 'agency_analysis', args));
      expect((await answer(id)).error.code, JSON.stringify(args)).toBe(-32602);
    }
    // The log line goes to stderr, the answer to stdout: either may arrive first.
    await vi.waitFor(() => expect(stderr).toMatch(/-32602 Invalid params/));
  });

  it('a message over the size limit gets a JSON-RPC error and a log line, and the server keeps answering', async () => {
    send(JSON.stringify({ jsonrpc: '2.0', id: 20, method: 'tools/list', params: { padding: 'x'.repeat(MAX_MESSAGE_BYTES) } }));
    const refused = await answer(null);
    expect(refused.error.code).toBe(-32600);
    expect(refused.error.message).toMatch(/over the \d+-byte limit/);
    // The log line goes to stderr, the answer to stdout: either may arrive first.
    await vi.waitFor(() => expect(stderr).toMatch(/over the \d+-byte limit/));
    expect(child.exitCode).toBeNull();
    await alive(21);
  });

  it('a tool error echoes the input it was given only up to a few hundred characters', async () => {
    const long = 'Q'.repeat(5000);
    send(call(30, 'list_websites', { target_url_domain: long }));
    const result = (await answer(30)).result as { isError: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    const text = result.content[0].text;
    expect(text).toMatch(/answered 400/);
    expect(text).toMatch(/more characters\)/);
    expect(text.length).toBeLessThan(4 * ECHOED);
  });
});
