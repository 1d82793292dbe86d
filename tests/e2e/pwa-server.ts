/**
 * A static file server for the PWA browser tests, with what Vite's preview server cannot do: switch the
 * directory it serves (a new deployment), stop answering (the network is gone: a request that still
 * arrives is counted, so a test can prove nothing reached the server), and count the bytes it sent.
 * Caching headers as a typical static host sends them: ETag + Last-Modified, `no-cache` (revalidate).
 */
import { createServer, type Server } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.gz': 'application/gzip',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface ServedRequest {
  method: string;
  path: string;
  status: number;
  /** Body bytes sent (0 for 304 and HEAD). */
  bytes: number;
}

export interface StaticServer {
  origin: string;
  /** Serve another directory from now on (a new deployment). */
  setRoot(dir: string): void;
  /** While offline, every request is refused (socket destroyed) and recorded in `refused`. */
  setOffline(offline: boolean): void;
  readonly log: ServedRequest[];
  readonly refused: string[];
  /** Body bytes sent since the last reset. */
  bytesSent(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startStaticServer(root: string): Promise<StaticServer> {
  let dir = resolve(root);
  let offline = false;
  const log: ServedRequest[] = [];
  const refused: string[] = [];

  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (offline) {
      refused.push(`${req.method} ${path}`);
      req.socket.destroy();
      return;
    }
    const file = normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
    const record = (status: number, bytes: number) => log.push({ method: req.method ?? 'GET', path, status, bytes });
    let size: number;
    let mtime: Date;
    try {
      if (!file.startsWith(dir)) throw new Error('outside root');
      const stat = statSync(file);
      if (!stat.isFile()) throw new Error('not a file');
      size = stat.size;
      mtime = stat.mtime;
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      record(404, 9);
      return;
    }
    const etag = `"${size.toString(16)}-${mtime.getTime().toString(16)}"`;
    const headers = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      etag,
      'last-modified': mtime.toUTCString(),
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      record(304, 0);
      return;
    }
    res.writeHead(200, { ...headers, 'content-length': String(size) });
    if (req.method === 'HEAD') {
      res.end();
      record(200, 0);
      return;
    }
    createReadStream(file).pipe(res);
    record(200, size);
  });
  await new Promise<void>((ok) => server.listen(0, 'localhost', ok));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('static server: no address');

  return {
    origin: `http://localhost:${address.port}`,
    setRoot: (next) => (dir = resolve(next)),
    setOffline: (value) => (offline = value),
    log,
    refused,
    bytesSent: () => log.reduce((n, r) => n + r.bytes, 0),
    reset() {
      log.length = 0;
      refused.length = 0;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
