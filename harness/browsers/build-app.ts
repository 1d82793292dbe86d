/**
 * The app as the browser tests, the soak and the measure scripts build it: `public/` as it ships, with a chosen
 * data directory in place of public/data, built by Vite in production mode into a directory of their own.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { build, preview, type PreviewServer } from 'vite';

const ROOT = resolve(import.meta.dirname, '../..');

/** `publicDir` made afresh: public/ less its data, `dataDir` as its data, and any extra files (name → text). */
export function assemblePublicDir(publicDir: string, dataDir: string, extraFiles: Record<string, string> = {}): void {
  rmSync(publicDir, { recursive: true, force: true });
  mkdirSync(publicDir, { recursive: true });
  const source = resolve(ROOT, 'public');
  cpSync(source, publicDir, { recursive: true, filter: (src) => resolve(src) !== resolve(source, 'data') });
  cpSync(dataDir, resolve(publicDir, 'data'), { recursive: true, filter: (src) => !src.endsWith('.build-stamp.json') });
  for (const [name, text] of Object.entries(extraFiles)) writeFileSync(resolve(publicDir, name), text);
}

/** The file the update tests' next deployment adds (the e2e global setup builds it once as `nextBuildDir`). */
export const NEXT_RELEASE = { file: 'release.txt', text: 'next build' } as const;

/**
 * Vite's production build of the app into `outDir`, from `publicDir` (default public/), for the origin's root or
 * a `base` path (what `BASE=… npm run build` sets). NODE_ENV is production for the build: vitest sets `test`, which
 * would build the app (and Lit) in dev mode, not what users get.
 */
export async function buildApp({ outDir, publicDir, base }: { outDir: string; publicDir?: string; base?: string }): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      mode: 'production',
      root: ROOT,
      configFile: resolve(ROOT, 'vite.config.ts'),
      ...(publicDir ? { publicDir } : {}),
      ...(base ? { base } : {}),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * The default datasets in public/data (skipped when they are there already) and the app built into `outDir` and
 * served by Vite's preview server near `port`: what the measure scripts time, as a user's `npm start` builds it.
 */
export async function previewDefaultApp(outDir: string, port: number): Promise<{ server: PreviewServer; base: string }> {
  const data = spawnSync('npx', ['tsx', 'tools/build-data.ts', '--profile', 'default', '--out', 'public/data'], { cwd: ROOT, stdio: 'inherit' });
  if (data.status !== 0) throw new Error('data build failed');
  await buildApp({ outDir });
  const server = await preview({
    root: ROOT,
    configFile: resolve(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir },
    preview: { port, strictPort: false, host: 'localhost' },
  });
  const address = server.httpServer.address();
  return { server, base: `http://localhost:${typeof address === 'object' && address ? address.port : port}` };
}
