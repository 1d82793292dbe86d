/** What a dataset's features (dataset/<name>/features.ts) may ask of the dataset host. */
import type { Database } from 'sql.js';
import type { DatasetName } from '../engine/http/types.ts';
import type { OpenedDataset } from './host/open.ts';

/** What a feature may read: the host's open databases, and another copy of a dataset opened aside. */
export interface FeatureHost {
  /** The open database of a dataset once it settled, or null when it failed. */
  database(name: DatasetName): Promise<Database | null>;
  activeImport(name: DatasetName): string | null;
  openImport(id: string): Promise<OpenedDataset>;
  openBuiltIn(name: DatasetName): Promise<OpenedDataset>;
  /** The built-in weeks dataset when it is loaded here (engine/site-scanning/weeks.ts), and its weeks as the engine holds them. */
  weeks?(): Promise<HeldWeeks | null>;
}

/** The weeks dataset's database, and any week of it as the engine's dated requests read it (Engine.heldWeek: lent, never closed). */
export interface HeldWeeks {
  db: Database;
  week(date: string): Database | null;
}

/** Hands large results across a worker boundary without a copy (Comlink.transfer in the DB worker). */
export type Transfer = <T>(value: T, buffers: ArrayBufferLike[]) => T;
