/**
 * The datasets of one context (the DB worker's): a slot per dataset of the engine's registry, held, switched
 * and answered (a gate per dataset, so a request waits only for its own). The bytes come by the one road
 * (dataset/artifact/acquire.ts), in the order of one plan (plan.ts). The
 * platform (sql.js, fetch, the imported-dataset store) is handed in, so the same class runs in a worker
 * and in Node tests.
 */
import type { Database, SqlJsStatic } from 'sql.js';
import { DATASETS, Engine, type DatasetDefinition } from '../../engine/index.ts';
import { routeAny, type Routed } from '../../engine/http/route.ts';
import { SNAPSHOT_LIST_ROUTE } from '../../engine/http/snapshots.ts';
import type { BrotliDecode, WeeksStore } from '../../engine/site-scanning/weeks.ts';
import { datasetDefinition } from '../../engine/dataset-registry.ts';
import type { ApiRequest, ApiResponse, DatasetName } from '../../engine/http/types.ts';
import type { DatasetArtifact, DatasetSource, ExtraArtifact, Manifest } from '../artifact/format.ts';
import { manifestArtifacts, manifestUrl, readManifest } from '../artifact/manifest.ts';
import { acquireArtifact, type AcquireOptions, type AcquirePlaces, type Acquired, type FetchFile, type VerifiedFiles } from '../artifact/acquire.ts';
import { decodable, unpack } from '../artifact/unpack.ts';
import { transferArtifact } from '../artifact/format.ts';
import { Gate } from './gate.ts';
import { Waiters } from './waiters.ts';
import { nextTask } from '../tasks.ts';
import type { ImportedStore } from './imported-store.ts';
import { keepPreparedIndex, type UnpackedStore } from '../artifact/unpacked-store.ts';
import { openAcquired, openImported, type OpenedDataset } from './open.ts';
import { LoadPlan, type LinkTurn } from './plan.ts';
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
  partials?: AcquirePlaces['partials'];
  /** Where verified files of a manifest version are shared with the other contexts (the service worker's data cache). */
  files?: ((version: string) => VerifiedFiles | null) | null;
  /** One context at a time brings a file, across the origin's contexts. */
  lock?: AcquirePlaces['lock'];
  /** Decoders of the smaller transfer copies (absent: the gzip'd files are downloaded). */
  decoders?: AcquirePlaces['decoders'];
  /** The synchronous Brotli decoder an attachment is read with, made ready before one is opened (absent: none can be). */
  brotli?: () => Promise<BrotliDecode>;
  /** How long a page's fetch() waits for its dataset to open from this machine (RELAYED_WAIT_MS unless given). */
  relayedWaitMs?: number;
}

const noBrotli: BrotliDecode = () => {
  throw new Error('this context has no Brotli decoder to read the weeks with');
};

interface Slot {
  db: Database | null;
  status: DatasetStatus;
  /** Opened, or failed: either way a request for this dataset may be answered (503 when failed). */
  settled: Gate;
  /**
   * Its file is being downloaded (a request for it left; not when it is opened from a copy on this machine): a
   * fetch() is answered 503 meanwhile.
   */
  arriving: boolean;
  /** The requests waiting for it to open. */
  waiters: Waiters;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How long after a load settles the engine's prepared index is kept: after the first view's own follow-up requests. */
const KEEP_PREPARED_DELAY_MS = 250;

/**
 * How long a page's fetch() waits for its dataset to open from this machine (a kept copy, the data cache) before it
 * is answered 503 with Retry-After as a dataset still downloading is: an opening decodes a copy (well under a
 * second on a laptop) and must not fail the requests made meanwhile, but a stuck one must not hold them either.
 */
export const RELAYED_WAIT_MS = 10_000;

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
  /** Each dataset's attachment kept here, opened (its database closed with it), and its lookup (attached()). */
  private readonly attachments = new Map<DatasetName, { db: Database; opened: WeeksStore }>();
  private readonly lookups = new Map<DatasetName, Promise<WeeksStore | null>>();
  /** Why a dataset's kept attachment could not be opened (a copy an older version kept), until one is installed. */
  private readonly refusals = new Map<DatasetName, string>();

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
   * from this machine (a kept copy, the data cache), or whose download has not started yet, is waited for, at most
   * RELAYED_WAIT_MS (then 503 too), and a relayed answer that waited leaves ahead of the page's own that waited
   * with it (waiters.ts).
   */
  async answer(routed: Routed, options: { whileArriving?: 'wait' | 'unavailable' } = {}): Promise<ApiResponse> {
    if (routed.kind !== 'route') return this.engine.answer(routed);
    // A dated path, or the list of weeks: the dataset's kept attachment answers them too, opened on first need.
    if (routed.snapshot !== null || routed.route === SNAPSHOT_LIST_ROUTE) await this.attached(routed.dataset);
    const slot = this.slot(routed.dataset);
    if (slot.settled.isOpen) return this.timedAnswer(slot, routed);
    const relayed = options.whileArriving === 'unavailable';
    if (relayed && slot.arriving) return this.engine.answer(routed);
    slot.waiters.enter(relayed);
    try {
      if (relayed && !(await this.openedWithin(slot, this.platform.relayedWaitMs ?? RELAYED_WAIT_MS))) return this.engine.answer(routed);
      await this.ready(slot, relayed);
      return this.timedAnswer(slot, routed);
    } finally {
      slot.waiters.leave(relayed);
    }
  }

  /** The dataset opened (or failed) within `ms`. */
  private async openedWithin(slot: Slot, ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    try {
      return await Promise.race([slot.settled.promise.then(() => true), late]);
    } finally {
      clearTimeout(timer);
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
   * One of the build's extra datasets (fetched on demand, never on the first visit): its gzip'd file, brought
   * like every dataset file (resumable, under its lock), and the database it holds. The caller keeps it as an import.
   */
  async downloadExtra(id: string, signal?: AbortSignal): Promise<{ artifact: ExtraArtifact; gz: Uint8Array; db: Database }> {
    const manifest = await this.knownManifest();
    const artifact = manifest.extras?.find((extra) => extra.id === id);
    if (!artifact) throw new Error(`the build has no extra dataset "${id}"`);
    signal?.throwIfAborted();
    // Kept as an import (gzip'd, in IndexedDB): no unpacked copy, no transfer copy, no shared file.
    const got = await this.acquire(artifact, { unpacked: null, files: null, decoders: null });
    signal?.throwIfAborted();
    const db = new (await this.SQL).Database(await unpack(got.gz!, artifact.rawBytes));
    return { artifact, gz: got.gz!, db };
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

  /**
   * The dataset's attachment kept here (ImportedDataset.attachment), opened on first need and installed in the
   * engine, or null when none is kept or the kept copy cannot be read (looked for again next time: another tab may
   * keep one meanwhile, and a copy of an older form is refused until it is loaded again).
   */
  attached(name: DatasetName): Promise<WeeksStore | null> {
    let lookup = this.lookups.get(name);
    if (!lookup) {
      const opening = this.openAttached(name);
      this.lookups.set(name, (lookup = opening));
      void opening.then((found) => {
        if (!found && this.lookups.get(name) === opening) this.lookups.delete(name);
      });
    }
    return lookup;
  }

  private async openAttached(name: DatasetName): Promise<WeeksStore | null> {
    const attachment = datasetDefinition(name).attachment;
    if (!attachment) return null;
    try {
      const id = await this.platform.imports.keptAttachment?.(attachment.id);
      if (!id) return null;
      const opened = await openImported(this.SQL, this.platform.imports, id, new ProgressReporter(null));
      return await this.attach(name, opened.db);
    } catch (error) {
      this.log(`dataset host: the kept ${attachment.id} cannot be opened`, error);
      this.refusals.set(name, message(error));
      return null;
    }
  }

  /** Why the dataset's kept attachment could not be opened when it was last looked for, or null. */
  attachmentRefusal(name: DatasetName): string | null {
    return this.refusals.get(name) ?? null;
  }

  /**
   * Install a dataset's attachment (just kept, or opened from the store), or none: the engine answers its weeks at
   * the dated paths. Throws, and installs nothing, for a copy in an older form.
   */
  async attach(name: DatasetName, db: Database | null): Promise<WeeksStore | null> {
    const attachment = datasetDefinition(name).attachment;
    if (db && !attachment) throw new Error(`the ${name} dataset has no attachment`);
    const opened = db && attachment ? attachment.open(db, await (this.platform.brotli?.() ?? Promise.resolve(noBrotli))) : null;
    const old = this.attachments.get(name);
    if (db && opened) this.attachments.set(name, { db, opened });
    else this.attachments.delete(name);
    this.refusals.delete(name);
    this.engine.attach(name, opened);
    if (old && old.db !== db) old.db.close();
    if (opened) this.lookups.set(name, Promise.resolve(opened));
    else this.lookups.delete(name);
    return opened;
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
    const manifest = await this.knownManifest();
    const artifact = manifest.datasets[name];
    if (!artifact) throw new Error(`the build has no ${name} dataset`);
    const reporter = new ProgressReporter(this.progress);
    const got = await this.acquire(artifact, {
      files: this.platform.files?.(manifest.version) ?? null,
      events: { onProgress: (p) => reporter.bytes(name, p) },
    });
    return openAcquired(this.SQL, got, manifest, reporter);
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
  private ordered<T extends { name: DatasetName }>(items: readonly T[]): T[] {
    return [...items].sort((a, b) => Number(b.name === this.first) - Number(a.name === this.first));
  }

  /** One artifact brought by the one road (dataset/artifact/acquire.ts), with this host's places. */
  private acquire(artifact: DatasetArtifact, options: Partial<AcquireOptions> = {}): Promise<Acquired> {
    const { fetch, unpacked, partials, lock, decoders } = this.platform;
    const { events, ...rest } = options;
    return acquireArtifact({ fetch, dataUrl: this.dataUrl!, artifact, unpacked, partials, lock, decoders, ...rest, events: { log: this.log, ...events } });
  }

  private async knownManifest(): Promise<Manifest> {
    if (!this.dataUrl) throw new Error('init has not been called');
    return (this.manifest ??= await this.readManifest('no-cache'));
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
   * Load the manifest, then the datasets, each brought by the one road (acquire.ts) in the plan's order
   * (plan.ts: the network and the opening one at a time, the first view's first); with `onlyChanged`, skip
   * datasets whose sha256 matches the open copy. Each dataset's gate opens as soon as
   * that dataset is ready, so one view does not wait for the other's dataset.
   */
  private async load(cache: RequestCache, onlyChanged: boolean): Promise<DbStatus> {
    const reporter = new ProgressReporter(this.progress);
    reporter.report(null, 'manifest');
    const names = this.ordered([...this.slots.keys()].map((name) => ({ name }))).map((s) => s.name);
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
    const files = this.platform.files?.(manifest.version) ?? null;
    /** Datasets made from the copy kept here and a patch, once kept unpacked: their file is not in the data cache. */
    const patchedKept: Promise<DatasetName | null>[] = [];
    const order = this.ordered(wanted);
    const steps = order.map((artifact, i) => {
      const name = artifact.name;
      const s = this.slot(name);
      const whole = transferArtifact(artifact, decodable(this.platform.decoders)).bytes;
      reporter.expect(name, whole);
      return {
        bring: (turn: LinkTurn) =>
          this.acquire(artifact, {
            cache,
            files,
            // Only the first view's kept copy is read holding the thread: the others', read while it opens and
            // answers, would hold its answers.
            background: i > 0,
            turn: turn.ready,
            events: {
              onRequest: () => {
                s.arriving = true;
                turn.requested();
              },
              onTransferred: () => {
                s.arriving = false;
                turn.done();
              },
              onPatch: (patch) => reporter.expect(name, patch?.bytes ?? whole, { patch: !!patch }),
              onProgress: (progress) => reporter.bytes(name, progress),
              onVerify: () => reporter.report(name, 'verify'),
            },
          }).then((got) => {
            if (got.how !== 'kept') turn.overNetwork();
            return got;
          }),
        open: async (brought: Promise<Acquired>) => {
          try {
            const got = await brought;
            const opened = await openAcquired(this.SQL, got, manifest, reporter);
            this.adoptQuietly(opened);
            if (got.how === 'patched') patchedKept.push((opened.keeping ?? Promise.resolve(false)).then((kept) => (kept ? name : null)));
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
        },
      };
    });
    // The answers of the dataset just opened leave before the next one's CPU work starts: the requests that
    // waited for it take their turns (ready()) when its gate opens, the page's own after the relayed ones.
    const between = async (previous: number) => {
      await nextTask();
      await this.slot(order[previous].name).waiters.answered();
    };
    await new LoadPlan({ between, log: this.log }).run(steps);
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
