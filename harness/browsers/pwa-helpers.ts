/**
 * Shared steps of the PWA browser tests: open the app until its service worker controls the page and
 * holds the datasets, ask the service worker who answered, and the engine's own answer in Node over the
 * same dataset files the browser was served (the reference the browser's answers are compared with).
 */
import { pageUntil, type DriverPage, type EvaluatingPage } from './browser-driver.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { collectPageErrors, launchBrowser, type Browser } from './browser.ts';
import { startStaticServer, type StaticServer, type StaticServerOptions } from './pwa-server.ts';
import { createEngine, type Engine } from '../../engine/index.ts';
import type { ApiResponse, DatasetName } from '../../engine/http/types.ts';
import { gunzipSync } from 'node:zlib';
import { MANIFEST_FILE, type DatasetArtifact, type Manifest } from '../../dataset/artifact/format.ts';
import { unpackedFileName } from '../../dataset/artifact/unpacked-store.ts';
import { UNPACKED_DIRECTORY } from '../../adapters/browser/unpacked-files.ts';
import { KEPT_DIRECTORIES, KEPT_FILES_DB } from '../../adapters/browser/kept-files.ts';
import { KEPT_FILES_CACHE, keptFileUrl } from '../../adapters/browser/kept-files-cache.ts';
import { loadSqlJs } from '../../adapters/node/datasets/sqljs-node.ts';

export type ServedBy = { relay: number; 'service-worker': number; early: number };

/** A PWA test's setup: its static server, its Chromium and, in the browser's first tab, the app offline-ready. */
export interface OfflineReadyApp {
  server: StaticServer;
  browser: Browser;
  /** The first tab's page errors and console errors, from before the app opened. */
  errors: string[];
  /** Closes the browser (deleting its profile), then the server. */
  close(): Promise<void>;
}

/** Serves `root`, launches Chromium and opens the app there until it is offline-ready; closes both again if that fails. */
export async function openOfflineReadyApp(root: string, options?: StaticServerOptions): Promise<OfflineReadyApp> {
  const server = await startStaticServer(root, options);
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await server.close();
  };
  try {
    browser = await launchBrowser();
    const errors = collectPageErrors(browser.page);
    await openAppUntilOfflineReady(browser.page, server.origin);
    return { server, browser, errors, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Open the app and wait until the service worker is active, controls the page, and every dataset file is kept for it. */
export async function openAppUntilOfflineReady(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`);
  await untilOfflineReady(page);
}

/** The page just opened (in any browser): its service worker is active and controls it, and every dataset file is kept. */
export async function untilOfflineReady(page: Pick<DriverPage, 'evaluate' | 'reload'>): Promise<void> {
  await waitUntilControlled(page);
  await waitUntilDataKept(page);
}

/**
 * The data cache of the page's dataset version is complete (its manifest is written last, once every file is
 * in it): on a first visit the app's DB worker fills it as the files arrive, after the service worker took the page.
 */
export async function waitUntilDataKept(page: EvaluatingPage): Promise<void> {
  await pageUntil(
    page,
    async () => {
      const manifest = new URL('data/manifest.json', location.href).href;
      for (const key of await caches.keys()) {
        if (key.startsWith('offline-gov-api-data-') && (await (await caches.open(key)).match(manifest))) return true;
      }
      return false;
    },
    null,
    'the data cache is complete',
    { timeoutMs: 120_000 },
  );
}

/** The active service worker (its install finished: the app files cached; on an update, the datasets too) controls the page. */
export async function waitUntilControlled(page: Pick<DriverPage, 'evaluate' | 'reload'>): Promise<void> {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const active = registration.active!;
    if (active.state !== 'activated')
      await new Promise((resolve) => active.addEventListener('statechange', () => active.state === 'activated' && resolve(null)));
  }, null);
  const controlled = () => pageUntil(page, () => !!navigator.serviceWorker.controller, null, 'the service worker controls the page', { timeoutMs: 10_000 });
  try {
    await controlled();
  } catch {
    // A page reloaded while its worker was activating can miss that worker's clients.claim(): the browser had not
    // made the new document a client yet. Such a page is left alone by the browser; its next navigation is controlled.
    await page.reload();
    await controlled();
  }
}

/** How many API requests the active service worker relayed to a window and answered itself. */
export function servedBy(page: EvaluatingPage): Promise<ServedBy> {
  return page.evaluate(
    () =>
      new Promise<ServedBy>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data.counts);
        navigator.serviceWorker.controller!.postMessage({ type: 'served-by' }, [channel.port2]);
      }),
    null,
  );
}

export interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A plain fetch() from the page, as a prototype would make it. */
export function pageFetch(page: EvaluatingPage, url: string, method = 'GET'): Promise<PageAnswer> {
  return page.evaluate(
    async ([url, method]) => {
      const response = await fetch(url, { method, cache: 'no-store' });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      return { status: response.status, headers, body: await response.text() };
    },
    [url, method] as const,
  );
}

/** The manifest.json of a data directory, as the build wrote it. */
export function readManifestFile(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
}

/**
 * The artifact's database is kept unpacked where the page's browser keeps files (adapters/browser/kept-files.ts):
 * its metadata file, written last, is in the origin-private directory, or (no such file system here) in the cache
 * or the IndexedDB store standing in for it.
 */
export async function waitUntilKeptUnpacked(page: EvaluatingPage, artifact: Pick<DatasetArtifact, 'name' | 'sha256'>, timeoutMs = 60_000): Promise<void> {
  await pageUntil(
    page,
    async ([directory, file, cacheName, url, database, stores]) => {
      const root = await navigator.storage?.getDirectory?.().catch(() => null);
      if (root) {
        const dir = await root.getDirectoryHandle(directory, { create: true });
        return dir.getFileHandle(file).then(
          () => true,
          () => false,
        );
      }
      if (await caches.has(cacheName).catch(() => false)) return !!(await (await caches.open(cacheName)).match(url));
      // The app's own schema, should this page open the database first.
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const opening = indexedDB.open(database, 1);
        opening.onupgradeneeded = () => stores.forEach((store) => opening.result.createObjectStore(store));
        opening.onsuccess = () => resolve(opening.result);
        opening.onerror = () => reject(opening.error);
      });
      try {
        const count = await new Promise<number>((resolve, reject) => {
          // A file's records are keyed [name, index].
          const counting = db
            .transaction(directory)
            .objectStore(directory)
            .count(IDBKeyRange.bound([file, 0], [file, Infinity]));
          counting.onsuccess = () => resolve(counting.result);
          counting.onerror = () => reject(counting.error);
        });
        return count > 0;
      } finally {
        db.close();
      }
    },
    [
      UNPACKED_DIRECTORY,
      unpackedFileName(artifact, 'json'),
      KEPT_FILES_CACHE,
      keptFileUrl(UNPACKED_DIRECTORY, unpackedFileName(artifact, 'json')),
      KEPT_FILES_DB,
      [...KEPT_DIRECTORIES],
    ] as const,
    `${artifact.name} is kept unpacked`,
    { timeoutMs },
  );
}

/** The engine over the dataset files in `dataDir`, as Node sees them. */
export async function referenceEngine(dataDir: string): Promise<Engine> {
  const SQL = await loadSqlJs();
  const manifest = readManifestFile(dataDir);
  const engine = createEngine();
  for (const [name, artifact] of Object.entries(manifest.datasets)) {
    engine.use(name as DatasetName, new SQL.Database(gunzipSync(readFileSync(join(dataDir, artifact!.file)))));
  }
  return engine;
}

/** A body for comparison: `took` is the real time a search took, so it differs between two runs. */
export function comparableBody(answer: { body: string; headers: Record<string, string> }): unknown {
  if (!(answer.headers['content-type'] ?? '').includes('json') || answer.body === '') return answer.body;
  const value = JSON.parse(answer.body) as Record<string, unknown>;
  if (value && typeof value === 'object' && 'took' in value) delete value.took;
  return value;
}

/** The engine's headers, every one of which the browser's answer must carry unchanged. */
export function expectedHeaders(answer: ApiResponse): Record<string, string> {
  return Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k.toLowerCase(), v]));
}
