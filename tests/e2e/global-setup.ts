/**
 * Browser tests run against the built app, not the dev server: build the SMALL data profile and the app
 * into their own directories (public/data and dist/ are left alone), serve them with Vite's preview
 * server on a free port, and hand the URL to the tests (`inject('baseUrl')`).
 *
 * E2E_REUSE_BUILD=1 serves the previous build as it is (for quick reruns while editing tests).
 */
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { build, preview, type PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';

const ROOT = resolve(import.meta.dirname, '../..');
const DATA_DIR = resolve(ROOT, '.tmp/e2e-data');
const PUBLIC_DIR = resolve(ROOT, '.tmp/e2e-public');
const OUT_DIR = resolve(ROOT, 'dist-test');

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the preview server, e.g. http://localhost:41234 */
    baseUrl: string;
    /** The served dataset files (manifest.json and the .sqlite.gz files). */
    dataDir: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, 'localhost', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

function buildData(): void {
  const result = spawnSync('npx', ['tsx', 'tools/build-data.ts', '--profile', 'small', '--out', DATA_DIR], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`data build failed (exit ${result.status})`);
}

/** public/ as the app ships it, with the small datasets in place of whatever public/data holds. */
function assemblePublicDir(): void {
  rmSync(PUBLIC_DIR, { recursive: true, force: true });
  mkdirSync(PUBLIC_DIR, { recursive: true });
  const source = resolve(ROOT, 'public');
  if (existsSync(source)) {
    cpSync(source, PUBLIC_DIR, { recursive: true, filter: (src) => resolve(src) !== resolve(source, 'data') });
  }
  cpSync(DATA_DIR, resolve(PUBLIC_DIR, 'data'), { recursive: true, filter: (src) => !src.endsWith('.build-stamp.json') });
}

async function buildApp(): Promise<void> {
  await build({
    mode: 'production',
    root: ROOT,
    configFile: resolve(ROOT, 'vite.config.ts'),
    publicDir: PUBLIC_DIR,
    logLevel: 'warn',
    build: { outDir: OUT_DIR, emptyOutDir: true },
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const reuse = process.env.E2E_REUSE_BUILD === '1' && existsSync(resolve(OUT_DIR, 'index.html'));
  if (!reuse) {
    buildData();
    assemblePublicDir();
    // vitest runs with NODE_ENV=test, which would make Vite build the app (and Lit) in dev mode:
    // the tests must exercise the production build that users get.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await buildApp();
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  }
  const port = await freePort();
  const server: PreviewServer = await preview({
    root: ROOT,
    configFile: resolve(ROOT, 'vite.config.ts'),
    publicDir: PUBLIC_DIR,
    logLevel: 'warn',
    build: { outDir: OUT_DIR },
    preview: { port, strictPort: true, host: 'localhost', open: false },
  });
  project.provide('baseUrl', `http://localhost:${port}`);
  project.provide('dataDir', resolve(OUT_DIR, 'data'));
  return async () => {
    await server.close();
  };
}
