/**
 * The registry of datasets: each names its API, its tables and how an empty database gets its schema.
 * Adding a dataset: its own folder (its API, schema, import mapping, features) and one line here.
 */
import type { Database } from 'sql.js';
import type { ApiDefinition } from './http/routes.ts';
import type { DatasetName } from './http/types.ts';
import { siteScanningApi } from './site-scanning/api.ts';
import { upgradeWebsitesLayout } from './site-scanning/upgrade.ts';
import { createWebsitesSchema, WEBSITES_TABLE } from './site-scanning/schema.ts';
import { WEEKS_TABLES } from './site-scanning/weeks-schema.ts';
import { WeeksStore, type BrotliDecode } from './site-scanning/weeks.ts';
import { ceilingRatesApi } from './ceilingrates/api.ts';
import { createCeilingRatesSchema } from './ceilingrates/schema.ts';
import { CEILINGRATES_TABLE } from './ceilingrates/record.ts';

export interface DatasetDefinition {
  name: DatasetName;
  title: string;
  /** The API that reads this dataset. */
  api: ApiDefinition;
  /** The tables that hold its records (row counts are reported per table). */
  tables: readonly string[];
  /** Create the tables and indexes in an empty database. */
  createSchema(db: Database): void;
  /** Bring a database stored by an earlier version up to today's layout, in memory (absent: every layout is today's). */
  upgrade?(db: Database): void;
  /** What may be kept beside the dataset's own database, never in its place (absent: nothing). */
  attachment?: DatasetAttachment;
}

/**
 * A database kept beside a dataset's own, that the dataset's API answers from too: the websites' weeks
 * (engine/site-scanning/weeks-schema.ts), answered at `/snapshots/<date>/…`. The build ships it as an extra
 * fetched on demand; every door finds it here by its id and opens it the one way.
 */
export interface DatasetAttachment {
  /** The build's extra (`extras[].id`) and the kept copy that hold it. */
  id: string;
  /** Its tables (row counts are reported per table). */
  tables: readonly string[];
  /**
   * Opened for the engine's dated paths (`Engine.attach`) and the dataset's features; throws when the database
   * holds it in another form (a copy kept by an older version: to be fetched again).
   */
  open(db: Database, brotli: BrotliDecode): WeeksStore;
}

export const DATASETS: readonly DatasetDefinition[] = [
  {
    name: 'websites',
    title: 'Site Scanning',
    api: siteScanningApi,
    tables: [WEBSITES_TABLE],
    createSchema: createWebsitesSchema,
    upgrade: upgradeWebsitesLayout,
    attachment: { id: 'websites-weeks', tables: WEEKS_TABLES, open: (db, brotli) => new WeeksStore(db, brotli) },
  },
  { name: 'ceilingrates', title: 'Ceiling rates', api: ceilingRatesApi, tables: [CEILINGRATES_TABLE], createSchema: createCeilingRatesSchema },
];

/** Every dataset's name, in the registry's order. */
export const DATASET_NAMES: readonly DatasetName[] = DATASETS.map((d) => d.name);

export function datasetDefinition(name: DatasetName): DatasetDefinition {
  const found = DATASETS.find((d) => d.name === name);
  if (!found) throw new Error(`unknown dataset ${name}`);
  return found;
}

/** The dataset an attachment id belongs to, and the attachment; null for an id no dataset has. */
export function attachmentOf(id: string): { name: DatasetName; attachment: DatasetAttachment } | null {
  for (const { name, attachment } of DATASETS) if (attachment?.id === id) return { name, attachment };
  return null;
}
