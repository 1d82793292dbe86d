import type { DatasetSource } from '../artifact/format.ts';
import type { DatasetName } from '../../engine/http/types.ts';

/** One imported file, as the dataset panel lists it. */
export interface ImportedDataset {
  /** Stable id (a UUID): names the file and the active choice. */
  id: string;
  dataset: DatasetName;
  /** The file's name as the user picked it. */
  fileName: string;
  /** The detected format (import core's ImportFormat) and its label. */
  format: string;
  formatLabel: string;
  importedAt: string;
  /** Row count per table of the built database. */
  rows: Record<string, number>;
  rowsImported: number;
  rowsRejected: number;
  /** Size of the source file, of the stored gzip'd database, and of the open database. */
  sourceBytes: number;
  bytes: number;
  rawBytes: number;
  /** Set for one of the build's extra datasets kept this way: where its records come from (real, whose). */
  source?: DatasetSource;
  /**
   * Set for a dataset's attachment (its registry id, engine/dataset-registry.ts): kept beside the dataset's own
   * database, never made active.
   */
  attachment?: string;
  /** Open in this window but not stored (the browser refused it): gone once the app reloads or another dataset answers. */
  sessionOnly?: true;
}

/** What the host reads of the imported datasets on this machine (IndexedDB in the browser: adapters/browser/import-store.ts). */
export interface ImportedStore {
  /** The active import id of each dataset (absent: the build's dataset). */
  activeImports(): Promise<Partial<Record<DatasetName, string>>>;
  /** One import's metadata and gzip'd database file, or null when it is no longer stored. */
  readImport(id: string): Promise<{ meta: ImportedDataset; file: Uint8Array } | null>;
  /** The kept copy of an attachment (the newest kept), or null when none is (absent: this store keeps none). */
  keptAttachment?(attachment: string): Promise<string | null>;
}
