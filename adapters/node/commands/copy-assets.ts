/**
 * `offline-gov-api copy-assets <dir>`: what a page of one's own needs to open the engine in the browser
 * (`offline-gov-api/browser`, for MSW's setupWorker): the first visit's datasets as their Brotli copies, their
 * manifest, and the wasm of sql.js and of the Brotli decoder, copied into a directory the page's server serves.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { transferArtifact } from '../../../dataset/artifact/format.ts';
import { manifestArtifacts } from '../../../dataset/artifact/manifest.ts';
import { BROWSER_ASSETS } from '../../browser/assets.ts';
import { readBuiltManifest } from '../datasets/dataset-files.ts';
import { builtDataDir } from '../datasets/package-root.ts';
import { stringOption, UsageError, type Command } from './command-line.ts';

export interface CopyAssetsOptions {
  into: string;
  dataDir: string;
}

/** `copy-assets`, as the command line reads it (adapters/node/commands/command-line.ts). */
export const COPY_ASSETS: Command<CopyAssetsOptions> = {
  name: 'copy-assets',
  args: '<dir>',
  positionals: 1,
  summary: "Copy what a page of your own needs to open the engine in the browser (offline-gov-api/browser, for MSW's setupWorker) into <dir>",
  options: ['data'],
  read({ values, positionals }) {
    if (positionals.length !== 1) throw new UsageError('copy-assets needs one directory: copy-assets public/offline-gov-api');
    return { into: positionals[0], dataDir: stringOption(values.data) ?? builtDataDir() };
  },
  run: ({ dataDir, into }) => copyAssets(dataDir, into).then(() => undefined),
};

const require = createRequire(import.meta.url);

export async function copyAssets(dataDir: string, into: string, say: (line: string) => void = (line) => console.error(line)): Promise<string[]> {
  const manifest = await readBuiltManifest(dataDir);
  await mkdir(resolve(into, 'data'), { recursive: true });
  const copied: string[] = [];
  for (const artifact of manifestArtifacts(manifest)) {
    const { file } = transferArtifact(artifact, new Set(['br']));
    await copyFile(resolve(dataDir, file), resolve(into, 'data', file));
    copied.push(`data/${file}`);
  }
  // The first visit's datasets only: the page opens those (the extras' files stay with the package).
  const { extras: _extras, ...firstVisit } = manifest;
  await writeFile(resolve(into, BROWSER_ASSETS.manifest), JSON.stringify(firstVisit, null, 2) + '\n');
  copied.push(BROWSER_ASSETS.manifest);
  await copyFile(require.resolve('sql.js/dist/sql-wasm-browser.wasm'), resolve(into, BROWSER_ASSETS.sqlWasm));
  await copyFile(resolve(require.resolve('brotli-dec-wasm/web'), '..', 'brotli_dec_wasm_bg.wasm'), resolve(into, BROWSER_ASSETS.brotliWasm));
  copied.push(BROWSER_ASSETS.sqlWasm, BROWSER_ASSETS.brotliWasm);
  say(`copied ${copied.length} files into ${into}: openBrowserEngine({ assets: '<the URL that serves ${into}>/' })`);
  return copied;
}
