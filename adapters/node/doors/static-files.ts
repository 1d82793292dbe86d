/**
 * The built app as static files: the types and caching a PWA needs, the dataset files as opaque bytes, and
 * the page's Content-Security-Policy as a header that also covers the workers.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MANIFEST_FILE, type Manifest } from '../../../dataset/artifact/format.ts';
import type { Context, MiddlewareHandler, Next } from 'hono';
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

/** A file's validator from its size and modification time, as static servers make them: no need to read it. */
export function fileTag(size: number, modified: number): string {
  return `W/"${size.toString(16)}-${Math.floor(modified).toString(16)}"`;
}

/** Whether an If-None-Match header names the tag (weak comparison, RFC 9110 13.1.2). */
export function tagMatches(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (t: string): string => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => opaque(t) === opaque(tag));
}

/** A file made here rather than read as it is, with the headers serveStatic gives the others. */
function servedFile(c: Context, text: string, type: string, policy: string | null): Response {
  const headers = new Headers({
    'Content-Type': `${type}; charset=utf-8`,
    ETag: `W/"${createHash('sha256').update(text).digest('hex').slice(0, 16)}"`,
    'Cache-Control': cacheControl(c.req.path),
    'X-Content-Type-Options': 'nosniff',
  });
  if (policy) headers.set('Content-Security-Policy', policy);
  return new Response(c.req.method === 'HEAD' ? null : text, { status: 200, headers });
}

/** The headers of the 200 a 304 sends too (RFC 9110 15.4.5). */
const SENT_WITH_304 = ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary'];

/**
 * The datasets' manifest as this directory can serve it: the extras whose files are not here left out (an installed
 * package holds them only once fetched, a clone's `npm start` once built), so the app never offers a file that 404s.
 * The version is the first visit's files' alone (dataset/artifact/manifest.ts): it stays what the service worker expects.
 */
export function servedManifest(manifestPath: string): string {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  if (!manifest.extras) return JSON.stringify(manifest);
  const present = manifest.extras.filter((extra) => existsSync(resolve(dirname(manifestPath), extra.file)));
  return JSON.stringify({ ...manifest, extras: present });
}

const MANIFEST_PATH = `/data/${MANIFEST_FILE}`;

/**
 * The files of a directory. `appPolicy` (the built app's default): send the policy of its index.html with each; a
 * folder of the user's own pages (`serve --pages`) keeps whatever policy its pages declare themselves.
 */
export function staticFiles(dir: string, { appPolicy = true }: { appPolicy?: boolean } = {}): MiddlewareHandler {
  let policy: string | null = null;
  try {
    if (appPolicy) policy = contentSecurityPolicy(readFileSync(resolve(dir, 'index.html'), 'utf8'));
  } catch {
    // No built page: nothing to protect, and the server still answers the APIs.
  }
  const serve = serveStatic({
    root: dir,
    // Never `precompressed`: a .gz dataset file must cross as the bytes its sha256 describes, as
    // application/gzip with no Content-Encoding (docs/decisions/0302).
    onFound: (path: string, c: Context) => {
      const { size, mtimeMs } = statSync(path);
      c.header('ETag', fileTag(size, mtimeMs));
      c.header('Cache-Control', cacheControl(c.req.path));
      c.header('X-Content-Type-Options', 'nosniff');
      if (policy) c.header('Content-Security-Policy', policy);
    },
  });
  // Revalidation of the no-cache files (the shell, sw.js, the 14 MB datasets) answers 304 when nothing changed.
  return async (c: Context, next: Next) => {
    let passedOn = false;
    const manifest = resolve(dir, MANIFEST_PATH.slice(1));
    const found =
      (c.req.method === 'GET' || c.req.method === 'HEAD') && c.req.path === MANIFEST_PATH && existsSync(manifest)
        ? servedFile(c, servedManifest(manifest), 'application/json', policy)
        : await serve(c, async () => {
            passedOn = true;
            await next();
          });
    if (found) c.res = found;
    const tag = c.res.headers.get('ETag');
    if (passedOn || !tag || c.res.status !== 200 || !tagMatches(c.req.header('If-None-Match'), tag)) return;
    await c.res.body?.cancel();
    const headers = new Headers();
    for (const name of SENT_WITH_304) {
      const value = c.res.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    c.res = new Response(null, { status: 304, headers });
  };
}
