import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetName } from '../engine/http/types.ts';
import type { DatasetGenerator, Profile } from './generate/generator.ts';
import { websitesDataset } from './generate/websites.ts';
import { ceilingRatesDataset } from './generate/ceilingrates.ts';

export type { DatasetGenerator, Profile } from './generate/generator.ts';

export const GENERATORS: readonly DatasetGenerator[] = [websitesDataset, ceilingRatesDataset];

export function datasetGenerator(name: DatasetName): DatasetGenerator {
  const def = GENERATORS.find((d) => d.name === name);
  if (!def) throw new Error(`unknown dataset ${name}`);
  return def;
}

/** A fresh in-memory database holding the generated records of one profile (or an explicit count). */
export function buildDatabase(SQL: SqlJsStatic, def: DatasetGenerator, profileOrCount: Profile | number): Database {
  const count = typeof profileOrCount === 'number' ? profileOrCount : def.profiles[profileOrCount];
  const db = new SQL.Database();
  def.createSchema(db);
  def.generate(db, count, def.seed);
  return db;
}
