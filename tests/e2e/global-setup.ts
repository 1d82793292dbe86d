/**
 * Browser tests run against the built app, not the dev server: build the SMALL data profile and the app
 * into their own directories (public/data and dist/ are left alone), serve them with Vite's preview
 * server on a free port, and hand the URL to the tests (`inject('baseUrl')`). The component tests' fixture
 * page (tests/e2e/components/fixture) is built and served the same way, once per run
 * (`inject('componentsUrl')`).
 *
 * E2E_REUSE_BUILD=1 serves the previous app build as it is (for quick reruns while editing tests); the fixture
 * page is small and always built again.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { build, preview, type PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';
import { chromium } from 'playwright-core';
import { assemblePublicDir, buildApp, NEXT_RELEASE } from '../../harness/browsers/build-app.ts';
import { CHROME_FLAGS, chromePath } from '../../harness/browsers/browser.ts';
import { freePort } from '../../harness/free-port.ts';
import { buildNodeOnce } from '../../tools/build-node.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DATA_DIR = resolve(ROOT, '.tmp/e2e-data');
const PUBLIC_DIR = resolve(ROOT, '.tmp/e2e-public');
const OUT_DIR = resolve(ROOT, 'dist-test');
const FIXTURE_ROOT = resolve(ROOT, 'tests/e2e/components/fixture');
const FIXTURE_OUT_DIR = resolve(ROOT, '.tmp/e2e-components');
const NEXT_PUBLIC_DIR = resolve(ROOT, '.tmp/e2e-next-public');
const NEXT_OUT_DIR = resolve(ROOT, '.tmp/e2e-next-build');

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the preview server, e.g. http://localhost:41234 */
    baseUrl: string;
    /** The served dataset files (manifest.json and the .sqlite.gz files). */
    dataDir: string;
    /** Origin of the component tests' fixture page. */
    componentsUrl: string;
    /** The component tests' one Chromium (playwright's browser server): each file connects and opens a context. */
    componentsBrowser: string;
    /** The app built again with one more file (NEXT_RELEASE): a new deployment for the update tests. */
    nextBuildDir: string;
  }
}

function buildData(): Promise<void> {
  const child = spawn('npx', ['tsx', 'tools/build-data.ts', '--profile', 'small', '--out', DATA_DIR], { cwd: ROOT, stdio: 'inherit' });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`data build failed (exit ${code})`))));
  });
}

/** The fixture page alone: the app's components and the fake DB client, no service worker, no data. */
async function buildComponentFixture(): Promise<void> {
  await build({
    mode: 'production',
    root: FIXTURE_ROOT,
    configFile: false,
    publicDir: false,
    logLevel: 'warn',
    build: { outDir: FIXTURE_OUT_DIR, emptyOutDir: true, target: 'es2022' },
  });
}

async function serve(options: {
  root: string;
  configFile: string | false;
  outDir: string;
  publicDir?: string;
}): Promise<{ server: PreviewServer; url: string }> {
  const port = await freePort('localhost');
  const server = await preview({
    root: options.root,
    configFile: options.configFile,
    publicDir: options.publicDir,
    logLevel: 'warn',
    build: { outDir: options.outDir },
    preview: { port, strictPort: true, host: 'localhost', open: false },
  });
  return { server, url: `http://localhost:${port}` };
}

/** What the browser tests serve, built once per run: the small data, the app, its next version and the component fixture. */
async function buildAll(): Promise<void> {
  const reuse = process.env.E2E_REUSE_BUILD === '1' && existsSync(resolve(OUT_DIR, 'index.html'));
  if (!reuse) {
    await buildData();
    assemblePublicDir(PUBLIC_DIR, DATA_DIR);
  }
  // vitest runs with NODE_ENV=test, which would make Vite build the app (and Lit) in dev mode:
  // the tests must exercise the production build that users get.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    if (!reuse) {
      await buildApp({ outDir: OUT_DIR, publicDir: PUBLIC_DIR });
      // The update tests' next deployment: the same app and data with one more shipped file, so its sw.js differs.
      assemblePublicDir(NEXT_PUBLIC_DIR, DATA_DIR, { [NEXT_RELEASE.file]: NEXT_RELEASE.text });
      await buildApp({ outDir: NEXT_OUT_DIR, publicDir: NEXT_PUBLIC_DIR });
    }
    // Under a second: built every run, so that edits to the fixture never meet a stale page.
    await buildComponentFixture();
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // msw-browser bundles the package's browser entry (adapters/node/dist), as the unit setup also makes it.
  await Promise.all([buildNodeOnce(), buildAll()]);
  const app = await serve({ root: ROOT, configFile: resolve(ROOT, 'vite.config.ts'), publicDir: PUBLIC_DIR, outDir: OUT_DIR });
  const components = await serve({ root: FIXTURE_ROOT, configFile: false, outDir: FIXTURE_OUT_DIR });
  project.provide('baseUrl', app.url);
  project.provide('dataDir', resolve(OUT_DIR, 'data'));
  project.provide('componentsUrl', components.url);
  project.provide('nextBuildDir', NEXT_OUT_DIR);
  const componentsBrowser = await chromium.launchServer({ executablePath: chromePath(), headless: true, args: CHROME_FLAGS });
  project.provide('componentsBrowser', componentsBrowser.wsEndpoint());
  return async () => {
    await componentsBrowser.close();
    await components.server.close();
    await app.server.close();
  };
}
