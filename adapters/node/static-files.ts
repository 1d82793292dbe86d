/**
 * The built app as static files: the types and caching a PWA needs, the dataset files as opaque bytes, and
 * the page's Content-Security-Policy as a header that also covers the workers.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Context, MiddlewareHandler } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';

/** Vite's hashed output (`assets/index-DskHzNmo.js`): a new build gives new names, so these never change. */
const HASHED_ASSET = /^\/assets\/.+-[A-Za-z0-9_-]{8}\.[a-z0-9.]+$/;

export function cacheControl(path: string): string {
  // Everything else (index.html, sw.js, the manifest, the datasets, icons) revalidates: the service worker
  // and the dataset manifest decide what is new.
  return HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * The policy index.html carries as a meta element, sent as a header: a header also governs the worker
 * scripts, which compile sql.js's wasm (`'wasm-unsafe-eval'`), and may say `frame-ancestors`, which a meta
 * element cannot (docs/decisions/0800). Null when the page has no policy.
 */
export function contentSecurityPolicy(indexHtml: string): string | null {
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(indexHtml);
  if (!meta) return null;
  const directives = meta[1]
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => (d.startsWith('script-src ') && !d.includes("'wasm-unsafe-eval'") ? `${d} 'wasm-unsafe-eval'` : d));
  if (!directives.some((d) => d.startsWith('frame-ancestors'))) directives.push("frame-ancestors 'none'");
  return directives.join('; ');
}

export function staticFiles(appDir: string): MiddlewareHandler {
  let policy: string | null = null;
  try {
    policy = contentSecurityPolicy(readFileSync(resolve(appDir, 'index.html'), 'utf8'));
  } catch {
    // No built page: nothing to protect, and the server still answers the APIs.
  }
  return serveStatic({
    root: appDir,
    // Never `precompressed`: a .gz dataset file must cross as the bytes its sha256 describes, as
    // application/gzip with no Content-Encoding (docs/decisions/0302).
    onFound: (_path: string, c: Context) => {
      c.header('Cache-Control', cacheControl(c.req.path));
      c.header('X-Content-Type-Options', 'nosniff');
      if (policy) c.header('Content-Security-Policy', policy);
    },
  });
}
