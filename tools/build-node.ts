/**
 * Bundles the Node doors (adapters/node) into plain JavaScript in adapters/node/dist, so the command line and
 * the library run with plain `node` and import from any project: `npm run build:node` (also run by
 * `npm install`/`npm ci` through `prepare`, and by `npm run build`). Dependencies stay external.
 */
import { resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
export const NODE_DIST = resolve(ROOT, 'adapters/node/dist');

export const ENTRIES = {
  bin: 'adapters/node/bin.ts',
  index: 'adapters/node/index.ts',
  msw: 'adapters/node/msw.ts',
};

export async function buildNode(): Promise<void> {
  await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: NODE_DIST,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildNode();
