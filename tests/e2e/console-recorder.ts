/**
 * The errors a page logs or throws, recorded in the page itself, for the browser whose console no driver reads:
 * WebKitGTK writes no console message of an automated (ephemeral) session anywhere, and W3C WebDriver classic has
 * no log. A proxy in front of the static server puts one script of its own first in every HTML page it passes
 * (a file of the same origin: the app's security policy allows it), which records `console.error` calls, uncaught
 * errors (ResizeObserver's loop error among them) and unhandled rejections before any of the app's scripts runs.
 * What a worker logs is not seen this way. Everything else passes as it is.
 */
import { createServer, request, type Server } from 'node:http';
import type { EvaluatingPage } from '../../harness/browsers/driver-page.ts';

export const RECORDER_PATH = '/__e2e-console-recorder.js';

/** Runs first in each page: the page's errors, in order, in `window.__errors`. */
const RECORDER = `(() => {
  const errors = (window.__errors = []);
  const text = (value) => (value instanceof Error ? value.message : String(value));
  const error = console.error;
  console.error = function (...args) {
    errors.push('console.error: ' + args.map(text).join(' '));
    return error.apply(this, args);
  };
  addEventListener('error', (event) => errors.push('error: ' + (event.message || text(event.error))));
  addEventListener('unhandledrejection', (event) => errors.push('unhandled rejection: ' + text(event.reason)));
})();
`;

export interface ConsoleRecorder {
  origin: string;
  close(): Promise<void>;
}

export async function startConsoleRecorder(upstream: string): Promise<ConsoleRecorder> {
  const server: Server = createServer((req, res) => {
    if (req.url === RECORDER_PATH) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(RECORDER);
      return;
    }
    const url = new URL(req.url ?? '/', upstream);
    // Asked whole: a page is rewritten, and a 304 would keep the browser's copy (without the script) in use.
    const { 'if-none-match': _tag, 'if-modified-since': _since, ...asked } = req.headers;
    const forward = request(url, { method: req.method, headers: { ...asked, host: url.host } }, (answer) => {
      if (!(answer.headers['content-type'] ?? '').startsWith('text/html')) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const parts: Buffer[] = [];
      answer.on('data', (part: Buffer) => parts.push(part));
      answer.on('end', () => {
        const page = Buffer.concat(parts)
          .toString('utf8')
          .replace(/<head>/i, `<head><script src="${RECORDER_PATH}"></script>`);
        const { 'content-length': _length, etag: _etag, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': Buffer.byteLength(page) }).end(page);
      });
      answer.on('error', () => res.destroy());
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((ok) => server.listen(0, 'localhost', ok));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('console recorder: no address');
  return {
    origin: `http://localhost:${address.port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** The errors the page recorded since it loaded (null: the recorder is not in this page). */
export function recordedErrors(page: EvaluatingPage): Promise<string[] | null> {
  return page.evaluate(() => (window as unknown as { __errors?: string[] }).__errors ?? null, null);
}
