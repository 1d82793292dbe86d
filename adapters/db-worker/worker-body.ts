/// <reference lib="webworker" />
/**
 * The DB worker's body (its entry file, db.worker.ts, only imports it): the dataset host (dataset/host/) with
 * the browser's pieces, exposed with Comlink at once, at top level: readiness is awaited inside each method,
 * because a worker that awaits sql.js before `expose` loses the page's first calls. The exposed object is the worker's whole API: its type is
 * `DbWorkerApi`, which the page's client (ui/api/db-client.ts) wraps.
 */
import * as Comlink from 'comlink';
import initSqlJs from 'sql.js';
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { DatasetHost } from '../../dataset/host/index.ts';
import type { ApiRequest, ApiResponse, DatasetName } from '../../engine/http/types.ts';
import { isRelayRequest, RELAY_PROTOCOL, type RelayResponse } from '../browser/relay-protocol.ts';
import { activeImports, keptAttachment, readImport } from '../browser/import-store.ts';
import { onActiveChanged } from '../browser/active-channel.ts';
import { holdLifeline } from '../browser/lifeline.ts';
import { RUNNING_MESSAGE } from './running.ts';
import { browserPlaces } from '../browser/places.ts';
import { dataCacheFiles } from '../browser/data-cache.ts';
import { browserBrotliSync } from '../browser/brotli.ts';
import { datasetFeatures } from '../../dataset/features.ts';
import type { BinaryResponse, DbStatus, ImportProgressCallback, ImportOutcome, ProgressCallback } from './db-api.ts';

// The page watches this lock to learn when this worker is gone (docs/decisions/0801).
holdLifeline(self as unknown as DedicatedWorkerGlobalScope);

const host = new DatasetHost({
  sqlJs: () => initSqlJs({ locateFile: () => wasmUrl }),
  fetch: (url, init) => fetch(url, init),
  imports: { activeImports, readImport, keptAttachment },
  ...browserPlaces(),
  files: (version) => dataCacheFiles(version),
  brotli: browserBrotliSync,
});
/**
 * Imports and switches, the import formats' readers with them, are a chunk of their own, loaded on the first call
 * that needs them: a visit that only answers never parses them (the worker's bundle, docs/decisions/0300).
 */
let importsChunk: ReturnType<typeof loadImports> | undefined;
function loadImports() {
  return import('./imports.ts').then(({ createImports }) => createImports(host));
}
const imports = () => (importsChunk ??= loadImports());
onActiveChanged((change) => void imports().then((loaded) => loaded.follow(change)));

/** An answer with its body as UTF-8 bytes, to be transferred. */
function binary({ status, headers, body }: ApiResponse): BinaryResponse {
  return { status, headers, body: new TextEncoder().encode(body) };
}

/** Every method may be called before `init` finishes: each waits only for the dataset it needs. */
const api = {
  /** Read the manifest, then download, verify, unpack and open each dataset, `first` before the others. */
  init: (options: { dataUrl: string; first?: DatasetName }, onProgress?: ProgressCallback): Promise<DbStatus> => host.init(options, onProgress),
  /** The engine's answer to one API request (the same URLs a prototype fetches). */
  handle: (request: ApiRequest) => host.handle(request),
  /** The same answer with the body as transferred UTF-8 bytes: for large bodies such as `export=y`. */
  async handleBinary(request: ApiRequest): Promise<BinaryResponse> {
    const answer = binary(await host.handle(request));
    return Comlink.transfer(answer, [answer.body.buffer]);
  },
  status: async (): Promise<DbStatus> => host.status(),
  ...datasetFeatures(host, Comlink.transfer),
  /** Read the manifest again and re-download only the datasets whose bytes changed. */
  reload: () => host.reload(),
  /** Close every database and load everything again from the network, bypassing the HTTP cache. */
  reset: () => host.reset(),
  /** The open database file of one dataset (transferred). */
  async exportDatabase(name: DatasetName): Promise<Uint8Array> {
    const bytes = await host.exportDatabase(name);
    return Comlink.transfer(bytes, [bytes.buffer]);
  },
  /**
   * Import a file into a new database, store it in IndexedDB and make it the active dataset of its API;
   * the previous one stays active until all of that succeeded. Never throws: a failure is an outcome with a
   * message for the user. The caller holds the lock `importOwnerLock(id)` (adapters/browser/import-locks.ts)
   * for the whole call where Web Locks exist (see adapters/db-worker/imports.ts).
   */
  importFile: async (file: Blob, options: { id: string; name?: string }, onProgress?: ImportProgressCallback): Promise<ImportOutcome> =>
    (await imports()).importFile(file, options, onProgress),
  /** Import the file at an http(s) URL the same way, its body streamed into the import (see fetch-source.ts). */
  importUrl: async (url: string, options: { id: string }, onProgress?: ImportProgressCallback): Promise<ImportOutcome> =>
    (await imports()).importUrl(url, options, onProgress),
  /** Load one of the build's extra datasets (manifest `extras`) and keep it like an import; same outcome shape. */
  importBuiltIn: async (extraId: string, options: { id: string }, onProgress?: ImportProgressCallback): Promise<ImportOutcome> =>
    (await imports()).importBuiltIn(extraId, options, onProgress),
  /** Stop a running import (its outcome is then `cancelled`); unknown ids are ignored. */
  cancelImport: async (id: string): Promise<void> => (await imports()).cancel(id),
  /** The build's and the imported datasets of each API, and the active one. */
  datasetChoices: async () => (await imports()).choices(),
  /** Make an import (or, with null, the build's dataset) the active one; the old one stays if this fails. */
  activateDataset: async (dataset: DatasetName, id: string | null) => (await imports()).activate(dataset, id),
  /** Delete an import; when it is active, its API falls back to the build's dataset first. */
  deleteImport: async (id: string) => (await imports()).remove(id),
  /** Answer the service worker's relay protocol (adapters/browser/relay-protocol.ts) on this port. */
  servePort(port: MessagePort): void {
    port.onmessage = async (event: MessageEvent) => {
      if (!isRelayRequest(event.data)) return;
      const { id, routed } = event.data;
      // A page's fetch(): answered 503 with Retry-After while its dataset is still being downloaded.
      const reply: RelayResponse = { v: RELAY_PROTOCOL, id, response: binary(await host.answer(routed, { whileArriving: 'unavailable' })) };
      port.postMessage(reply, [reply.response.body.buffer]);
    };
  },
};

/** The DB worker's API: what the page's client wraps, written once, here. */
export type DbWorkerApi = typeof api;

Comlink.expose(api);
self.postMessage({ type: RUNNING_MESSAGE });
