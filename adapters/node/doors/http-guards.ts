/**
 * What the HTTP door refuses before any route sees the request, answered as nginx (or RFC 9112) would
 * rather than guessed at or dropped: a missing, repeated or malformed Host, and CONNECT.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ALLOWED_METHODS } from '../../../engine/http/cors.ts';

/**
 * `uri-host [":" port]` (RFC 9110 7.2, RFC 3986 3.2.2): an IP literal in brackets or a reg-name of
 * unreserved, percent-encoded and sub-delims characters. A path, user info (`@`) or a space is not a host.
 */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+)(?::[0-9]{0,5})?$/;

/**
 * Why the request's Host header makes it a bad request (RFC 9112 3.2: a server MUST answer 400 to an
 * HTTP/1.1 request without one, with more than one, or with an invalid one), or null. `rawHeaders` is
 * Node's flat name/value list: Node itself keeps only the first of two Host headers, so they are counted here.
 * nginx also refuses `..` in a host name; so does this.
 */
export function hostProblem(rawHeaders: readonly string[], httpVersion: string): string | null {
  const hosts: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === 'host') hosts.push(rawHeaders[i + 1]);
  if (hosts.length > 1) return 'Bad Request: more than one Host header';
  if (hosts.length === 0) return httpVersion === '1.0' ? null : 'Bad Request: no Host header';
  const host = hosts[0];
  if (!HOST.test(host) || host.includes('..')) return 'Bad Request: invalid Host header';
  return null;
}

const CONNECT_ANSWER =
  `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOWED_METHODS}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
  'Content-Length: 23\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\nCONNECT is not allowed.';

/**
 * Node hands a CONNECT to 'connect' listeners and, with none, destroys the socket: the client sees a dropped
 * connection. This is not a proxy: say so with a 405 and close.
 */
export function refuseConnect(server: Server): void {
  server.on('connect', (_request: unknown, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(CONNECT_ANSWER);
  });
}
