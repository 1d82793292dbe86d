import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture, serveCli } from './cli-process.ts';

let noBuild: string;
beforeAll(() => {
  noBuild = mkdtempSync(join(tmpdir(), 'doors-shutdown-'));
});
afterAll(() => rmSync(noBuild, { recursive: true, force: true }));

/** A raw connection, with everything the server sends collected, and a promise of its end. */
function open(url: string): { socket: Socket; received: () => string; closed: Promise<void>; seen: (text: string) => Promise<void> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  const waiting: { text: string; done: () => void }[] = [];
  socket.on('data', (chunk) => {
    received += chunk.toString();
    for (const w of waiting.filter((w) => received.includes(w.text))) w.done();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  const seen = (text: string): Promise<void> => (received.includes(text) ? Promise.resolve() : new Promise((done) => waiting.push({ text, done })));
  return { socket, received: () => received, closed, seen };
}

const serve = (...args: string[]) => serveCli(['--no-app', '--data', noBuild, '--websites', fixture('websites-current.csv'), ...args]);

describe('offline-gov-api serve: shutdown on SIGTERM and SIGINT', () => {
  it('finishes an answer in flight, then exits 0', async () => {
    const served = await serve('--delay', '1500', '--workers', '2');
    const connection = open(served.url);
    // `Expect: 100-continue` makes the server say when it has read the request: then it is in flight.
    connection.socket.write('GET /websites?limit=1 HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\n\r\n');
    await connection.seen('100 Continue');
    const exit = served.signal('SIGTERM');
    await connection.closed;
    expect(connection.received()).toMatch(/HTTP\/1\.1 200 OK[\s\S]*"items":\[/);
    expect(await exit).toBe(0);
    expect(served.stderr()).toMatch(/SIGTERM: finishing the answers in flight \(up to 10 s\)/);
  });

  it('cuts a half-sent request after the grace period, and exits 0', async () => {
    const served = await serve('--grace', '1', '--workers', '1');
    const connection = open(served.url);
    // The headers announce a body that never comes.
    connection.socket.write('POST /websites HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n');
    await connection.seen('100 Continue');
    connection.socket.write('{"half":');
    const exit = served.signal('SIGINT');
    await connection.closed;
    expect(await exit).toBe(0);
    expect(connection.socket.destroyed).toBe(true);
  });
});
