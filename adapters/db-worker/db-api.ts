import type { ApiRequest, ApiResponse, DatasetName } from '../../engine/http/types.ts';
import type { ImportErrorCode, ImportReport } from '../../dataset/import/index.ts';
import type { ImportedDataset } from '../browser/import-store.ts';

export type { ImportedDataset } from '../browser/import-store.ts';
export type { ImportReport } from '../../dataset/import/index.ts';

/** Where a dataset is in its load: the UI draws one progress bar from these. */
export type LoadPhase = 'manifest' | 'download' | 'verify' | 'decompress' | 'open' | 'ready' | 'error';

export interface LoadProgress {
  /** Null for the manifest step, which belongs to no one dataset. */
  dataset: DatasetName | null;
  phase: LoadPhase;
  /** Bytes received so far, summed over every dataset of the load. */
  loaded: number;
  /** Bytes to receive in all (the gzip'd sizes from the manifest); 0 until the manifest is read. */
  total: number;
  message?: string;
  /**
   * Set on the `ready` report that follows a switch of the active dataset (an import, a choice in the
   * dataset panel, a deletion): views showing this dataset ask again.
   */
  replaced?: boolean;
}

export type ProgressCallback = (progress: LoadProgress) => void;

export interface DatasetStatus {
  name: DatasetName;
  loaded: boolean;
  /** The manifest version the dataset was loaded from. */
  version: string | null;
  /** Row count per table, counted in the opened database (not trusted from the manifest). */
  rows: Record<string, number>;
  /** gzip'd size (what crossed the network) and the open database's size. */
  bytes: number;
  rawBytes: number;
  sha256: string | null;
  /** Where the records came from (generator profile and seed), as the manifest says. */
  source: { profile: string; seed: number } | null;
  /** Last-Modified of the downloaded file when the server sent one, else null. */
  fileDate: string | null;
  /** When this copy was opened (ISO 8601). */
  loadedAt: string | null;
  /**
   * Milliseconds spent on each step of the last load (download includes the wait for the response and the
   * sha256 check; queued is the wait for the datasets opened before this one).
   */
  timings: { download: number; queued: number; decompress: number; open: number } | null;
  error: string | null;
  /** The import this dataset was opened from, or null for the build's dataset. */
  importId: string | null;
  /** The imported file's name, or null. */
  importName: string | null;
}

export interface DbStatus {
  /** True once every dataset of the manifest has been opened. */
  ready: boolean;
  dataUrl: string | null;
  version: string | null;
  datasets: DatasetStatus[];
}

import type { AgencyOwners } from '../../dataset/owners.ts';
export type { AgencyOwners } from '../../dataset/owners.ts';

/** A response whose body crossed as bytes (transferred, not copied): the CSV export, a database file. */
export interface BinaryResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** Where an import is: reading and mapping the file, writing the database, storing it in IndexedDB. */
export interface ImportProgressReport {
  phase: 'reading' | 'inserting' | 'saving';
  bytesRead: number;
  totalBytes: number | null;
  rowsImported: number;
  rowsRejected: number;
}

export type ImportProgressCallback = (progress: ImportProgressReport) => void;

/**
 * Why an import left everything as it was: the import core's codes, plus `busy` (another tab is
 * importing), `quota` (the browser refused the storage) and `storage` (another IndexedDB failure).
 */
export type ImportFailureCode = ImportErrorCode | 'busy' | 'quota' | 'storage';

export type ImportOutcome =
  | { ok: true; imported: ImportedDataset; report: ImportReport }
  | { ok: false; code: ImportFailureCode; message: string; report: ImportReport | null };

/** One API's datasets: the build's and the imports, and which is active (null: the build's). */
export interface DatasetChoices {
  dataset: DatasetName;
  active: string | null;
  imports: ImportedDataset[];
}

/** The result of switching or deleting: the message is for the user. */
export type SwitchOutcome = { ok: true; message: string } | { ok: false; message: string };

/**
 * What the DB worker answers over Comlink. Every method may be called before `init` finishes: they wait
 * for the data they need (a request waits only for its own dataset).
 */
export interface DbWorkerApi {
  /**
   * Read `manifest.json` under dataUrl, download, verify, decompress and open each dataset; `first` is
   * opened before the others (the dataset of the view the page opens on).
   */
  init(options: { dataUrl: string; first?: DatasetName }, onProgress?: ProgressCallback): Promise<DbStatus>;
  /** The engine's answer to one API request (the same URLs a prototype fetches). */
  handle(request: ApiRequest): Promise<ApiResponse>;
  /** The same answer with the body as transferred UTF-8 bytes: for large bodies such as `export=y`. */
  handleBinary(request: ApiRequest): Promise<BinaryResponse>;
  status(): Promise<DbStatus>;
  /** Read the manifest again and re-download only the datasets whose bytes changed. */
  reload(): Promise<DbStatus>;
  /** Close every database and load everything again from the network, bypassing the HTTP cache. */
  reset(): Promise<DbStatus>;
  /** Agencies and their bureaus as stored in the websites dataset (see docs/decisions/0301). */
  websiteOwners(): Promise<AgencyOwners[]>;
  /** The open database file of one dataset (transferred). */
  exportDatabase(name: DatasetName): Promise<Uint8Array>;
  /**
   * Import a file (picked or dropped) into a new database, store it in IndexedDB and make it the active
   * dataset of its API; the previous one stays active until all of that succeeded. `id` names the run
   * for `cancelImport`. Never throws: a failure is an outcome with a message for the user. Where Web Locks
   * exist the caller must hold the lock `importOwnerLock(id)` (worker/dataset/import-locks.ts) for the
   * whole call: the import does not start, or stops and stores nothing, once that lock is gone (the page
   * was reloaded or closed).
   */
  importFile(file: Blob, options: { id: string; name?: string }, onProgress?: ImportProgressCallback): Promise<ImportOutcome>;
  /** Stop a running import (its outcome is then `cancelled`); unknown ids are ignored. */
  cancelImport(id: string): Promise<void>;
  /** The build's and the imported datasets of each API, and the active one. */
  datasetChoices(): Promise<DatasetChoices[]>;
  /** Make an import (or, with null, the build's dataset) the active one; the old one stays if this fails. */
  activateDataset(dataset: DatasetName, id: string | null): Promise<SwitchOutcome>;
  /** Delete an import; when it is active, its API falls back to the build's dataset first. */
  deleteImport(id: string): Promise<SwitchOutcome>;
  /** Answer the service worker's relay protocol (worker/relay/protocol.ts) on this port. */
  servePort(port: MessagePort): void;
}
