/// <reference lib="webworker" />
/**
 * The DB worker: owns the one copy of each dataset (sql.js) and the engine over them. Exposed with
 * Comlink at once, at top level: readiness is awaited inside each method, because a worker that awaits
 * sql.js before `expose` loses the page's first calls.
 */
import * as Comlink from 'comlink';
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import type { DatasetArtifact, Manifest } from '../../dataset/artifact.ts';
import { APIS, createEngine, matchRoute } from '../../engine/index.ts';
import { DATASET_NAMES, type ApiRequest, type ApiResponse, type DatasetName } from '../../engine/http/types.ts';
import { isRelayRequest, RELAY_PROTOCOL, type RelayResponse } from '../browser/relay-protocol.ts';
import {
  countRows,
  downloadArtifact,
  fetchManifest,
  groupOwners,
  gunzip,
  manifestArtifacts,
  ownerPairs,
} from '../../dataset/index.ts';
import { activeImports, readImport } from '../browser/import-store.ts';
import { gunzipBlob } from '../../dataset/compress-blob.ts';
import { createImports, type DatasetSwitcher } from './imports.ts';
import { onActiveChanged } from '../browser/active-channel.ts';
import { holdLifeline } from '../browser/lifeline.ts';
import type {
  AgencyOwners,
  BinaryResponse,
  DatasetStatus,
  DbStatus,
  DbWorkerApi,
  LoadPhase,
  ProgressCallback,
} from './db-api.ts';

const PROGRESS_INTERVAL_MS = 80;

let sqlJs: Promise<SqlJsStatic> | null = null;
function sql(): Promise<SqlJsStatic> {
  sqlJs ??= initSqlJs({ locateFile: () => wasmUrl });
  return sqlJs;
}
// Start compiling the wasm while the page is still asking for the manifest.
void sql();

// The page watches this lock to learn when this worker is gone (docs/decisions/0801).
holdLifeline(self as unknown as DedicatedWorkerGlobalScope);

const engine = createEngine();

/** A promise the methods wait on, settled by the load. */
class Gate {
  promise!: Promise<void>;
  open!: () => void;
  constructor() {
    this.reset();
  }
  reset(): void {
    this.promise = new Promise((resolve) => (this.open = resolve));
  }
}

interface Slot {
  db: Database | null;
  status: DatasetStatus;
  /** Opened, or failed: either way a request for this dataset may be answered (503 when failed). */
  settled: Gate;
}

function emptyStatus(name: DatasetName): DatasetStatus {
  return {
    name,
    loaded: false,
    version: null,
    rows: {},
    bytes: 0,
    rawBytes: 0,
    sha256: null,
    source: null,
    fileDate: null,
    loadedAt: null,
    timings: null,
    error: null,
    importId: null,
    importName: null,
  };
}

const slots = new Map<DatasetName, Slot>(
  DATASET_NAMES.map((name) => [name, { db: null, status: emptyStatus(name), settled: new Gate() }]),
);
function slot(name: DatasetName): Slot {
  return slots.get(name)!;
}

let dataUrl: string | null = null;
let manifestVersion: string | null = null;
let progress: ProgressCallback | null = null;
let loading: Promise<DbStatus> | null = null;
let ownersCache: AgencyOwners[] | null = null;
let firstDataset: DatasetName | null = null;
let lastManifest: Manifest | null = null;

function snapshot(): DbStatus {
  const datasets = DATASET_NAMES.map((name) => ({ ...slot(name).status }));
  return { ready: datasets.every((d) => d.loaded), dataUrl, version: manifestVersion, datasets };
}

/** Sums byte progress over the datasets of one load and rate-limits the reports crossing to the page. */
class ProgressReporter {
  private readonly received = new Map<DatasetName, number>();
  private lastSent = 0;
  total = 0;

  constructor(private readonly send: ProgressCallback | null) {}

  bytes(name: DatasetName, received: number): void {
    this.received.set(name, received);
    const now = performance.now();
    if (now - this.lastSent < PROGRESS_INTERVAL_MS) return;
    this.lastSent = now;
    this.report(name, 'download');
  }

  report(dataset: DatasetName | null, phase: LoadPhase, message?: string): void {
    let loaded = 0;
    for (const n of this.received.values()) loaded += n;
    try {
      this.send?.({ dataset, phase, loaded, total: this.total, message });
    } catch {
      // The page that asked may be gone; the load goes on for the next caller.
    }
  }
}

function install(name: DatasetName, db: Database | null): void {
  const s = slot(name);
  const old = s.db;
  s.db = db;
  engine.use(name, db);
  if (name === 'websites') ownersCache = null;
  if (old && old !== db) old.close();
}

/** A dataset's download, started at once; its CPU-bound steps wait for their turn (see `load`). */
interface PendingDownload {
  artifact: DatasetArtifact;
  gz: Promise<Uint8Array>;
  fileDate: string | null;
  started: number;
  downloaded: number;
}

function startDownload(artifact: DatasetArtifact, reporter: ProgressReporter, cache: RequestCache): PendingDownload {
  const pending: PendingDownload = { artifact, gz: Promise.resolve(new Uint8Array()), fileDate: null, started: performance.now(), downloaded: 0 };
  pending.gz = downloadArtifact(dataUrl!, artifact, (received) => reporter.bytes(artifact.name, received), {
    cache,
    onHeaders: (headers) => (pending.fileDate = toIsoDate(headers.get('last-modified'))),
    onPhase: (phase) => reporter.report(artifact.name, phase),
  }).then((gz) => {
    pending.downloaded = performance.now();
    return gz;
  });
  // Failures are reported when this dataset's turn comes; until then the rejection is expected.
  pending.gz.catch(() => {});
  return pending;
}

/** A database opened aside with the status it will have once installed. */
interface Opened {
  db: Database;
  status: DatasetStatus;
}

function adopt(opened: Opened): void {
  install(opened.status.name, opened.db);
  slot(opened.status.name).status = opened.status;
}

/** Unpack and open a downloaded build dataset, without installing it. */
async function openBuiltIn(pending: PendingDownload, manifest: Manifest, reporter: ProgressReporter): Promise<Opened> {
  const { artifact } = pending;
  const name = artifact.name;
  const gz = await pending.gz;
  // Its turn: the datasets before it are open (this is when its CPU-bound steps may start).
  const turn = performance.now();
  reporter.report(name, 'decompress');
  const raw = await gunzip(gz, artifact.rawBytes);
  const unpacked = performance.now();
  reporter.report(name, 'open');
  const SQL = await sql();
  const db = new SQL.Database(raw);
  return {
    db,
    status: {
      name,
      loaded: true,
      version: manifest.version,
      rows: countRows(db, Object.keys(artifact.rows)),
      bytes: artifact.bytes,
      rawBytes: raw.length,
      sha256: artifact.sha256,
      source: artifact.source ?? null,
      fileDate: pending.fileDate,
      loadedAt: new Date().toISOString(),
      timings: {
        download: Math.round(pending.downloaded - pending.started),
        queued: Math.round(turn - pending.downloaded),
        decompress: Math.round(unpacked - turn),
        open: Math.round(performance.now() - unpacked),
      },
      error: null,
      importId: null,
      importName: null,
    },
  };
}

/** Unpack and open an imported dataset stored in IndexedDB, without installing it. */
async function openImported(id: string, reporter: ProgressReporter): Promise<Opened> {
  const stored = await readImport(id);
  if (!stored) throw new Error(`the imported dataset ${id} is no longer stored in this browser`);
  const { meta, file } = stored;
  const started = performance.now();
  reporter.report(meta.dataset, 'decompress');
  const raw = await gunzipBlob(file, meta.rawBytes);
  const unpacked = performance.now();
  reporter.report(meta.dataset, 'open');
  const db = new (await sql()).Database(raw);
  return {
    db,
    status: {
      name: meta.dataset,
      loaded: true,
      version: null,
      rows: countRows(db, Object.keys(meta.rows)),
      bytes: meta.bytes,
      rawBytes: raw.length,
      sha256: null,
      source: null,
      fileDate: meta.importedAt,
      loadedAt: new Date().toISOString(),
      timings: { download: 0, queued: 0, decompress: Math.round(unpacked - started), open: Math.round(performance.now() - unpacked) },
      error: null,
      importId: meta.id,
      importName: meta.fileName,
    },
  };
}

async function openDownloaded(pending: PendingDownload, manifest: Manifest, reporter: ProgressReporter): Promise<void> {
  const name = pending.artifact.name;
  const s = slot(name);
  try {
    adopt(await openBuiltIn(pending, manifest, reporter));
    reporter.report(name, 'ready');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`db worker: ${name} failed to load`, error);
    // A failed reload keeps the copy that was already open.
    s.status = { ...s.status, error: message };
    reporter.report(name, 'error', message);
  } finally {
    s.settled.open();
  }
}

function toIsoDate(httpDate: string | null): string | null {
  if (!httpDate) return null;
  const time = Date.parse(httpDate);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/**
 * Load the manifest, then the datasets (downloads in parallel, opening one at a time); with
 * `onlyChanged`, skip datasets whose sha256 matches the open copy. Each dataset's gate opens as soon as
 * that dataset is ready, so the rates view does not wait for the websites.
 */
/** The active import of each dataset; none when IndexedDB cannot be read (the build's datasets then load). */
async function readActive(): Promise<Partial<Record<DatasetName, string>>> {
  try {
    return await activeImports();
  } catch (error) {
    console.error('db worker: cannot read the imported datasets', error);
    return {};
  }
}

/**
 * Open the active imports (from IndexedDB) of the datasets that have one; returns the datasets that still
 * need the build's file (no import, or the import failed to open: the build's dataset then answers).
 */
async function openActiveImports(names: readonly DatasetName[], reporter: ProgressReporter, onlyChanged: boolean): Promise<Set<DatasetName>> {
  const active = await readActive();
  const need = new Set<DatasetName>();
  for (const name of names) {
    const id = active[name];
    if (!id) {
      need.add(name);
      continue;
    }
    const s = slot(name);
    if (onlyChanged && s.status.importId === id && s.status.loaded) continue;
    try {
      adopt(await openImported(id, reporter));
      s.settled.open();
      reporter.report(name, 'ready');
    } catch (error) {
      console.error(`db worker: the active import of ${name} failed to open; the build's dataset answers`, error);
      need.add(name);
    }
  }
  return need;
}

async function load(cache: RequestCache, onlyChanged: boolean): Promise<DbStatus> {
  const reporter = new ProgressReporter(progress);
  reporter.report(null, 'manifest');
  const ordered = [...DATASET_NAMES].sort((a, b) => Number(b === firstDataset) - Number(a === firstDataset));
  const needBuiltIn = await openActiveImports(ordered, reporter, onlyChanged);
  let manifest: Manifest;
  try {
    manifest = await fetchManifest(dataUrl!, { cache: cache === 'default' ? 'no-cache' : cache });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error('db worker: manifest failed', error);
    for (const name of needBuiltIn) {
      const s = slot(name);
      s.status = { ...s.status, error: message };
      s.settled.open();
    }
    reporter.report(null, 'error', message);
    return snapshot();
  }
  lastManifest = manifest;
  const artifacts = manifestArtifacts(manifest).filter((a) => needBuiltIn.has(a.name));
  const wanted = artifacts.filter((a) => !onlyChanged || slot(a.name).status.sha256 !== a.sha256 || slot(a.name).status.importId !== null);
  reporter.total = wanted.reduce((n, a) => n + a.bytes, 0);
  for (const name of needBuiltIn) {
    if (!manifest.datasets[name]) slot(name).settled.open();
  }
  for (const a of artifacts) if (!wanted.includes(a)) slot(a.name).status.version = manifest.version;
  // Every download starts now; unpacking and opening (CPU work on this one thread) go one at a time,
  // the dataset of the page's first view first, so that view does not wait for the other's unpacking.
  const downloads = [...wanted]
    .sort((a, b) => Number(b.name === firstDataset) - Number(a.name === firstDataset))
    .map((a) => startDownload(a, reporter, cache));
  for (const pending of downloads) await openDownloaded(pending, manifest, reporter);
  manifestVersion = manifest.version;
  reporter.report(null, 'ready');
  return snapshot();
}

/** Requests wait only for the dataset their path reads. */
async function ready(url: string): Promise<void> {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://localhost').pathname;
  } catch {
    return;
  }
  const match = matchRoute(APIS, pathname);
  if (match) await slot(match.api.dataset).settled.promise;
}

async function answer(request: ApiRequest): Promise<ApiResponse> {
  await ready(request.url);
  return engine.handle(request);
}

async function owners(): Promise<AgencyOwners[]> {
  await slot('websites').settled.promise;
  if (ownersCache) return ownersCache;
  const db = slot('websites').db;
  if (!db) return [];
  ownersCache = groupOwners(ownerPairs(db) ?? []);
  return ownersCache;
}

/** Open the build's file of one dataset aside (the service worker's cache answers it offline). */
async function openBuiltInAside(name: DatasetName): Promise<Opened> {
  if (!dataUrl) throw new Error('init has not been called');
  const reporter = new ProgressReporter(progress);
  let manifest = lastManifest;
  if (!manifest) {
    manifest = await fetchManifest(dataUrl, { cache: 'no-cache' });
    lastManifest = manifest;
  }
  const artifact = manifest.datasets[name];
  if (!artifact) throw new Error(`the build has no ${name} dataset`);
  return openBuiltIn(startDownload(artifact, reporter, 'default'), manifest, reporter);
}

/** What the import and switch logic (worker/dataset/imports.ts) may do with the open datasets. */
const switcher: DatasetSwitcher<Opened> = {
  sql,
  async settled() {
    await loading;
  },
  activeImport: (name) => slot(name).status.importId,
  openImport: (id) => openImported(id, new ProgressReporter(null)),
  openBuiltIn: openBuiltInAside,
  adopt(name, opened) {
    adopt(opened);
    slot(name).settled.open();
    // Views showing this dataset ask again; the load bar ignores it (nothing is loading).
    try {
      progress?.({ dataset: name, phase: 'ready', loaded: 0, total: 0, replaced: true });
    } catch {
      // The page that registered the callback is gone.
    }
  },
  close: (opened) => opened.db.close(),
  opened: (db, status) => ({ db, status: { ...emptyStatus(status.name), ...status } }),
};

const imports = createImports(switcher);
onActiveChanged((change) => imports.follow(change));

const api: DbWorkerApi = {
  init(options, onProgress) {
    if (onProgress) progress = onProgress;
    firstDataset = options.first ?? null;
    if (loading && dataUrl === options.dataUrl) return loading;
    dataUrl = options.dataUrl;
    loading = load('default', false);
    return loading;
  },

  handle: answer,

  async handleBinary(request) {
    const response = await answer(request);
    const body = new TextEncoder().encode(response.body);
    const result: BinaryResponse = { status: response.status, headers: response.headers, body };
    return Comlink.transfer(result, [body.buffer]);
  },

  async status() {
    return snapshot();
  },

  async reload() {
    if (!dataUrl) throw new Error('reload: init has not been called');
    await loading;
    loading = load('no-cache', true);
    return loading;
  },

  async reset() {
    if (!dataUrl) throw new Error('reset: init has not been called');
    await loading;
    for (const name of DATASET_NAMES) {
      install(name, null);
      const s = slot(name);
      s.status = emptyStatus(name);
      s.settled.reset();
    }
    manifestVersion = null;
    loading = load('reload', false);
    return loading;
  },

  websiteOwners: owners,

  async exportDatabase(name) {
    await slot(name).settled.promise;
    const db = slot(name).db;
    if (!db) throw new Error(`${name} is not loaded`);
    const bytes = db.export();
    // export() closes and reopens the database, freeing every prepared statement: rebind the API.
    engine.use(name, db);
    return Comlink.transfer(bytes, [bytes.buffer]);
  },

  importFile: (file, options, onProgress) => imports.importFile(file, options, onProgress),
  cancelImport: async (id) => imports.cancel(id),
  datasetChoices: () => imports.choices(),
  activateDataset: (dataset, id) => imports.activate(dataset, id),
  deleteImport: (id) => imports.remove(id),

  servePort(port) {
    port.onmessage = async (event: MessageEvent) => {
      if (!isRelayRequest(event.data)) return;
      const { id, request } = event.data;
      const reply: RelayResponse = { v: RELAY_PROTOCOL, id, response: await answer(request) };
      port.postMessage(reply);
    };
  },
};

Comlink.expose(api);
