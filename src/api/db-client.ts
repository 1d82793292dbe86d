import * as Comlink from 'comlink';
import type { ApiRequest, ApiResponse, DatasetName } from '../../worker/engine/http/types.ts';
import type {
  AgencyOwners,
  BinaryResponse,
  DatasetChoices,
  DbStatus,
  DbWorkerApi,
  ImportOutcome,
  ImportProgressReport,
  LoadProgress,
  SwitchOutcome,
} from '../../worker/db-api.ts';

export type { AgencyOwners, BinaryResponse, DatasetStatus, DbStatus, LoadProgress } from '../../worker/db-api.ts';
export type { DatasetChoices, ImportedDataset, ImportOutcome, ImportProgressReport, ImportReport, SwitchOutcome } from '../../worker/db-api.ts';

/** A parsed JSON answer, with what a `fetch()` would have shown. */
export interface ApiResult<T> {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: T;
}

export type ProgressListener = (progress: LoadProgress) => void;

/**
 * The typed facade over the DB worker: everything the page asks of the data goes through here, so no
 * query ever runs on the main thread. Components receive it through context, never by import.
 */
export interface DbClient {
  /** Start loading the datasets under dataUrl, `first` before the others (idempotent: later calls return the first load). */
  init(dataUrl: string, first?: DatasetName): Promise<DbStatus>;
  /** The engine's raw answer, exactly what the service worker would relay. */
  request(url: string, method?: string): Promise<ApiResponse>;
  /** GET a JSON API URL and parse the body. */
  getJson<T>(url: string): Promise<ApiResult<T>>;
  /** GET with the body transferred as bytes (CSV export). */
  getBinary(url: string): Promise<BinaryResponse>;
  status(): Promise<DbStatus>;
  reload(): Promise<DbStatus>;
  reset(): Promise<DbStatus>;
  websiteOwners(): Promise<AgencyOwners[]>;
  exportDatabase(name: DatasetName): Promise<Uint8Array>;
  /** Import a file in the DB worker (parsed there, never here); `id` names the run for cancelImport. */
  importFile(file: Blob, id: string, onProgress?: (progress: ImportProgressReport) => void): Promise<ImportOutcome>;
  cancelImport(id: string): Promise<void>;
  datasetChoices(): Promise<DatasetChoices[]>;
  activateDataset(dataset: DatasetName, id: string | null): Promise<SwitchOutcome>;
  deleteImport(id: string): Promise<SwitchOutcome>;
  /** Hand a relay port (from the service worker) to the DB worker. */
  servePort(port: MessagePort): void;
  /** Load progress of init, reload and reset; returns an unsubscribe function. */
  onProgress(listener: ProgressListener): () => void;
  /** The last progress report, so a late subscriber can draw the bar at once. */
  lastProgress(): LoadProgress | null;
  terminate(): void;
}

export function createDbClient(): DbClient {
  const worker = new Worker(new URL('../../worker/db.worker.ts', import.meta.url), { type: 'module', name: 'db' });
  const remote = Comlink.wrap<DbWorkerApi>(worker);
  const listeners = new Set<ProgressListener>();
  let last: LoadProgress | null = null;
  let initialising: Promise<DbStatus> | null = null;

  const report = Comlink.proxy((progress: LoadProgress) => {
    last = progress;
    for (const listener of listeners) listener(progress);
  });

  const request = (url: string, method = 'GET'): Promise<ApiResponse> => {
    const req: ApiRequest = { method, url };
    return remote.handle(req);
  };

  return {
    init(dataUrl, first) {
      initialising ??= remote.init({ dataUrl, first }, report);
      return initialising;
    },
    request,
    async getJson<T>(url: string) {
      const response = await request(url);
      let body: T;
      try {
        body = JSON.parse(response.body) as T;
      } catch {
        throw new Error(`${url}: answered ${response.status} with a body that is not JSON`);
      }
      return { url, status: response.status, headers: response.headers, body };
    },
    getBinary: (url) => remote.handleBinary({ method: 'GET', url }),
    status: () => remote.status(),
    reload: () => remote.reload(),
    reset: () => remote.reset(),
    websiteOwners: () => remote.websiteOwners(),
    exportDatabase: (name) => remote.exportDatabase(name),
    importFile: (file, id, onProgress) =>
      remote.importFile(file, { id, name: (file as File).name }, onProgress ? Comlink.proxy(onProgress) : undefined),
    cancelImport: (id) => remote.cancelImport(id),
    datasetChoices: () => remote.datasetChoices(),
    activateDataset: (dataset, id) => remote.activateDataset(dataset, id),
    deleteImport: (id) => remote.deleteImport(id),
    servePort(port) {
      void remote.servePort(Comlink.transfer(port, [port]));
    },
    onProgress(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    lastProgress: () => last,
    terminate() {
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
