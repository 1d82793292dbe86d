/**
 * The app as the browser tests, the soak and the measure scripts build it: `public/` as it ships, with a chosen
 * data directory in place of public/data, built by Vite in production mode into a directory of their own.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'vite';

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

/**
 * Vite's production build of the app into `outDir`, from `publicDir` (default public/). NODE_ENV is production
 * for the build: vitest sets `test`, which would build the app (and Lit) in dev mode, not what users get.
 */
export async function buildApp({ outDir, publicDir }: { outDir: string; publicDir?: string }): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      mode: 'production',
      root: ROOT,
      configFile: resolve(ROOT, 'vite.config.ts'),
      ...(publicDir ? { publicDir } : {}),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
