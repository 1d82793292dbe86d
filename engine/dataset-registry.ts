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
}

export const DATASETS: readonly DatasetDefinition[] = [
  {
    name: 'websites',
    title: 'Site Scanning',
    api: siteScanningApi,
    tables: [WEBSITES_TABLE],
    createSchema: createWebsitesSchema,
    upgrade: upgradeWebsitesLayout,
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
