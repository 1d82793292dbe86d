import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../../../engine/http/engine.ts';
import { startServer, type RunningServer } from '../../../adapters/node/doors/server.ts';
import { cacheControl, contentSecurityPolicy, fileTag, tagMatches } from '../../../adapters/node/doors/static-files.ts';
import { engineOver, generatedDatabase } from '../../../harness/engine.ts';
import { comparable, SAMPLE_REQUESTS } from './samples.ts';

const INDEX_HTML = `<!doctype html><html><head>
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; object-src 'none'" />
</head><body>app</body></html>`;
const GZ = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

let engine: Engine;
let server: RunningServer;
let appDir: string;

beforeAll(async () => {
  engine = engineOver('websites', await generatedDatabase('websites'));
  engine.use('ceilingrates', await generatedDatabase('ceilingrates'));
  appDir = mkdtempSync(join(tmpdir(), 'doors-app-'));
  mkdirSync(join(appDir, 'assets'));
  mkdirSync(join(appDir, 'data'));
  writeFileSync(join(appDir, 'index.html'), INDEX_HTML);
  writeFileSync(join(appDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(appDir, 'assets/index-DskHzNmo.js'), 'console.log(1);');
  writeFileSync(join(appDir, 'assets/sql-wasm-browser-CXIAVl5-.wasm'), new Uint8Array([0, 97, 115, 109]));
  writeFileSync(join(appDir, 'data/websites.sqlite.gz'), GZ);
  writeFileSync(join(appDir, 'data/websites.sqlite.br'), GZ.subarray(3));
  server = await startServer({ engine, appDir, port: 0 });
});

afterAll(async () => {
  await server?.close();
  rmSync(appDir, { recursive: true, force: true });
});

describe('HTTP server: the APIs', () => {
  it("answers the API's own 500, in its own shape, when its backend cannot answer (a worker thread lost)", async () => {
    const failing = await startServer({ engine: { apis: engine.apis, answer: () => Promise.reject(new Error('worker thread exited (1)')) }, port: 0 });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const websites = await fetch(`${failing.url}/websites?limit=1`);
      expect(websites.status).toBe(500);
      expect(await websites.json()).toMatchObject({ statusCode: 500, message: expect.any(String) });
      const rates = await fetch(`${failing.url}/api/v3/search/ceilingrates/`);
      expect(rates.status).toBe(500);
      expect(Object.keys(await rates.json())).toEqual(['detail']);
      expect(rates.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      errors.mockRestore();
      await failing.close();
    }
  });

  it('answers every sampled request as the engine does: status, headers and body', async () => {
    for (const { method, url } of SAMPLE_REQUESTS) {
      const expected = engine.handle({ method, url });
      const response = await fetch(server.url + url, { method });
      const label = `${method} ${url}`;
      expect(response.status, label).toBe(expected.status);
      for (const [name, value] of Object.entries(expected.headers)) expect(response.headers.get(name), `${label} ${name}`).toBe(value);
      expect(comparable(await response.text()), label).toBe(comparable(expected.body));
    }
  });

  it('answers a CORS preflight with the asked headers allowed', async () => {
    const response = await fetch(`${server.url}/websites?limit=1`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe('x-api-key');
  });

  it('passes the request headers to the engine (the api_key header is accepted and ignored)', async () => {
    const response = await fetch(`${server.url}/websites?limit=1&api_key=DEMO_KEY`, { headers: { 'X-Api-Key': 'DEMO_KEY' } });
    expect(response.status).toBe(200);
  });
});

describe('HTTP server: the built app', () => {
  it('index.html and sw.js revalidate and carry the page policy as a header, with wasm for the workers', async () => {
    for (const path of ['/', '/index.html', '/sw.js']) {
      const response = await fetch(server.url + path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
      expect(response.headers.get('content-security-policy'), path).toBe(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; frame-ancestors 'none'",
      );
    }
    expect((await fetch(server.url + '/')).headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await fetch(server.url + '/sw.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('hashed assets are immutable; wasm has its type', async () => {
    const js = await fetch(`${server.url}/assets/index-DskHzNmo.js`);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const wasm = await fetch(`${server.url}/assets/sql-wasm-browser-CXIAVl5-.wasm`);
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    expect(wasm.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('dataset files cross as their own bytes: application/gzip with no Content-Encoding', async () => {
    const response = await fetch(`${server.url}/data/websites.sqlite.gz`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(GZ);
  });

  it('a dataset file answers byte ranges, so a cut download resumes: 206 with Content-Range, 416 past the end', async () => {
    const rest = await fetch(`${server.url}/data/websites.sqlite.gz`, { headers: { Range: 'bytes=7-' } });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes 7-${GZ.length - 1}/${GZ.length}`);
    expect(rest.headers.get('content-encoding')).toBeNull();
    expect(new Uint8Array(await rest.arrayBuffer())).toEqual(GZ.subarray(7));
    const middle = await fetch(`${server.url}/data/websites.sqlite.gz`, { headers: { Range: 'bytes=2-4' } });
    expect(middle.status).toBe(206);
    expect(new Uint8Array(await middle.arrayBuffer())).toEqual(GZ.subarray(2, 5));
    const past = await fetch(`${server.url}/data/websites.sqlite.gz`, { headers: { Range: `bytes=${GZ.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${GZ.length}`);
    await past.arrayBuffer();
    // The Brotli transfer copy too: its own bytes, no Content-Encoding, ranges.
    const br = await fetch(`${server.url}/data/websites.sqlite.br`, { headers: { Range: 'bytes=4-', 'Accept-Encoding': 'br' } });
    expect(br.status).toBe(206);
    expect(br.headers.get('content-encoding')).toBeNull();
    expect(new Uint8Array(await br.arrayBuffer())).toEqual(GZ.subarray(7));
  });

  it('a file revalidates: its ETag sent back answers 304 with no body, keeping Cache-Control; a changed file 200', async () => {
    const first = await fetch(`${server.url}/data/websites.sqlite.gz`);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    await first.arrayBuffer();
    const again = await fetch(`${server.url}/data/websites.sqlite.gz`, { headers: { 'If-None-Match': `"other", ${tag}` } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('no-cache');
    expect(again.headers.get('etag')).toBe(tag);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    const stale = await fetch(`${server.url}/data/websites.sqlite.gz`, { headers: { 'If-None-Match': 'W/"0-0"' } });
    expect(stale.status).toBe(200);
    expect(new Uint8Array(await stale.arrayBuffer())).toEqual(GZ);
  });

  it('API answers carry no file validator', async () => {
    const response = await fetch(`${server.url}/websites?limit=1`, { headers: { 'If-None-Match': '*' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBeNull();
  });

  it('an unknown file is a plain 404, and the app root paths that are no API stay the app', async () => {
    const response = await fetch(`${server.url}/nothing.js`);
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('static policies', () => {
  it('If-None-Match compares weakly, lists and the wildcard included', () => {
    expect(tagMatches('W/"a-1"', fileTag(10, 1))).toBe(true);
    expect(tagMatches('"a-1"', fileTag(10, 1.9))).toBe(true);
    expect(tagMatches('"x", W/"a-1" ', fileTag(10, 1))).toBe(true);
    expect(tagMatches('*', fileTag(10, 1))).toBe(true);
    expect(tagMatches('W/"a-2"', fileTag(10, 1))).toBe(false);
    expect(tagMatches(undefined, fileTag(10, 1))).toBe(false);
  });

  it('only Vite-hashed assets are immutable', () => {
    expect(cacheControl('/assets/db.worker-BqPCkgkd.js')).toContain('immutable');
    expect(cacheControl('/assets/db.worker-BqPCkgkd.js.map')).toContain('immutable');
    expect(cacheControl('/index.html')).toBe('no-cache');
    expect(cacheControl('/playground.js')).toBe('no-cache');
    expect(cacheControl('/data/ceilingrates.sqlite.gz')).toBe('no-cache');
  });

  it('no page policy, no header; one already allowing wasm is kept as is', () => {
    expect(contentSecurityPolicy('<html></html>')).toBeNull();
    expect(contentSecurityPolicy(`<meta http-equiv="Content-Security-Policy" content="script-src 'self' 'wasm-unsafe-eval'; frame-ancestors 'self'">`)).toBe(
      "script-src 'self' 'wasm-unsafe-eval'; frame-ancestors 'self'",
    );
  });
});

describe('HTTP server: the OpenAPI documents', () => {
  it('publishes them at the app paths and at production Site Scanning document path, readable cross-origin', async () => {
    const { combinedDocument, siteScanningDocument, ceilingRatesDocument } = await import('../../../engine/openapi/documents.ts');
    for (const [path, document] of [
      ['/openapi.json', combinedDocument()],
      ['/openapi/site-scanning.json', siteScanningDocument()],
      ['/openapi/ceiling-rates.json', ceilingRatesDocument()],
      ['/technology/site-scanning/v1/api-json', siteScanningDocument()],
    ] as const) {
      const response = await fetch(server.url + path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(await response.json(), path).toEqual(document);
    }
    // Another method at a document path is the API's own answer.
    const post = await fetch(`${server.url}/technology/site-scanning/v1/api-json`, { method: 'POST' });
    expect([post.status, await post.json()]).toEqual([
      404,
      { statusCode: 404, message: 'Cannot POST /technology/site-scanning/v1/api-json', error: 'Not Found' },
    ]);
  });
});
