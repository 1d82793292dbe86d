/**
 * Build step for the service worker: after the app bundle is written, bundle `adapters/service-worker/sw.ts` on its own
 * (one classic script, everything static: a service worker may not `import()` or start a Worker), then let
 * workbox-build inject the precache manifest of everything in the output, datasets and wasm included.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { injectManifest } from 'workbox-build';

export interface ServiceWorkerPluginOptions {
  /** Entry of the service worker, relative to the project root. */
  src?: string;
  /** File name in the output directory; the scope is the directory it is served from. */
  fileName?: string;
}

/** The wasm and app files stay well under this; Workbox's 2 MiB default would silently leave a large file out. */
const MAX_PRECACHED_FILE = 512 * 1024 * 1024;

export function serviceWorker(options: ServiceWorkerPluginOptions = {}): Plugin {
  const src = options.src ?? 'adapters/service-worker/sw.ts';
  const fileName = options.fileName ?? 'sw.js';
  let config: ResolvedConfig;
  return {
    name: 'offline-gov-api:service-worker',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      // A nested build: the SW bundle must not re-run this plugin, copy public/ again or empty the app's output.
      const outDir = resolve(config.root, config.build.outDir);
      const datasetVersion = await readDatasetVersion(resolve(outDir, 'data/manifest.json'));
      if (!datasetVersion) config.logger.warn('service worker: no data/manifest.json in the output: the app will not work offline');
      await build({
        configFile: false,
        root: config.root,
        // The app's base, so the files the worker imports by URL (the wasm) are named where they are served.
        base: config.base,
        mode: config.mode,
        logLevel: 'warn',
        publicDir: false,
        define: {
          'process.env.NODE_ENV': JSON.stringify('production'),
          // New data gives a new service worker (so an update is offered) and a new dataset cache.
          __DATASET_VERSION__: JSON.stringify(datasetVersion),
        },
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          target: 'es2022',
          sourcemap: true,
          minify: true,
          rollupOptions: {
            input: resolve(config.root, src),
            output: { format: 'iife', entryFileNames: fileName, assetFileNames: 'assets/[name]-[hash][extname]' },
          },
        },
      });
      const swPath = resolve(outDir, fileName);
      const { count, size, warnings } = await injectManifest({
        swSrc: swPath,
        swDest: swPath,
        globDirectory: outDir,
        globPatterns: ['**/*.{html,js,css,wasm,json,gz,webmanifest,png,svg,ico,txt}'],
        // The datasets are cached by the service worker's own install step (worker/sw/dataset-cache.ts, see
        // docs/decisions/0401), not by Workbox; the build stamp only tells the data step whether to regenerate.
        globIgnores: [fileName, `${fileName}.map`, '**/*.map', 'data/**', '**/.build-stamp.json'],
        maximumFileSizeToCacheInBytes: MAX_PRECACHED_FILE,
        // Vite's hashed assets are already unique per content: no cache-busting query needed.
        dontCacheBustURLsMatching: /^assets\//,
      });
      for (const warning of warnings) config.logger.warn(`service worker: ${warning}`);
      config.logger.info(`service worker: ${fileName} precaches ${count} files, ${(size / 1048576).toFixed(1)} MiB`);
    },
  };
}

async function readDatasetVersion(manifestPath: string): Promise<string> {
  try {
    return (JSON.parse(await readFile(manifestPath, 'utf8')) as { version?: string }).version ?? '';
  } catch {
    return '';
  }
}
