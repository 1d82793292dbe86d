/**
 * The app's production build (`vite build`) into a directory, with a stamp of what it was built from, so a second
 * `npm start` skips it when nothing it reads has changed: its sources, public/ and the datasets' manifest version
 * (the service worker carries that version).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const STAMP = '.app-build-stamp';

/** Everything the build reads; public/data counts by its manifest (the dataset files are copied, not built). */
function inputsHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', 'data'].includes(entry.name)) walk(path);
      } else if (entry.isFile()) hash.update(relative(ROOT, path)).update(readFileSync(path));
    }
  };
  for (const dir of ['engine', 'dataset', 'adapters', 'ui', 'public']) walk(resolve(ROOT, dir));
  for (const file of ['index.html', 'vite.config.ts', 'tools/vite-plugin-service-worker.ts', 'package-lock.json', 'public/data/manifest.json']) {
    const path = resolve(ROOT, file);
    if (existsSync(path)) hash.update(file).update(readFileSync(path));
  }
  hash.update(process.env.BASE ?? '');
  return hash.digest('hex');
}

export function appUpToDate(outDir: string): boolean {
  const stamp = resolve(outDir, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === inputsHash();
}

/** `vite build` into `outDir`, then its stamp. */
export async function buildAppOnce(outDir: string): Promise<void> {
  const vite = resolve(ROOT, 'node_modules/vite/bin/vite.js');
  const child = spawn(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' });
  await new Promise<void>((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`vite build exited ${code}`))));
  });
  writeFileSync(resolve(outDir, STAMP), inputsHash());
}
