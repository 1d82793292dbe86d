import * as Comlink from 'comlink';
import { isLifelineMessage } from '../../adapters/browser/lifeline.ts';
import { isRunningMessage } from '../../adapters/db-worker/running.ts';
import type { ApiRequest, ApiResponse, DatasetName } from '../../engine/http/types.ts';
import type { DbWorkerApi } from '../../adapters/db-worker/db.worker.ts';
import type { BinaryResponse, DbStatus, ExportCsvAnswer, ImportOutcome, ImportProgressReport, LoadProgress } from '../../adapters/db-worker/db-api.ts';
import type { WeeksFeatures } from '../../dataset/websites/weeks-contract.ts';

export type {
  AgencyOwners,
  ChangeKind,
  DiffScope,
  GroupChanges,
  SiteChange,
  WeekDiff,
  ExportCsvAnswer,
  RollupRow,
  Rollups,
  RollupsAnswer,
  PriceCheck,
  PriceFigures,
  PriceFiguresAnswer,
  BinaryResponse,
  DatasetStatus,
  DbStatus,
  LoadProgress,
} from '../../adapters/db-worker/db-api.ts';
export type {
  CompareOutcome,
  SiteTimeline,
  TimelineRow,
  WeekEntry,
  WeeksHeld,
  TrendPoint,
  TrendSeries,
  TrendsQuery,
  WeeklyTrends,
  WeeksFeatures,
} from '../../dataset/websites/weeks-contract.ts';
export type { DatasetChoices, ImportedDataset, ImportOutcome, ImportProgressReport, ImportReport, SwitchOutcome } from '../../adapters/db-worker/db-api.ts';

/** A parsed JSON answer, with what a `fetch()` would have shown. */
export interface ApiResult<T> {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: T;
}

export type ProgressListener = (progress: LoadProgress) => void;

/**
 * The DB worker stopped (terminated, crashed, or threw outside any request) and the client replaced it:
 * `restarting` when the new worker starts, `recovered` once it opened the data again, `failed` when it
 * went on stopping and the client gave up (every call then fails at once).
 */
export interface WorkerRecovery {
  phase: 'restarting' | 'recovered' | 'failed';
  reason: string;
  /** Restarts since the page loaded. */
  restarts: number;
  /** Requests that were waiting on the lost worker and got an error instead of an answer. */
  failedRequests: number;
}

export type RecoveryListener = (recovery: WorkerRecovery) => void;

/** The error a pending call gets when its worker is lost: an answer, never a hang. */
export class WorkerLostError extends Error {
  override name = 'WorkerLostError';
}

/** Restarts in a row without one answer in between before the client stops trying (a worker that dies on start). */
const MAX_RESTARTS_IN_A_ROW = 3;

/** The worker's methods the page calls as they are (same names and arguments): see DbWorkerApi; the weeks' by their contract. */
type Forwarded = Omit<
  Comlink.RemoteObject<DbWorkerApi>,
  'init' | 'importFile' | 'importUrl' | 'importBuiltIn' | 'servePort' | 'exportRatesCsv' | keyof WeeksFeatures
>;

/**
 * The typed facade over the DB worker: everything the page asks of the data goes through here, so no
 * query ever runs on the main thread. Components receive it through context, never by import. Every
 * method of the worker is here under its own name, each call failing with WorkerLostError instead of
 * hanging when the worker is lost; the members below are the ones the page adds or calls differently.
 */
export interface DbClient extends Forwarded, WeeksFeatures {
  /** Start loading the datasets under dataUrl, `first` before the others (idempotent: later calls return the first load). */
  init(dataUrl: string, first?: DatasetName): Promise<DbStatus>;
  /** The engine's raw answer, exactly what the service worker would relay. */
  request(url: string, method?: string): Promise<ApiResponse>;
  /** GET a JSON API URL and parse the body. */
  getJson<T>(url: string): Promise<ApiResult<T>>;
  /** GET with the body transferred as bytes (CSV export). */
  getBinary(url: string): Promise<BinaryResponse>;
  /** Import a file in the DB worker (parsed there, never here); `id` names the run for cancelImport. */
  importFile(file: Blob, id: string, onProgress?: (progress: ImportProgressReport) => void): Promise<ImportOutcome>;
  /** Import the file at an http(s) URL in the DB worker, which fetches it; `id` as for importFile. */
  importUrl(url: string, id: string, onProgress?: (progress: ImportProgressReport) => void): Promise<ImportOutcome>;
  /** Loads one of the build's extra datasets (fetched on demand) and keeps it like an import. */
  importBuiltIn(extraId: string, id: string, onProgress?: (progress: ImportProgressReport) => void): Promise<ImportOutcome>;
  /** Every match of a ceiling-rates query as CSV (past the API's window), the method's notes as metadata rows. */
  exportRatesCsv(query: string, notes: [string, string][], onProgress?: (written: number, total: number) => void, titles?: string[]): Promise<ExportCsvAnswer>;
  /** Hand a relay port (from the service worker) to the DB worker. */
  servePort(port: MessagePort): void;
  /** Load progress of init, reload and reset; returns an unsubscribe function. */
  onProgress(listener: ProgressListener): () => void;
  /** The last progress report, so a late subscriber can draw the bar at once. */
  lastProgress(): LoadProgress | null;
  /**
   * Replaces the worker now, as if it had been lost (an import that did not stop when cancelled): calls
   * waiting on it fail with WorkerLostError and the new worker opens the active datasets again. Not counted
   * as a failure towards giving up.
   */
  restartWorker(reason: string): void;
  /** The DB worker was lost and replaced (docs/decisions/0801); returns an unsubscribe function. */
  onRecovery(listener: RecoveryListener): () => void;
  /**
   * Resolves once the first DB worker has run its script (or was lost trying): the page's own start-up
   * waits for it, so that the browser's part of starting the worker is not queued behind it.
   */
  running(): Promise<void>;
  terminate(): void;
}

/** The weeks' features are forwarded by name like the rest, but typed by their contract (dataset/websites/weeks-contract.ts). */
type Extras = Omit<DbClient, keyof Forwarded | keyof WeeksFeatures>;

export function createDbClient(): DbClient {
  const listeners = new Set<ProgressListener>();
  const recoveryListeners = new Set<RecoveryListener>();
  let last: LoadProgress | null = null;
  let initArgs: { dataUrl: string; first?: DatasetName } | null = null;
  let initialising: Promise<DbStatus> | null = null;
  let restarts = 0;
  let restartsInARow = 0;
  let gaveUp: string | null = null;
  let closed = false;
  let firstRunning!: () => void;
  const running = new Promise<void>((resolve) => (firstRunning = resolve));

  const report = Comlink.proxy((progress: LoadProgress) => {
    last = progress;
    for (const listener of listeners) listener(progress);
  });
  const announce = (recovery: WorkerRecovery) => {
    for (const listener of recoveryListeners) listener(recovery);
  };

  /** One worker and the calls waiting on it; replaced as a whole when the worker is lost. */
  interface Connection {
    worker: Worker;
    remote: Comlink.Remote<DbWorkerApi>;
    pending: Set<(error: Error) => void>;
    lost: boolean;
  }

  const connect = (): Connection => {
    const name = `db-${crypto.randomUUID()}`;
    const worker = new Worker(new URL('../../adapters/db-worker/db.worker.ts', import.meta.url), { type: 'module', name });
    const connection: Connection = { worker, remote: Comlink.wrap<DbWorkerApi>(worker), pending: new Set(), lost: false };
    worker.addEventListener('message', (event: MessageEvent) => {
      if (isRunningMessage(event.data)) firstRunning();
      if (!isLifelineMessage(event.data) || !navigator.locks) return;
      // Granted only once the worker that holds it is gone.
      void navigator.locks.request(event.data.lock, () => lose(connection, 'the data worker stopped'));
    });
    // An exception nothing caught: the worker's state is unknown, so it is replaced like a lost one.
    worker.addEventListener('error', (event: ErrorEvent) => {
      event.preventDefault();
      lose(connection, `the data worker failed: ${event.message || 'its script could not run'}`);
    });
    return connection;
  };

  let current = connect();

  function lose(connection: Connection, reason: string, deliberate = false): void {
    if (closed || connection.lost || connection !== current) return;
    connection.lost = true;
    firstRunning();
    connection.worker.terminate();
    const waiting = [...connection.pending];
    connection.pending.clear();
    const error = new WorkerLostError(`${reason}; it was restarted and the data opened again, ask again`);
    for (const fail of waiting) fail(error);
    restarts++;
    if (!deliberate) restartsInARow++;
    if (restartsInARow > MAX_RESTARTS_IN_A_ROW) {
      gaveUp = `${reason} (${restartsInARow} times in a row); reload the page`;
      announce({ phase: 'failed', reason: gaveUp, restarts, failedRequests: waiting.length });
      return;
    }
    current = connect();
    announce({ phase: 'restarting', reason, restarts, failedRequests: waiting.length });
    if (!initArgs) return;
    const { dataUrl, first } = initArgs;
    const reopened = call((remote) => remote.init({ dataUrl, first }, report));
    initialising = reopened;
    reopened.then(
      () => announce({ phase: 'recovered', reason, restarts, failedRequests: waiting.length }),
      () => {}, // a worker lost again during the reopen announces itself
    );
  }

  /** A call on the current worker that fails with WorkerLostError, instead of waiting forever, if the worker goes. */
  function call<T>(run: (remote: Comlink.Remote<DbWorkerApi>) => Promise<T>): Promise<T> {
    if (gaveUp) return Promise.reject(new WorkerLostError(gaveUp));
    const connection = current;
    return new Promise<T>((resolve, reject) => {
      connection.pending.add(reject);
      run(connection.remote).then(
        (value) => {
          connection.pending.delete(reject);
          if (connection === current) restartsInARow = 0;
          resolve(value);
        },
        (error: unknown) => {
          connection.pending.delete(reject);
          reject(error);
        },
      );
    });
  }

  const request = (url: string, method = 'GET'): Promise<ApiResponse> => {
    const req: ApiRequest = { method, url };
    return call((remote) => remote.handle(req));
  };

  const extras: Extras = {
    init(dataUrl, first) {
      initArgs ??= { dataUrl, first };
      initialising ??= call((remote) => remote.init({ dataUrl, first }, report));
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
    getBinary: (url) => call((remote) => remote.handleBinary({ method: 'GET', url })),
    importFile: (file, id, onProgress) =>
      call<ImportOutcome>((remote) => remote.importFile(file, { id, name: (file as File).name }, onProgress ? Comlink.proxy(onProgress) : undefined)),
    importUrl: (url, id, onProgress) => call<ImportOutcome>((remote) => remote.importUrl(url, { id }, onProgress ? Comlink.proxy(onProgress) : undefined)),
    importBuiltIn: (extraId, id, onProgress) =>
      call<ImportOutcome>((remote) => remote.importBuiltIn(extraId, { id }, onProgress ? Comlink.proxy(onProgress) : undefined)),
    exportRatesCsv: (query, notes, onProgress, titles = []) =>
      call<ExportCsvAnswer>(
        (remote) => remote.exportRatesCsv(query, notes, onProgress ? Comlink.proxy(onProgress) : undefined, titles) as Promise<ExportCsvAnswer>,
      ),
    servePort(port) {
      // A port given to a worker that is later lost dies with it; the relay bridge hears onRecovery and the
      // service worker then opens a fresh one.
      void current.remote.servePort(Comlink.transfer(port, [port]));
    },
    onProgress(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    lastProgress: () => last,
    running: () => running,
    restartWorker(reason) {
      lose(current, reason, true);
    },
    onRecovery(listener) {
      recoveryListeners.add(listener);
      return () => recoveryListeners.delete(listener);
    },
    terminate() {
      closed = true;
      current.remote[Comlink.releaseProxy]();
      current.worker.terminate();
    },
  };

  // The worker's other methods, forwarded by name: their list is written once, in the worker.
  return new Proxy(extras, {
    get(target, key, receiver) {
      if (typeof key !== 'string' || key in target) return Reflect.get(target, key, receiver);
      // Not a promise: `await client` must not call the worker.
      if (key === 'then') return undefined;
      return (...args: unknown[]) => call((remote) => (remote as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[key](...args));
    },
  }) as DbClient;
}
