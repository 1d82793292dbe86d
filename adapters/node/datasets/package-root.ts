import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const NAME = 'offline-gov-api';

/**
 * The package's own directory, found from this module upwards: the same from the TypeScript sources and
 * from the bundles in adapters/node/dist, and when installed under node_modules.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = resolve(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === NAME) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${NAME}: cannot find the package directory above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** The built app (`npm run build`), and the dataset files inside it. */
export const builtAppDir = (): string => resolve(packageRoot(), 'dist');
export const builtDataDir = (): string => resolve(builtAppDir(), 'data');

/** A file of the Node bundles (npm run build:node): worker threads load theirs by path, from the sources too. */
export const bundledFile = (name: string): string => resolve(packageRoot(), 'adapters/node/dist', name);
