/** What the server's thread and its worker threads say to each other (worker-pool.ts, pool-worker.ts). */
import type { ApiResponse, DatasetName } from '../../../engine/http/types.ts';
import type { Routed } from '../../../engine/http/route.ts';
import type { DatasetFromFile } from '../datasets/dataset-files.ts';
import type { OpenEngineOptions } from '../datasets/open-engine.ts';

/** A dataset as every worker receives it: shared bytes (SharedArrayBuffer views), never a copy per worker. */
export interface SharedDataset {
  name: DatasetName;
  /** The SQLite file. */
  file: Uint8Array;
  /** The bind its APIs prepared (`ApiDefinition.prepared`), read by each worker instead of the records; or null. */
  prepared: Uint8Array | null;
  /** A real snapshot's date, so its dated paths are answered too; or null. */
  snapshot: string | null;
  /** Set for a dataset's attachment (engine/dataset-registry.ts), opened beside the dataset's own file; or null. */
  attachment: string | null;
}

export interface PoolWorkerData {
  datasets: SharedDataset[];
}

/** A request the server's thread has routed: the worker answers it without routing again. */
export type ToWorker = { id: number; routed: Routed };
export type FromWorker = { ready: true } | { id: number; response: ApiResponse };

/** What was opened, for the start-up lines: an opened dataset without its database. */
export type DatasetSummary = Omit<DatasetFromFile, 'db'>;

/** A dataset's bytes as opened, before they are shared. */
export interface DatasetBytes {
  name: DatasetName;
  file: Uint8Array;
  prepared: Uint8Array | null;
  snapshot: string | null;
  attachment: string | null;
}

/**
 * What the share process (share-process.ts) opens: `openEngine`'s options that a command line can pass (files
 * and the build's directory, not bytes in memory).
 */
export type ShareOptions = Omit<OpenEngineOptions, 'bytes'>;

/**
 * The share process's first line on its pipe, as JSON: what it opened and the byte length of each file and
 * prepared bind that follow, in that order (file, then prepared when not null, dataset by dataset); or why it could not.
 */
export type ShareHeader =
  | { datasets: DatasetSummary[]; sizes: { name: DatasetName; file: number; prepared: number | null; snapshot: string | null; attachment: string | null }[] }
  | { error: string };

export interface SharedDatasets {
  datasets: DatasetSummary[];
  shared: SharedDataset[];
}
