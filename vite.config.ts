import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { defineConfig, type Plugin } from 'vite';
import { serviceWorker } from './tools/vite-plugin-service-worker.ts';
import { OPENAPI_FILES, type DataLabels } from './engine/openapi/documents.ts';
import type { Manifest } from './dataset/artifact/format.ts';
import { requestedRange } from './dataset/artifact/byte-range.ts';
import { mountAt } from './engine/http/mount.ts';

/**
 * Where the build is served: `BASE=/apps/gov/ npm run build` for a static host under a sub-path (GitHub Pages,
 * cloud.gov Pages; docs/deploy.md), the origin's root by default. The app's files, the service worker's scope,
 * the datasets and the APIs are all answered below it.
 */
const base = `${mountAt(process.env.BASE || '/')}/`;

/**
 * The dataset files are gzip'd SQLite, checked by sha256 over the gzip'd bytes. Vite's static server
 * (sirv) sends any `.gz` with `Content-Encoding: gzip`, so the browser would unpack it on the way and the
 * check would fail. Serve them as opaque `application/gzip` instead (docs/decisions/0302).
 */
function datasetFilesAsBytes(): Plugin {
  const serveFrom = (dir: () => string) => (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const path = decodeURIComponent((req.url ?? '').split('?')[0]);
    // The gzip'd datasets and their Brotli transfer copies: both cross as the bytes their sha256 describes.
    if (!/\.(gz|br)$/.test(path) || path.includes('..') || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const file = resolve(dir(), '.' + path);
    let size: number;
    let mtime: Date;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) return next();
      ({ size, mtime } = stat);
    } catch {
      return next();
    }
    const etag = `W/"${size}-${mtime.getTime()}"`;
    res.setHeader('Content-Type', path.endsWith('.gz') ? 'application/gzip' : 'application/octet-stream');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', etag);
    res.setHeader('Last-Modified', mtime.toUTCString());
    if (req.headers['if-none-match'] === etag) {
      res.statusCode = 304;
      return res.end();
    }
    // Byte ranges, so a cut download resumes where it stopped (docs/decisions/0406).
    res.setHeader('Accept-Ranges', 'bytes');
    const range = req.method === 'GET' ? requestedRange(req.headers.range, size) : null;
    if (range === 'unsatisfiable') {
      res.statusCode = 416;
      res.setHeader('Content-Range', `bytes */${size}`);
      return res.end();
    }
    if (range) {
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
      res.setHeader('Content-Length', String(range.end - range.start + 1));
      return createReadStream(file, range).pipe(res);
    }
    res.setHeader('Content-Length', String(size));
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  };
  let outDir = 'dist';
  let publicDir = 'public';
  return {
    name: 'offline-gov-api:dataset-files',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      publicDir = config.publicDir;
    },
    configurePreviewServer(server) {
      server.middlewares.use(serveFrom(() => outDir));
    },
    configureServer(server) {
      server.middlewares.use(serveFrom(() => publicDir));
    },
  };
}

/** Each built dataset's source line from the manifest the data step wrote, for the documents' descriptions. */
async function dataLabels(manifestPath: string): Promise<DataLabels> {
  try {
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
    return Object.fromEntries(Object.entries(manifest.datasets).map(([name, artifact]) => [name, artifact?.source?.label]));
  } catch {
    return {};
  }
}

/** The OpenAPI documents as files of the app, generated from the engine's parameter tables at build time. */
function openApiFiles(): Plugin {
  let publicDirectory = 'public';
  let mount = mountAt('/');
  return {
    name: 'offline-gov-api:openapi',
    configResolved(config) {
      publicDirectory = config.publicDir;
      // The app's server in each document is where the build is served.
      mount = mountAt(config.base);
    },
    async generateBundle() {
      const data = await dataLabels(resolve(publicDirectory, 'data', 'manifest.json'));
      for (const [path, document] of Object.entries(OPENAPI_FILES)) {
        this.emitFile({ type: 'asset', fileName: path.slice(1), source: JSON.stringify(document(data, mount), null, 2) + '\n' });
      }
    },
  };
}

export default defineConfig({
  base,
  // The datasets are built into public/data and served (and precached) as static files.
  publicDir: 'public',
  plugins: [
    datasetFilesAsBytes(),
    openApiFiles(),
    // Bundles worker/sw.ts after the app and injects the precache manifest (docs/decisions/0400).
    serviceWorker(),
  ],
  build: {
    target: 'es2022',
    sourcemap: true,
  },
  worker: {
    format: 'es',
    rolldownOptions: {
      output: {
        // The DB worker's body in a chunk of its own, never imported from its entry file (adapters/db-worker/db.worker.ts).
        codeSplitting: { groups: [{ name: 'db-worker-body', test: /adapters[\\/]db-worker[\\/]worker-body\.ts$/ }] },
      },
    },
  },
  preview: {
    port: 4173,
    strictPort: true,
    host: 'localhost',
  },
  server: {
    host: 'localhost',
  },
});
