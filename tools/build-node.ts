/**
 * Bundles the Node doors (adapters/node) into plain JavaScript in adapters/node/dist, so the command line and
 * the library run with plain `node` and import from any project: `npm run build:node` (also run by
 * `npm install`/`npm ci` through `prepare`, and by `npm run build`), with the entries' type declarations in
 * adapters/node/dist/types. Dependencies stay external.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

/** What the bundles are made from: the runtime layers' sources and the files that say how they are built. */
function inputsHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(resolve(ROOT, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'dist' && entry.name !== 'node_modules') walk(path);
      else if (entry.isFile() && /\.(ts|js|json)$/.test(entry.name)) hash.update(path).update(readFileSync(resolve(ROOT, path)));
    }
  };
  for (const dir of ['engine', 'dataset', 'adapters']) walk(dir);
  for (const file of ['package-lock.json', 'tsconfig.json', 'tsconfig.lib.json', 'tools/build-node.ts'])
    hash.update(file).update(readFileSync(resolve(ROOT, file)));
  return hash.digest('hex');
}

const STAMP = resolve(NODE_DIST, '.build-stamp');

if (import.meta.url === `file://${process.argv[1]}`) {
  // `npm ci` has just built them (prepare): `npm start` then skips the 5 s of a second identical build.
  const inputs = inputsHash();
  let built = '';
  try {
    built = readFileSync(STAMP, 'utf8');
  } catch {
    // No stamp: never built here.
  }
  if (built === inputs && !process.argv.includes('--force')) {
    console.log('build:node: adapters/node/dist is up to date');
  } else {
    await buildNode();
    buildNodeTypes();
    writeFileSync(STAMP, inputs);
  }
}
