/** What a dataset's features (dataset/<name>/features.ts) may ask of the dataset host. */
import type { Database } from 'sql.js';
import type { DatasetName } from '../engine/http/types.ts';
import type { OpenedDataset } from './host/open.ts';
import type { WeeksStore } from '../engine/site-scanning/weeks.ts';

/** What a feature may read: the host's open databases, and another copy of a dataset opened aside. */
export interface FeatureHost {
  /** The open database of a dataset once it settled, or null when it failed. */
  database(name: DatasetName): Promise<Database | null>;
  activeImport(name: DatasetName): string | null;
  openImport(id: string): Promise<OpenedDataset>;
  openBuiltIn(name: DatasetName): Promise<OpenedDataset>;
  /** The dataset's attachment kept here (engine/dataset-registry.ts: the websites' weeks), opened as the engine reads it; null when none is kept. */
  attached?(name: DatasetName): Promise<WeeksStore | null>;
  /** Why the kept attachment could not be opened when last looked for (a copy an older version kept), or null. */
  attachmentRefusal?(name: DatasetName): string | null;
}

/** Hands large results across a worker boundary without a copy (Comlink.transfer in the DB worker). */
export type Transfer = <T>(value: T, buffers: ArrayBufferLike[]) => T;
