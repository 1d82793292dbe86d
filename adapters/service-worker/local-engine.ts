import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import { createEngine, datasetDefinition, type Engine } from '../../engine/index.ts';
import type { ApiResponse, DatasetName } from '../../engine/http/types.ts';
import type { RoutedToData } from '../../engine/http/route.ts';
import type { DatasetArtifact, DatasetSource, Manifest } from '../../dataset/artifact/format.ts';
import { manifestUrl, readManifest } from '../../dataset/artifact/manifest.ts';
import { openAcquired } from '../../dataset/host/open.ts';
import { ProgressReporter } from '../../dataset/host/progress.ts';
import { acquireArtifact, type AcquirePlaces, type VerifiedFiles } from '../../dataset/artifact/acquire.ts';
import { openHandedOver } from '../../dataset/artifact/open-database.ts';
import { keepPreparedIndex } from '../../dataset/artifact/unpacked-store.ts';
import { SNAPSHOT_LIST_ROUTE } from '../../engine/http/snapshots.ts';
import type { BrotliDecode } from '../../engine/site-scanning/weeks.ts';

/** Nobody watches the service worker's loads: no progress is sent. */
const SILENT = new ProgressReporter(null);

/** Where the service worker reads its files: the precache first (works offline), then the network. */
export type FileSource = (url: string, init?: RequestInit) => Promise<Response | undefined>;

/** An import's database file, with where its records come from (set for one of the build's extras kept this way). */
export interface ImportedDatabase {
  raw: Uint8Array;
  source: DatasetSource | null;
}

const noBrotli = async (): Promise<BrotliDecode> => () => {
  throw new Error('this service worker has no Brotli decoder to read the weeks with');
};

export interface LocalEngineOptions extends Omit<AcquirePlaces, 'files'> {
  /** The directory the dataset files and their manifest are served from, e.g. `https://host/data/`. */
  dataUrl: string;
  /** The sql.js wasm file's URL. */
  wasmUrl: string;
  read: FileSource;
  /**
   * The database file of the dataset's active import (the user's choice in the app), or null when the
   * build's dataset is active. Absent: only the build's datasets.
   */
  imported?: (dataset: DatasetName) => Promise<ImportedDatabase | null>;
  /** The verified files of a manifest version the DB workers keep (the data cache), found before any download. */
  files?: ((version: string) => VerifiedFiles | null) | null;
  /** The database file of an attachment's kept copy (the app's DB worker keeps it like an import), or null when none is kept. */
  attachment?: (id: string) => Promise<Uint8Array | null>;
  /** The synchronous Brotli decoder an attachment is read with, made ready before one is opened. */
  brotli?: () => Promise<BrotliDecode>;
}

/**
 * The engine inside the service worker, for requests no app window can answer (a pasted API URL, a
 * plain page on the origin, no window open). Opens each dataset on first use, from the same verified
 * files the app downloads, and keeps it while the service worker lives.
 */
export class LocalEngine {
  private readonly engine: Engine = createEngine({ preparedReady: (name, db, prepared) => this.keepPrepared(name, db, prepared) });
  private sql: Promise<SqlJsStatic> | null = null;
  private manifest: Promise<Manifest> | null = null;
  private readonly opening = new Map<DatasetName, Promise<void>>();
  /** The build's artifact each open dataset was read from (an import has none). */
  private readonly artifacts = new Map<DatasetName, DatasetArtifact>();
  private readonly attaching = new Map<DatasetName, Promise<void>>();

  constructor(private readonly options: LocalEngineOptions) {}

  async answer(routed: RoutedToData): Promise<ApiResponse> {
    try {
      if (routed.snapshot !== null || routed.route === SNAPSHOT_LIST_ROUTE) await this.attach(routed.dataset);
      await this.open(routed.dataset);
    } catch (error) {
      // The engine then answers the API's own "unavailable" shape for this request.
      console.error('service worker: cannot open dataset', routed.dataset, error);
    }
    return this.engine.answer(routed);
  }

  /**
   * The dataset's kept attachment (its weeks), for dated paths and the list of weeks: opened once it is kept (looked
   * for again on each such request until then), then answered as the app's DB worker answers it.
   */
  private attach(name: DatasetName): Promise<void> {
    const attachment = datasetDefinition(name).attachment;
    if (!attachment) return Promise.resolve();
    let opening = this.attaching.get(name);
    if (!opening) {
      opening = (async () => {
        const raw = await this.options.attachment?.(attachment.id);
        if (!raw) return void this.attaching.delete(name);
        const SQL = await this.sqlJs();
        const decode = await (this.options.brotli ?? noBrotli)();
        this.engine.attach(name, attachment.open(openHandedOver(SQL, raw), decode));
      })();
      this.attaching.set(name, opening);
      opening.catch((error: unknown) => {
        console.error(`service worker: the kept ${attachment.id} cannot be opened`, error);
        this.attaching.delete(name);
      });
    }
    return opening;
  }

  /** Forget the open databases (a new dataset version); the next request reopens from the files. */
  reset(): void {
    for (const name of this.opening.keys()) {
      this.engine.database(name)?.close();
      this.engine.use(name, null);
    }
    this.opening.clear();
    this.artifacts.clear();
    this.manifest = null;
  }

  private open(dataset: DatasetName): Promise<void> {
    let opening = this.opening.get(dataset);
    if (!opening) {
      opening = this.load(dataset);
      // A failed open is retried on the next request rather than remembered.
      opening.catch(() => this.opening.delete(dataset));
      this.opening.set(dataset, opening);
    }
    return opening;
  }

  private async load(dataset: DatasetName): Promise<void> {
    // sql.js compiles, and the manifest is read, while the imports store is asked.
    const sql = this.sqlJs();
    const build = this.readManifest().then((manifest) => {
      const artifact = manifest.datasets[dataset];
      if (!artifact) throw new Error(`dataset ${dataset} is not in the manifest`);
      return artifact;
    });
    build.catch(() => {});
    if (await this.loadImported(dataset)) return;
    const [manifest, artifact] = await Promise.all([this.readManifest(), build]);
    this.artifacts.set(dataset, artifact);
    // The one road a dataset file takes (dataset/artifact/acquire.ts), under the same lock and with the same
    // kept chunks and files as the DB workers: a file one of them is bringing is waited for, not brought twice.
    const { files, ...places } = this.options;
    const got = await acquireArtifact({
      ...places,
      files: files?.(manifest.version) ?? null,
      fetch: async (url, init) => (await this.options.read(url, init)) ?? Promise.reject(new Error(`cannot read ${url}: not cached, offline`)),
      dataUrl: this.options.dataUrl,
      artifact,
      events: { log: (text, error) => console.error(`service worker: ${text}`, error) },
    });
    const opened = await openAcquired(sql, got, manifest, SILENT);
    const { source } = opened.status;
    this.engine.use(dataset, opened.db, opened.prepared, source?.kind === 'real' ? source.date : null);
  }

  /** The engine bound a build dataset from its records: keep its prepared index beside the kept file, after this answer. */
  private keepPrepared(dataset: DatasetName, db: Database, prepared: () => Uint8Array): void {
    const store = this.options.unpacked;
    const artifact = this.artifacts.get(dataset);
    if (!store || !artifact) return;
    setTimeout(() => {
      if (this.engine.database(dataset) !== db || this.artifacts.get(dataset) !== artifact) return;
      keepPreparedIndex(store, artifact, prepared, (text, error) => console.error(`service worker: ${text}`, error));
    }, 0);
  }

  /**
   * The dataset the user made active in the app, when it is an import (IndexedDB, written by the DB
   * worker). False when the build's dataset is active, or the import cannot be read (the build's answers).
   */
  private async loadImported(dataset: DatasetName): Promise<boolean> {
    if (!this.options.imported) return false;
    try {
      const imported = await this.options.imported(dataset);
      if (!imported) return false;
      const SQL = await this.sqlJs();
      this.artifacts.delete(dataset);
      const db = openHandedOver(SQL, imported.raw);
      // Kept by an earlier version: answers in today's layout.
      datasetDefinition(dataset).upgrade?.(db);
      // A real week kept like an import (the build's extra) answers its dated paths as the app's DB worker does.
      const { source } = imported;
      this.engine.use(dataset, db, null, source?.kind === 'real' ? source.date : null);
      return true;
    } catch (error) {
      console.error("service worker: the imported dataset cannot be opened; the build's dataset answers", dataset, error);
      return false;
    }
  }

  private sqlJs(): Promise<SqlJsStatic> {
    // The wasm comes from the precache as bytes: sql.js's own fetch would bypass it and fail offline.
    this.sql ??= this.fetchOk(this.options.wasmUrl)
      .then((response) => response.arrayBuffer())
      .then((wasmBinary) => initSqlJs({ wasmBinary }));
    this.sql.catch(() => (this.sql = null));
    return this.sql;
  }

  private readManifest(): Promise<Manifest> {
    const url = manifestUrl(this.options.dataUrl);
    this.manifest ??= this.options.read(url).then((response) => readManifest(response, url));
    this.manifest.catch(() => (this.manifest = null));
    return this.manifest;
  }

  private async fetchOk(url: string): Promise<Response> {
    const response = await this.options.read(url);
    if (!response || !response.ok) throw new Error(`cannot read ${url}: ${response ? response.status : 'not cached, offline'}`);
    return response;
  }
}
