import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import type { Engine } from '../../../engine/http/engine.ts';
import { startServer, type RunningServer } from '../../../adapters/node/doors/server.ts';
import { hostProblem } from '../../../adapters/node/doors/http-guards.ts';
import { engineOver, generatedDatabase } from '../../../harness/engine.ts';

let engine: Engine;
let server: RunningServer;

beforeAll(async () => {
  engine = engineOver('websites', await generatedDatabase('websites', 20));
  server = await startServer({ engine, port: 0 });
});
afterAll(() => server?.close());

/** Sends raw bytes and resolves with everything the server answers until it closes the connection. */
function raw(text: string): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => done(received));
    socket.write(text);
  });
}

describe('HTTP server: requests refused before any route, as nginx would', () => {
  it('answers two Host headers 400 (Node alone would keep the first and answer)', async () => {
    const answer = await raw('GET /websites?limit=1 HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('more than one Host header');
    expect(answer).not.toContain('"items"');
  });

  it('answers a Host that is not a host 400', async () => {
    for (const host of ['a/b', 'user@localhost', 'local..host', 'a b']) {
      const answer = await raw(`GET /websites?limit=1 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(answer, host).toMatch(/^HTTP\/1\.1 400 /);
    }
  });

  it('answers CONNECT 405 with the methods allowed, instead of dropping the connection', async () => {
    const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(answer).toContain('Allow: GET, HEAD, OPTIONS');
  });

  it('answers an odd request line 400', async () => {
    for (const line of ['BLAH / HTTP/1.1', 'GET / HTTP/9.9', 'GET', 'get / HTTP/1.1']) {
      expect(await raw(`${line}\r\nHost: localhost\r\n\r\n`), line).toMatch(/^HTTP\/1\.1 400 /);
    }
  });

  it('accepts the hosts clients send: names, ports, IPv4 and IPv6 literals; HTTP/1.0 without one', () => {
    for (const host of ['localhost', 'localhost:4173', '127.0.0.1:8080', '[::1]:4173', 'api.example.gov']) {
      expect(hostProblem(['Host', host], '1.1'), host).toBeNull();
    }
    expect(hostProblem([], '1.0')).toBeNull();
    expect(hostProblem([], '1.1')).toMatch(/no Host/);
    expect(hostProblem(['host', 'a', 'HOST', 'a'], '1.1')).toMatch(/more than one/);
  });
});

describe('HTTP server: X-Content-Type-Options', () => {
  it('says nosniff on every answer: API answers, errors, the OpenAPI document and a 404', async () => {
    for (const path of ['/websites?limit=1', '/websites?limit=0', '/openapi.json', '/nothing-here', '/api/v3/search/ceilingrates/']) {
      const response = await fetch(server.url + path);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});
