import type { Server } from 'node:http';

/** How long a shutdown waits for answers in flight and requests still arriving, by default. */
export const DEFAULT_GRACE_MS = 10_000;

/**
 * Stop accepting connections, let every request already received be answered, and cut the connections
 * still busy after `graceMs` (a request half sent, a slow reader). Resolves once every connection is closed.
 */
export function closeGracefully(server: Server, graceMs: number = DEFAULT_GRACE_MS): Promise<void> {
  return new Promise((done, fail) => {
    // A keep-alive connection is idle once its answer is written: close it then rather than at its timeout.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    idle.unref();
    cut.unref();
    server.close((error) => {
      clearInterval(idle);
      clearTimeout(cut);
      if (error) fail(error);
      else done();
    });
  });
}
