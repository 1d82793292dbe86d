/**
 * A field link in front of a static server, for the first-visit chaos test: dataset files (`*.sqlite.gz`,
 * `*.sqlite.br`) come through at a throttled rate and the link is cut after a chosen number of data bytes
 * (the bytes before the cut are written, then the connection closes mid-body, as a lost link does); every other
 * file passes as it is. Range requests pass to the server, which answers them. As a plain static host, it sends no
 * caching header (no ETag, Last-Modified or Cache-Control): the browser's HTTP cache can neither revalidate a file
 * nor resume one itself, so what crosses twice is what the app asked twice. It counts what it carried.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';

export interface CarriedRequest {
  path: string;
  status: number;
  range: string | null;
  /** Body bytes carried to the browser. */
  bytes: number;
  /** The link was cut in this response. */
  cut: boolean;
}

export interface ChaosLink {
  origin: string;
  /** Cut the link once it has carried each of these many more data bytes (counted from now, ascending); none: no cut. */
  cutAfter(...bytes: number[]): void;
  /** Carry the data at this many bytes a second from now. */
  setRate(bytesPerSecond: number): void;
  /** The dataset file requests carried so far. */
  readonly data: CarriedRequest[];
  close(): Promise<void>;
}

const DATA_FILE = /\.sqlite\.(gz|br)$/;
/** Bytes written at once on the throttled link. */
const PIECE_BYTES = 16 * 1024;
/** How long after the last byte before a cut the connection is closed (as harness/browsers/pwa-server.ts does, for the same reason). */
const CUT_CLOSE_DELAY_MS = 300;

export async function startChaosLink(upstream: string, { bytesPerSecond: initialRate = 512 * 1024 } = {}): Promise<ChaosLink> {
  let bytesPerSecond = initialRate;
  const data: CarriedRequest[] = [];
  /** The data bytes carried at which the link is cut, ascending. */
  let cuts: number[] = [];
  const carried = () => data.reduce((n, r) => n + r.bytes, 0);
  const pause = (bytes: number) => new Promise((resolve) => setTimeout(resolve, (bytes / bytesPerSecond) * 1000));

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', upstream);
    // Without validators there is nothing to revalidate: the server's 304s are not asked for.
    const { 'if-none-match': _tag, 'if-modified-since': _since, ...asked } = req.headers;
    const forward = request(url, { method: req.method, headers: { ...asked, host: url.host } }, (answer: IncomingMessage) => {
      const { etag: _etag, 'last-modified': _modified, 'cache-control': _cache, ...headers } = answer.headers;
      res.writeHead(answer.statusCode ?? 502, headers);
      if (!DATA_FILE.test(url.pathname)) {
        answer.pipe(res);
        return;
      }
      const entry: CarriedRequest = { path: url.pathname, status: answer.statusCode ?? 0, range: req.headers.range ?? null, bytes: 0, cut: false };
      data.push(entry);
      void (async () => {
        for await (const chunk of answer as AsyncIterable<Buffer>) {
          for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
            let piece = chunk.subarray(at, at + PIECE_BYTES);
            const left = cuts.length === 0 ? Infinity : cuts[0] - carried();
            if (left <= piece.length) {
              piece = piece.subarray(0, Math.max(left, 0));
              entry.bytes += piece.length;
              entry.cut = true;
              cuts = cuts.slice(1);
              answer.destroy();
              res.write(piece, () => setTimeout(() => req.socket.end(), CUT_CLOSE_DELAY_MS));
              return;
            }
            await pause(piece.length);
            entry.bytes += piece.length;
            if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
          }
        }
        res.end();
      })().catch(() => res.destroy());
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((ok) => server.listen(0, 'localhost', ok));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('chaos link: no address');
  return {
    origin: `http://localhost:${address.port}`,
    setRate: (rate) => (bytesPerSecond = rate),
    cutAfter: (...bytes) => (cuts = bytes.map((n) => carried() + n)),
    data,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
