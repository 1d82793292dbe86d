/**
 * The engine in a page of one's own (`offline-gov-api/browser`): a prototype that mocks both APIs with MSW's
 * `setupWorker` opens it over the files `offline-gov-api copy-assets <dir>` put beside its pages (the datasets'
 * Brotli copies, their manifest, and the sql.js and Brotli decoders' wasm), each dataset checked against the
 * manifest's sha256 as the app checks a download. It runs on the page's own thread: no worker, no service worker of
 * its own (MSW's is the one that forwards the requests).
 */
import initSqlJs from 'sql.js';
import initBrotli, { DecompressStream } from 'brotli-dec-wasm/web';
import { createEngine, type Engine } from '../../engine/index.ts';
import type { DatasetName } from '../../engine/http/types.ts';
import type { Dialect } from '../../engine/dialect/dialect.ts';
import { manifestArtifacts, readManifest } from '../../dataset/artifact/manifest.ts';
import { transferArtifact } from '../../dataset/artifact/format.ts';
import { verifyArtifact } from '../../dataset/artifact/verify.ts';
import { BrotliInto } from '../../dataset/artifact/brotli-stream.ts';
import { decodeWhole, unpack } from '../../dataset/artifact/unpack.ts';
import { BROWSER_ASSETS } from './assets.ts';

export interface BrowserEngineOptions {
  /** The directory `offline-gov-api copy-assets` filled, as a URL (relative to the page): `/offline-gov-api/`. */
  assets: string | URL;
  /** Only these datasets (default: both). */
  datasets?: readonly DatasetName[];
  /** How the engine answers: `interface` (the 2.0 interface, the default) or `production` (production's 2026 answers). */
  dialect?: Dialect;
  /** Each step in a sentence, as the files arrive and open. */
  onProgress?: (message: string) => void;
}

/** Fetches, checks and opens the datasets; the engine answers `engine.handle({ method, url })` and MSW's handlers. */
export async function openBrowserEngine(options: BrowserEngineOptions): Promise<Engine> {
  const base = new URL(options.assets, globalThis.location?.href);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const at = (file: string): string => new URL(file, base).href;
  const say = options.onProgress ?? (() => {});
  const [SQL, manifest] = await Promise.all([
    initSqlJs({ locateFile: () => at(BROWSER_ASSETS.sqlWasm) }),
    fetch(at(BROWSER_ASSETS.manifest)).then((response) => readManifest(response, at(BROWSER_ASSETS.manifest))),
    initBrotli({ module_or_path: at(BROWSER_ASSETS.brotliWasm) }),
  ]);
  const engine = createEngine({}, options.dialect);
  for (const artifact of manifestArtifacts(manifest)) {
    if (options.datasets && !options.datasets.includes(artifact.name)) continue;
    const file = transferArtifact(artifact, new Set(['br']));
    say(`${artifact.name}: fetching ${file.file} (${(file.bytes / 1048576).toFixed(1)} MB)`);
    const response = await fetch(at(`data/${file.file}`));
    if (!response.ok) throw new Error(`${at(`data/${file.file}`)}: HTTP ${response.status} (run \`offline-gov-api copy-assets\` into ${base.pathname})`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    await verifyArtifact(bytes, file, response.headers.get('content-encoding'));
    const raw = file.encoding === 'br' ? decodeWhole(new BrotliInto(new DecompressStream(), artifact.rawBytes), bytes) : await unpack(bytes, artifact.rawBytes);
    const snapshot = artifact.source?.kind === 'real' ? artifact.source.date : null;
    engine.use(artifact.name, new SQL.Database(raw), null, snapshot);
    say(
      `${artifact.name}: open (${Object.values(artifact.rows)
        .reduce((a, b) => a + b, 0)
        .toLocaleString('en-US')} records)`,
    );
  }
  return engine;
}
