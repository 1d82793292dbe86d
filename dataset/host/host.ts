/**
 * The datasets of one context (the DB worker's): a slot per dataset of the engine's registry, the load
 * (manifest, downloads in parallel, the first view's dataset opened first, a gate per dataset so a request
 * waits only for its own), the switches between the build's dataset and imports, and the status. The
 * platform (sql.js, fetch, the imported-dataset store) is handed in, so the same class runs in a worker
 * and in Node tests.
 */
import type { Database, SqlJsStatic } from 'sql.js';
import { DATASETS, Engine, type DatasetDefinition } from '../../engine/index.ts';
import { routeAny, type Routed } from '../../engine/http/route.ts';
import type { ApiRequest, ApiResponse, DatasetName } from '../../engine/http/types.ts';
import type { DatasetSource, ExtraArtifact, Manifest } from '../artifact/format.ts';
import { manifestArtifacts, manifestUrl, readManifest, resolveDataUrl } from '../artifact/manifest.ts';
import { readArtifact } from '../artifact/download.ts';
import { decodable, unpack } from '../artifact/unpack.ts';
import { transferArtifact } from '../artifact/format.ts';
import { Gate } from './gate.ts';
import { Waiters } from './waiters.ts';
import { delay, nextTask } from '../tasks.ts';
import type { ImportedStore } from './imported-store.ts';
import { keepPreparedIndex, type UnpackedStore } from '../artifact/unpacked-store.ts';
import { openDownloaded, openImported, startDownload, type DownloadPlaces, type FetchFile, type OpenedDataset, type PendingDownload } from './open.ts';
import type { VerifiedFiles } from '../artifact/obtain.ts';
import { ProgressReporter, type ProgressCallback } from './progress.ts';
import { datasetStatus, hostStatus, type DatasetStatus, type DbStatus } from './status.ts';

export interface HostPlatform {
  /** sql.js, compiled once: called at construction so the wasm compiles while the manifest is read. */
  sqlJs(): Promise<SqlJsStatic>;
  /** `fetch` in browsers and Node; a test's fake server. */
  fetch: FetchFile;
  imports: ImportedStore;
  /** Where unpacked databases are kept so that reopening needs no download check or gunzip (absent: not kept). */
  unpacked?: UnpackedStore | null;
  /** Where failures that are also reported in the status are logged (console.error unless given). */
  log?: (message: string, error: unknown) => void;
  /** Where a download keeps its chunks as they arrive, so a cut one resumes (absent: it starts again at 0). */
  partials?: DownloadPlaces['partials'];
  /** Where verified files of a manifest version are shared with the other contexts (the service worker's data cache). */
  files?: ((version: string) => VerifiedFiles | null) | null;
  /** One download of a file at a time across the origin's contexts. */
  lock?: DownloadPlaces['lock'];
  /** Decoders of the smaller transfer copies (absent: the gzip'd files are downloaded). */
  decoders?: DownloadPlaces['decoders'];
}

interface Slot {
  db: Database | null;
  status: DatasetStatus;
  /** Opened, or failed: either way a request for this dataset may be answered (503 when failed). */
  settled: Gate;
  /** Its file is being downloaded, or waits for its turn to be (no unpacked copy here): a fetch() is answered 503 meanwhile. */
  arriving: boolean;
  /** The requests waiting for it to open. */
  waiters: Waiters;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How long after a load settles the engine's prepared index is kept: after the first view's own follow-up requests. */
const KEEP_PREPARED_DELAY_MS = 250;

/** How long a downloaded dataset's opening waits at most for the next download's request to leave. */
const NEXT_REQUEST_WAIT_MS = 500;

export class DatasetHost {
  private readonly engine: Engine;
  private readonly slots: Map<DatasetName, Slot>;
  private readonly SQL: Promise<SqlJsStatic>;
  private readonly log: (message: string, error: unknown) => void;
  private dataUrl: string | null = null;
  private version: string | null = null;
  private first: DatasetName | null = null;
  private progress: ProgressCallback | null = null;
  private loading: Promise<DbStatus> | null = null;
  private manifest: Manifest | null = null;

  /** `registry`: the datasets to hold, the engine's registry unless a test brings its own. */
  constructor(
    private readonly platform: HostPlatform,
    registry: readonly DatasetDefinition[] = DATASETS,
  ) {
    this.engine = new Engine(
      registry.map((d) => d.api),
      { preparedReady: (name, db, prepared) => this.keepPrepared(name, db, prepared) },
    );
    this.slots = new Map(
      registry.map(({ name }) => [name, { db: null, status: datasetStatus({ name }), settled: new Gate(), arriving: false, waiters: new Waiters() }]),
    );
    this.SQL = platform.sqlJs();
    this.log = platform.log ?? ((text, error) => console.error(text, error));
  }

  /**
   * Read the manifest under dataUrl, download, verify, unpack and open each dataset (the active import
   * instead where there is one); `first` is opened before the others. Later calls with the same dataUrl
   * return the first load.
   */
  init(options: { dataUrl: string; first?: DatasetName }, onProgress?: ProgressCallback): Promise<DbStatus> {
    if (onProgress) this.progress = onProgress;
    this.first = options.first ?? null;
    if (this.loading && this.dataUrl === options.dataUrl) return this.loading;
    this.dataUrl = options.dataUrl;
    this.loading = this.load('default', false);
    return this.loading;
  }

  /** Route and answer a request of the page's (the relay hands over requests it has routed: `answer`). */
  handle(request: ApiRequest, options: { whileArriving?: 'wait' | 'unavailable' } = {}): Promise<ApiResponse> {
    return this.answer(routeAny(this.engine.apis, request), options);
  }

  /**
   * The engine's answer, once the dataset the route reads has opened (or failed). With `whileArriving:
   * 'unavailable'` (a page's fetch(), relayed by the service worker) a dataset whose file is still being
   * downloaded is not waited for: the API's own 503 with Retry-After answers at once. A dataset being opened
   * from this machine is waited for (that takes well under a second), and a relayed answer that waited leaves
   * ahead of the page's own that waited with it (waiters.ts).
   */
  async answer(routed: Routed, options: { whileArriving?: 'wait' | 'unavailable' } = {}): Promise<ApiResponse> {
    if (routed.kind !== 'route') return this.engine.answer(routed);
    const slot = this.slot(routed.dataset);
    if (slot.settled.isOpen) return this.timedAnswer(slot, routed);
    const relayed = options.whileArriving === 'unavailable';
    if (relayed && slot.arriving) return this.engine.answer(routed);
    slot.waiters.enter(relayed);
    try {
      await this.ready(slot, relayed);
      return this.timedAnswer(slot, routed);
    } finally {
      slot.waiters.leave(relayed);
    }
  }

  /** The engine's answer; the opened database's first one (every opening comes with fresh timings) is timed for its `firstAnswer`. */
  private timedAnswer(slot: Slot, routed: Routed): ApiResponse {
    if (!slot.db || slot.status.timings?.firstAnswer !== null) return this.engine.answer(routed);
    const started = performance.now();
    const answer = this.engine.answer(routed);
    this.noteTiming(slot, { firstAnswer: Math.round(performance.now() - started) });
    return answer;
  }

  status(): DbStatus {
    return hostStatus(
      this.dataUrl,
      this.version,
      [...this.slots.values()].map((s) => s.status),
      this.manifest?.extras ?? [],
    );
  }

  /**
   * One of the build's extra datasets (fetched on demand, never on the first visit): its gzip'd bytes, checked
   * against the manifest like every dataset file, and the database they hold. The caller keeps it as an import.
   */
  async downloadExtra(id: string, signal?: AbortSignal): Promise<{ artifact: ExtraArtifact; gz: Uint8Array; db: Database }> {
    if (!this.dataUrl) throw new Error('init has not been called');
    this.manifest ??= await this.readManifest('no-cache');
    const artifact = this.manifest.extras?.find((extra) => extra.id === id);
    if (!artifact) throw new Error(`the build has no extra dataset "${id}"`);
    const url = resolveDataUrl(this.dataUrl, artifact.file);
    signal?.throwIfAborted();
    const gz = await readArtifact(await this.platform.fetch(url, { cache: 'default' }), url, artifact);
    signal?.throwIfAborted();
    const db = new (await this.SQL).Database(await unpack(gz, artifact.rawBytes));
    return { artifact, gz, db };
  }

  /** Read the manifest again and re-download only the datasets whose bytes changed. */
  async reload(): Promise<DbStatus> {
    if (!this.dataUrl) throw new Error('reload: init has not been called');
    await this.loading;
    this.loading = this.load('no-cache', true);
    return this.loading;
  }

  /** Close every database and load everything again from the network, bypassing the HTTP cache. */
  async reset(): Promise<DbStatus> {
    if (!this.dataUrl) throw new Error('reset: init has not been called');
    await this.loading;
    for (const [name, s] of this.slots) {
      this.install(name, null);
      s.status = datasetStatus({ name });
      s.settled.reset();
    }
    this.version = null;
    this.loading = this.load('reload', false);
    return this.loading;
  }

  /** The open database of a dataset once it settled, or null when it failed. */
  async database(name: DatasetName): Promise<Database | null> {
    await this.slot(name).settled.promise;
    return this.slot(name).db;
  }

  /** The open database file of one dataset. */
  async exportDatabase(name: DatasetName): Promise<Uint8Array> {
    const db = await this.database(name);
    if (!db) throw new Error(`${name} is not loaded`);
    // sql.js copies the file through SQLite's backup API: the connection, its statements and the bind stay.
    return db.export();
  }

  // Switching: what the import and switch logic (adapters/db-worker/imports.ts) may do with the datasets.

  sql(): Promise<SqlJsStatic> {
    return this.SQL;
  }

  /** Resolves once the first load (or the running reload) is over. */
  async settled(): Promise<void> {
    await this.loading;
  }

  builtInSource(name: DatasetName): DatasetSource | null {
    return this.manifest?.datasets[name]?.source ?? null;
  }

  /** The import the dataset was opened from, or null for the build's. */
  activeImport(name: DatasetName): string | null {
    return this.slot(name).status.importId;
  }

  openImport(id: string): Promise<OpenedDataset> {
    return openImported(this.SQL, this.platform.imports, id, new ProgressReporter(null));
  }

  /** Open the build's file of one dataset aside (the service worker's cache answers it offline). */
  async openBuiltIn(name: DatasetName): Promise<OpenedDataset> {
    if (!this.dataUrl) throw new Error('init has not been called');
    this.manifest ??= await this.readManifest('no-cache');
    const artifact = this.manifest.datasets[name];
    if (!artifact) throw new Error(`the build has no ${name} dataset`);
    const reporter = new ProgressReporter(this.progress);
    const pending = startDownload({
      fetchFile: this.platform.fetch,
      dataUrl: this.dataUrl,
      artifact,
      reporter,
      cache: 'default',
      unpacked: this.platform.unpacked,
    });
    return openDownloaded(this.SQL, pending, this.manifest, reporter);
  }

  /** Install an opened database as its dataset's answer (closing the old one); views showing it ask again. */
  adopt(name: DatasetName, opened: OpenedDataset): void {
    this.adoptQuietly(opened);
    this.slot(name).settled.open();
    // The load bar ignores it (nothing is loading).
    new ProgressReporter(this.progress).report(name, 'ready', undefined, true);
  }

  close(opened: OpenedDataset): void {
    opened.db.close();
  }

  /** Wraps a database built elsewhere (an import) with the status it will have. */
  opened(db: Database, status: Partial<DatasetStatus> & { name: DatasetName }): OpenedDataset {
    return { db, status: datasetStatus(status), prepared: null };
  }

  private slot(name: DatasetName): Slot {
    const slot = this.slots.get(name);
    if (!slot) throw new Error(`unknown dataset ${name}`);
    return slot;
  }

  private install(name: DatasetName, db: Database | null, prepared: Uint8Array | null = null): void {
    const s = this.slot(name);
    const old = s.db;
    s.db = db;
    // A real snapshot's date: `/snapshots/<that date>/…` is answered too (engine/http/route.ts).
    const { source } = s.status;
    this.engine.use(name, db, prepared, db && source?.kind === 'real' ? source.date : null);
    if (old && old !== db) old.close();
  }

  private adoptQuietly(opened: OpenedDataset): void {
    this.slot(opened.status.name).status = opened.status;
    this.install(opened.status.name, opened.db, opened.prepared);
  }

  /**
   * The engine bound a dataset from its records and offers its prepared index: keep it beside the build's
   * file it came from, once the load is over (off the way of the first answers), so the next opening maps it.
   * An import, or a database replaced meanwhile, keeps nothing.
   */
  private keepPrepared(name: DatasetName, db: Database, prepared: () => Uint8Array): void {
    const store = this.platform.unpacked;
    if (!store) return;
    const keep = () => {
      const s = this.slot(name);
      const artifact = this.manifest?.datasets[name];
      if (s.db !== db || !artifact || s.status.importId !== null || s.status.sha256 !== artifact.sha256) return;
      keepPreparedIndex(store, artifact, prepared, (text, error) => this.log(`dataset host: ${text}`, error));
    };
    void Promise.resolve(this.loading)
      .catch(() => {})
      .then(() => setTimeout(keep, KEEP_PREPARED_DELAY_MS));
  }

  /**
   * Bind the first view's dataset before the next dataset's unpacking competes with it for the CPU. A bind
   * that fails here fails again in the request, which answers the API's internal error.
   */
  private prepare(name: DatasetName): void {
    const started = performance.now();
    try {
      this.engine.prepare(name);
    } catch (error) {
      this.log(`dataset host: ${name} failed to bind`, error);
    }
    this.noteTiming(this.slot(name), { bind: Math.round(performance.now() - started) });
  }

  /** One more step's time in a dataset's load timings (a dataset with none, such as an empty slot, keeps none). */
  private noteTiming(slot: Slot, step: { bind?: number; firstAnswer?: number }): void {
    if (slot.status.timings) slot.status = { ...slot.status, timings: { ...slot.status.timings, ...step } };
  }

  /** The first view's dataset before the others. */
  private ordered<T>(items: readonly T[], nameOf: (item: T) => DatasetName): T[] {
    return [...items].sort((a, b) => Number(nameOf(b) === this.first) - Number(nameOf(a) === this.first));
  }

  private async readManifest(cache: RequestCache): Promise<Manifest> {
    const url = manifestUrl(this.dataUrl!);
    const response = await this.platform.fetch(url, { cache });
    return readManifest(response, url);
  }

  private async ready(slot: Slot, relayed: boolean): Promise<void> {
    await slot.settled.promise;
    const turn = slot.waiters.turn(relayed);
    // The requests that waited for the data are answered one per task: each answer is posted (to the page
    // or the service worker) before the next one is computed, instead of all of them leaving at the end.
    await nextTask();
    await turn();
  }

  /** The active import of each dataset; none when the store cannot be read (the build's datasets then load). */
  private async readActive(): Promise<Partial<Record<DatasetName, string>>> {
    try {
      return await this.platform.imports.activeImports();
    } catch (error) {
      this.log('dataset host: cannot read the imported datasets', error);
      return {};
    }
  }

  /**
   * Open the active imports of the datasets that have one; returns the datasets that still need the
   * build's file (no import, or the import failed to open: the build's dataset then answers).
   */
  private async openActiveImports(names: readonly DatasetName[], reporter: ProgressReporter, onlyChanged: boolean): Promise<Set<DatasetName>> {
    const active = await this.readActive();
    const need = new Set<DatasetName>();
    for (const name of names) {
      const id = active[name];
      if (!id) {
        need.add(name);
        continue;
      }
      const s = this.slot(name);
      if (onlyChanged && s.status.importId === id && s.status.loaded) continue;
      try {
        this.adoptQuietly(await openImported(this.SQL, this.platform.imports, id, reporter));
        s.settled.open();
        reporter.report(name, 'ready');
      } catch (error) {
        this.log(`dataset host: the active import of ${name} failed to open; the build's dataset answers`, error);
        need.add(name);
      }
    }
    return need;
  }

  /**
   * Load the manifest, then the datasets (downloads in parallel, opening one at a time); with
   * `onlyChanged`, skip datasets whose sha256 matches the open copy. Each dataset's gate opens as soon as
   * that dataset is ready, so one view does not wait for the other's dataset.
   */
  private async load(cache: RequestCache, onlyChanged: boolean): Promise<DbStatus> {
    const reporter = new ProgressReporter(this.progress);
    reporter.report(null, 'manifest');
    const names = this.ordered([...this.slots.keys()], (name) => name);
    // The manifest is read while the imports store is (both are needed before any dataset opens).
    const manifestRead = this.readManifest(cache === 'default' ? 'no-cache' : cache);
    manifestRead.catch(() => {});
    const needBuiltIn = await this.openActiveImports(names, reporter, onlyChanged);
    let manifest: Manifest;
    try {
      manifest = await manifestRead;
    } catch (error) {
      this.log('dataset host: manifest failed', error);
      for (const name of needBuiltIn) {
        const s = this.slot(name);
        s.status = { ...s.status, error: message(error) };
        s.settled.open();
      }
      reporter.report(null, 'error', message(error));
      return this.status();
    }
    this.manifest = manifest;
    const artifacts = manifestArtifacts(manifest).filter((a) => needBuiltIn.has(a.name));
    const unchanged = (name: DatasetName, sha256: string) => this.slot(name).status.sha256 === sha256 && this.slot(name).status.importId === null;
    const wanted = artifacts.filter((a) => !onlyChanged || !unchanged(a.name, a.sha256));
    reporter.total = wanted.reduce((n, a) => n + transferArtifact(a, decodable(this.platform.decoders)).bytes, 0);
    for (const name of needBuiltIn) if (!manifest.datasets[name]) this.slot(name).settled.open();
    for (const a of artifacts) if (!wanted.includes(a)) this.slot(a.name).status.version = manifest.version;
    // Every download starts now; unpacking and opening (CPU work on this one thread) go one at a time,
    // the dataset of the page's first view first, so that view does not wait for the other's unpacking.
    // Downloads go one at a time in that order too: the first view's dataset arrives in about half the time
    // of both sharing the link, and answers while the other still arrives.
    const files = this.platform.files?.(manifest.version) ?? null;
    const places: DownloadPlaces = { partials: this.platform.partials, files, lock: this.platform.lock, decoders: this.platform.decoders };
    const downloads: PendingDownload[] = [];
    for (const artifact of this.ordered(wanted, (a) => a.name)) {
      reporter.expect(artifact.name, transferArtifact(artifact, decodable(this.platform.decoders)).bytes);
      const slot = this.slot(artifact.name);
      const pending = startDownload({
        fetchFile: this.platform.fetch,
        dataUrl: this.dataUrl!,
        artifact,
        reporter,
        cache,
        unpacked: this.platform.unpacked,
        // On a miss the download follows this read at once: so it waits only for the first one's last byte, not its check.
        after: downloads[0]?.transfer,
        // Only the first view's kept copy is read holding the thread: the others', read while it opens and answers,
        // would hold its answers.
        background: downloads.length > 0,
        downloadAfter: downloads.at(-1)?.transfer,
        places,
        onDownload: () => (slot.arriving = true),
        log: this.log,
      });
      pending.transfer.then(() => (slot.arriving = false));
      downloads.push(pending);
    }
    /** Datasets made from the copy kept here and a patch, once kept unpacked: their file is not in the data cache. */
    const patchedKept: Promise<DatasetName | null>[] = [];
    for (const [i, pending] of downloads.entries()) {
      // The answers of the dataset just opened leave before the next one's CPU work starts: the requests that
      // waited for it take their turns (ready()) when its gate opens, the page's own after the relayed ones.
      if (i > 0) {
        const previous = this.slot(downloads[i - 1].artifact.name);
        await previous.settled.promise;
        await nextTask();
        await previous.waiters.answered();
      }
      const name = pending.artifact.name;
      const s = this.slot(name);
      try {
        // The next file's request leaves before this one's CPU work (open, bind, first answers) holds the
        // thread: asked for after it, the next download would wait that long with the link idle. Only when
        // this one came over the network: a copy kept here is opened at once (the next is likely kept too).
        const next = downloads[i + 1];
        if (next && !(await pending.bytes.catch(() => null))?.kept) await Promise.race([next.requested, delay(NEXT_REQUEST_WAIT_MS)]);
        const opened = await openDownloaded(this.SQL, pending, manifest, reporter);
        this.adoptQuietly(opened);
        if ((await pending.bytes).patched) patchedKept.push((opened.keeping ?? Promise.resolve(false)).then((kept) => (kept ? name : null)));
        if (name === this.first) this.prepare(name);
        reporter.report(name, 'ready');
      } catch (error) {
        this.log(`dataset host: ${name} failed to load`, error);
        // A failed reload keeps the copy that was already open.
        s.status = { ...s.status, error: message(error) };
        reporter.report(name, 'error', message(error));
      } finally {
        s.settled.open();
      }
    }
    this.version = manifest.version;
    const patched = new Set((await Promise.all(patchedKept)).filter((name) => name !== null));
    // Every file of this version is now kept for the service worker (offline, and no second download).
    await files
      ?.complete(manifest, this.dataUrl!, decodable(this.platform.decoders), patched)
      .catch((error: unknown) => this.log('dataset host: cannot mark the offline copy complete', error));
    reporter.report(null, 'ready');
    return this.status();
  }
}
