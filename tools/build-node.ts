/**
 * Bundles the Node doors (adapters/node) into plain JavaScript in adapters/node/dist, so the command line and
 * the library run with plain `node` and import from any project: `npm run build:node` (also run by
 * `npm install`/`npm ci` through `prepare`, and by `npm run build`), with the entries' type declarations in
 * adapters/node/dist/types. Dependencies stay external.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
export const NODE_DIST = resolve(ROOT, 'adapters/node/dist');

export const ENTRIES = {
  bin: 'adapters/node/bin.ts',
  index: 'adapters/node/index.ts',
  msw: 'adapters/node/msw.ts',
  // The server's worker threads and the process that opens its datasets are loaded by path (worker-pool.ts,
  // open-shared.ts), so each is an entry of its own.
  'pool-worker': 'adapters/node/pool-worker.ts',
  'share-process': 'adapters/node/share-process.ts',
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

/** The entries' type declarations (tsconfig.lib.json), for projects that import the library in TypeScript. */
export function buildNodeTypes(): void {
  // The project's type checker, as `npm run typecheck` runs it.
  const tsc = resolve(ROOT, 'node_modules/typescript7/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.lib.json'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`type declarations: tsc exited ${result.status}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildNode();
  buildNodeTypes();
}
