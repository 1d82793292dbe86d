/**
 * Bundles the package's entries into plain JavaScript in adapters/node/dist, so the command line and the library run
 * with plain `node` and import from any project: `npm run build:node` (also run by `npm install`/`npm ci` through
 * `prepare`, and by `npm run build` and `npm pack`). The Node doors are one build; the browser entry
 * (`offline-gov-api/browser`, for a page's MSW) another, for browsers. Dependencies stay external. The entries' type
 * declarations are bundled beside them, once as ES module declarations (`.d.ts`) and once as CommonJS ones
 * (`.d.cts`), so a CommonJS project resolves msw's and the others' CommonJS types, as its own code does.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { takeProcessLock } from '../adapters/node/datasets/process-lock.ts';

const ROOT = resolve(import.meta.dirname, '..');
export const NODE_DIST = resolve(ROOT, 'adapters/node/dist');

export const ENTRIES = {
  bin: 'adapters/node/commands/bin.ts',
  index: 'adapters/node/index.ts',
  msw: 'adapters/node/doors/msw.ts',
  // The server's worker threads and the process that opens its datasets are loaded by path (worker-pool.ts,
  // open-shared.ts), so each is an entry of its own.
  'pool-worker': 'adapters/node/backends/pool-worker.ts',
  'share-process': 'adapters/node/backends/share-process.ts',
};

/** The entry for browsers: the engine in a page of one's own. */
export const BROWSER_ENTRIES = { browser: 'adapters/browser/library.ts' };

/** The entries a consumer imports, and so their type declarations: `offline-gov-api`, `/msw`, `/browser`. */
const TYPED_ENTRIES = { index: 'adapters/node/index', msw: 'adapters/node/doors/msw', browser: 'adapters/browser/library' };
const DECLARATIONS = resolve(ROOT, '.tmp/declarations');

export async function buildNode(): Promise<void> {
  // Chunks are named by their content: an earlier build's would stay beside the new ones and be packed.
  if (existsSync(NODE_DIST)) for (const file of readdirSync(NODE_DIST)) if (/\.js(\.map)?$/.test(file)) rmSync(resolve(NODE_DIST, file));
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
  await build({
    absWorkingDir: ROOT,
    entryPoints: BROWSER_ENTRIES,
    outdir: NODE_DIST,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

/**
 * The entries' type declarations: tsc writes the sources' declarations (tsconfig.lib.json), rollup-plugin-dts bundles
 * each entry's into one file (shared types in one chunk, so an engine from \`offline-gov-api\` is the engine \`/msw\`
 * takes), and a CommonJS copy of each points at the others' CommonJS copies.
 */
export async function buildNodeTypes(): Promise<void> {
  // The project's type checker, as \`npm run typecheck\` runs it.
  const tsc = resolve(ROOT, 'node_modules/typescript7/bin/tsc');
  rmSync(DECLARATIONS, { recursive: true, force: true });
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.lib.json', '--outDir', DECLARATIONS], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`type declarations: tsc exited ${result.status}`);
  for (const file of readdirSync(NODE_DIST)) if (/\.d\.c?ts$/.test(file)) rmSync(resolve(NODE_DIST, file));
  const bundle = await rollup({
    input: Object.fromEntries(Object.entries(TYPED_ENTRIES).map(([name, path]) => [name, resolve(DECLARATIONS, `${path}.d.ts`)])),
    plugins: [dts()],
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
    onwarn: (warning) => {
      throw new Error(`type declarations: ${warning.message}`);
    },
  });
  const { output } = await bundle.write({ dir: NODE_DIST, format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: 'types-[hash].d.ts' });
  await bundle.close();
  for (const chunk of output) {
    if (chunk.type !== 'chunk') continue;
    // A relative import of a declaration bundle (\`./types-abc.js\`) is \`./types-abc.cjs\` from a CommonJS one.
    const commonJs = chunk.code.replace(/(from\s+['"]\.\/[^'"]+)\.js(['"])/g, '$1.cjs$2');
    writeFileSync(resolve(NODE_DIST, chunk.fileName.replace(/\.d\.ts$/, '.d.cts')), commonJs);
  }
  rmSync(DECLARATIONS, { recursive: true, force: true });
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
  for (const file of ['package-lock.json', 'package.json', 'tsconfig.json', 'tsconfig.lib.json', 'tools/build-node.ts'])
    hash.update(file).update(readFileSync(resolve(ROOT, file)));
  return hash.digest('hex');
}

const STAMP = resolve(NODE_DIST, '.build-stamp');

/**
 * The bundles and their declarations, built unless the stamp says they are from these very inputs: \`npm ci\` has just
 * built them (prepare), so \`npm start\`, \`npm pack\` and the unit suite's setup skip a second identical build (and
 * never delete bundles a running test is using). Says whether it built.
 */
export async function buildNodeOnce(force = false): Promise<boolean> {
  const inputs = inputsHash();
  const current = (): boolean => {
    try {
      return readFileSync(STAMP, 'utf8') === inputs && !force;
    } catch {
      return false; // No stamp: never built here.
    }
  };
  if (current()) return false;
  // The unit and browser suites' setups may both ask at once (scripts/run-suites.mjs): one builds, the other waits.
  mkdirSync(NODE_DIST, { recursive: true });
  const release = await takeProcessLock(resolve(NODE_DIST, '.building'), { wait: true });
  try {
    if (current()) return false;
    await buildNode();
    await buildNodeTypes();
    writeFileSync(STAMP, inputs);
    return true;
  } finally {
    await release();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!(await buildNodeOnce(process.argv.includes('--force')))) console.log('build:node: adapters/node/dist is up to date');
}
