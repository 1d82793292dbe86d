import type { DatasetSource, ExtraArtifact } from '../artifact/format.ts';
import type { DatasetName } from '../../engine/http/types.ts';

export interface DatasetStatus {
  name: DatasetName;
  loaded: boolean;
  /** The manifest version the dataset was loaded from. */
  version: string | null;
  /**
   * Row count per table, counted in the opened database (not trusted from the manifest); for a copy kept on
   * this machine, counted when that same file was first opened.
   */
  rows: Record<string, number>;
  /** gzip'd size (what crossed the network) and the open database's size. */
  bytes: number;
  rawBytes: number;
  sha256: string | null;
  /** Where the records came from, as the manifest says (null for an import: see importName). */
  source: DatasetSource | null;
  /** Last-Modified of the downloaded file when the server sent one, else null. */
  fileDate: string | null;
  /** When this copy was opened (ISO 8601). */
  loadedAt: string | null;
  /**
   * Milliseconds spent on each step of the last load (download includes the wait for the response and the
   * sha256 check; queued is the wait for the datasets opened before this one). A dataset read from the
   * unpacked copy kept on this machine has no download: `download` is that read and `decompress` about 0; a
   * transfer copy decoded as it arrived has its decoding in `download`, and `decompress` about 0.
   * `bind`: the engine's bind at open (the first view's dataset; from the kept bind when there is one), null
   * where the first request binds instead. `firstAnswer`: the first API answer after the open (the query code
   * still cold, and the bind where it was not done at open), null until one is asked.
   */
  timings: { download: number; queued: number; decompress: number; open: number; bind: number | null; firstAnswer: number | null } | null;
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
  /** The build's datasets fetched on demand (a real earlier snapshot, the real price list). */
  extras: ExtraArtifact[];
}

/** The one place a dataset's status is made: the given fields over "not loaded". */
export function datasetStatus(fields: Partial<DatasetStatus> & { name: DatasetName }): DatasetStatus {
  return {
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
    ...fields,
  };
}

/** The host's status from its datasets' (copied: the caller may keep it). */
export function hostStatus(
  dataUrl: string | null,
  version: string | null,
  datasets: readonly DatasetStatus[],
  extras: readonly ExtraArtifact[] = [],
): DbStatus {
  const copies = datasets.map((d) => ({ ...d }));
  return { ready: copies.every((d) => d.loaded), dataUrl, version, datasets: copies, extras: extras.map((e) => ({ ...e })) };
}
