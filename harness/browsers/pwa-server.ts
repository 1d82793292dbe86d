/**
 * A static file server for the PWA browser tests, with what Vite's preview server cannot do: switch the
 * directory it serves (a new deployment), stop answering (the network is gone: a request that still
 * arrives is counted, so a test can prove nothing reached the server), and count the bytes it sent.
 * Caching headers as a typical static host sends them: ETag + Last-Modified, `no-cache` (revalidate).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { requestedRange } from '../../dataset/artifact/byte-range.ts';

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

/** How long after the last byte before a cut the connection is closed (see the cut below). */
const CUT_CLOSE_DELAY_MS = 300;

export interface ServedRequest {
  method: string;
  path: string;
  status: number;
  /** Body bytes sent (0 for 304 and HEAD; for a cut response, the bytes written before the cut). */
  bytes: number;
  /** The Range header asked, if any. */
  range?: string;
  /** When the last byte of the answer was handed to the socket (epoch ms); unset while it is still being sent. */
  finishedAt?: number;
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
  /** Answer Range requests (206/416), as the project's servers and ordinary static hosts do; off: always 200. */
  setRanges(on: boolean): void;
  /**
   * Cut the link after this many body bytes of dataset responses (`*.sqlite.gz`, `*.sqlite.br`), counted over all of them from now
   * (the socket is destroyed mid-body, as a lost connection does); null: no cut.
   */
  cutDataAfter(bytes: number | null): void;
  /** Hold the requests of paths containing `file` (every dataset file by default) until the returned function is called. */
  holdData(file?: string): () => void;
  reset(): void;
  close(): Promise<void>;
}

export interface StaticServerOptions {
  /**
   * Send ETag, Last-Modified and `Cache-Control: no-cache` (default), or no caching header at all, as a plain static
   * host may: then the browser can neither revalidate a file nor reuse it unasked.
   */
  cacheHeaders?: boolean;
  /** Headers sent with every file, as a host configures them (a Content-Security-Policy that also covers the workers). */
  headers?: Record<string, string>;
}

export async function startStaticServer(root: string, { cacheHeaders = true, headers: always = {} }: StaticServerOptions = {}): Promise<StaticServer> {
  let dir = resolve(root);
  let offline = false;
  let ranges = true;
  let cutAfter: number | null = null;
  let held: { file: string; done: Promise<void> } | null = null;
  const log: ServedRequest[] = [];
  const refused: string[] = [];

  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (held && path.includes(held.file)) void held.done.then(() => answer(req, res, path));
    else answer(req, res, path);
  });
  const answer = (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (offline) {
      refused.push(`${req.method} ${path}`);
      req.socket.destroy();
      return;
    }
    const file = normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
    const record = (status: number, bytes: number) => log.push({ method: req.method ?? 'GET', path, status, bytes, finishedAt: Date.now() });
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
      ...always,
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      ...(cacheHeaders ? { 'cache-control': 'no-cache', etag, 'last-modified': mtime.toUTCString() } : {}),
    };
    if (cacheHeaders && req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      record(304, 0);
      return;
    }
    const range = ranges && req.method === 'GET' ? requestedRange(req.headers.range, size) : null;
    if (range === 'unsatisfiable') {
      res.writeHead(416, { ...headers, 'content-range': `bytes */${size}` }).end();
      log.push({ method: req.method ?? 'GET', path, status: 416, bytes: 0, range: req.headers.range, finishedAt: Date.now() });
      return;
    }
    const start = range ? range.start : 0;
    const end = range ? range.end : size - 1;
    const rangeHeaders = ranges ? { 'accept-ranges': 'bytes', ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}) } : {};
    res.writeHead(range ? 206 : 200, { ...headers, ...rangeHeaders, 'content-length': String(end - start + 1) });
    if (req.method === 'HEAD') {
      res.end();
      record(200, 0);
      return;
    }
    const entry: ServedRequest = { method: req.method ?? 'GET', path, status: range ? 206 : 200, bytes: 0, range: req.headers.range };
    log.push(entry);
    const cuttable = /\.sqlite\.(gz|br)$/.test(path);
    const stream = createReadStream(file, { start, end });
    stream.on('data', (chunk) => {
      const bytes = chunk as Buffer;
      if (cuttable && cutAfter !== null) {
        const left = cutAfter - bytesOfData();
        if (left <= bytes.length) {
          stream.destroy();
          entry.bytes += Math.max(left, 0);
          // The link goes after these bytes: the peer receives them, then sees the connection close (FIN)
          // mid-body. The close waits a moment: Chromium errors a body stream as soon as its loader fails, and
          // bytes not yet read from the pipe are dropped, so an immediate close made what the page kept depend
          // on a race (a reset drops bytes already on the wire too, which no client can keep).
          res.write(bytes.subarray(0, Math.max(left, 0)), () => {
            entry.finishedAt = Date.now();
            setTimeout(() => req.socket.end(), CUT_CLOSE_DELAY_MS);
          });
          cutAfter = null;
          return;
        }
      }
      entry.bytes += bytes.length;
      if (!res.write(bytes)) {
        stream.pause();
        res.once('drain', () => stream.resume());
      }
    });
    stream.on('end', () => res.end(() => (entry.finishedAt = Date.now())));
  };
  const bytesOfData = () => log.filter((r) => /\.sqlite\.(gz|br)$/.test(r.path)).reduce((n, r) => n + r.bytes, 0);
  await new Promise<void>((ok) => server.listen(0, 'localhost', ok));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('static server: no address');

  return {
    origin: `http://localhost:${address.port}`,
    setRoot: (next) => (dir = resolve(next)),
    setOffline: (value) => (offline = value),
    setRanges: (on) => (ranges = on),
    holdData(file = '.sqlite.') {
      let release!: () => void;
      held = { file, done: new Promise<void>((resolve) => (release = resolve)) };
      return () => {
        held = null;
        release();
      };
    },
    cutDataAfter(bytes) {
      cutAfter = bytes === null ? null : bytesOfData() + bytes;
    },
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
