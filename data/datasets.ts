import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetName } from '../worker/engine/http/types.ts';
import { websitesDataset } from './generate/websites.ts';
import { ceilingRatesDataset } from './generate/ceilingrates.ts';

export type Profile = 'default' | 'small';

/** How one dataset is made: its schema, and a deterministic generator for each profile. */
export interface DatasetDefinition {
  name: DatasetName;
  title: string;
  seed: number;
  /** Record count per profile: `default` is the real scale, `small` serves fast tests. */
  profiles: Record<Profile, number>;
  /** Create tables and indexes in an empty database. */
  createSchema(db: Database): void;
  /** Generate `count` records from `seed` and insert them (one transaction, one prepared statement). */
  generate(db: Database, count: number, seed: number): void;
  /** Row count per table, for the manifest. */
  countRows(db: Database): Record<string, number>;
}

export const DATASETS: readonly DatasetDefinition[] = [websitesDataset, ceilingRatesDataset];

export function datasetDefinition(name: DatasetName): DatasetDefinition {
  const def = DATASETS.find((d) => d.name === name);
  if (!def) throw new Error(`unknown dataset ${name}`);
  return def;
}

/** A fresh in-memory database holding the generated records of one profile (or an explicit count). */
export function buildDatabase(SQL: SqlJsStatic, def: DatasetDefinition, profileOrCount: Profile | number): Database {
  const count = typeof profileOrCount === 'number' ? profileOrCount : def.profiles[profileOrCount];
  const db = new SQL.Database();
  def.createSchema(db);
  def.generate(db, count, def.seed);
  return db;
}
