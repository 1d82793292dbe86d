import type { Database } from 'sql.js';
import { createEngine, type Engine } from '../engine/index.ts';
import type { ApiResponse, DatasetName } from '../engine/http/types.ts';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { buildDatabase, datasetGenerator } from '../tools/generated-datasets.ts';
import { datasetDefinition } from '../engine/dataset-registry.ts';

export interface Answer<T = any> {
  status: number;
  headers: Record<string, string>;
  body: T;
  raw: ApiResponse;
}

/** GET (or another method) through the engine, with the JSON body parsed when there is one. */
export function call<T = any>(engine: Engine, url: string, method = 'GET'): Answer<T> {
  const raw = engine.handle({ method, url });
  const isJson = (raw.headers['content-type'] ?? '').startsWith('application/json') && raw.body !== '';
  return { status: raw.status, headers: raw.headers, body: (isJson ? JSON.parse(raw.body) : raw.body) as T, raw };
}

/** A stand-in for a toy API that reads no database: the engine only sets its locking mode. */
export const fakeDatabase = (): Database => ({ exec: () => [] }) as unknown as Database;

/** An empty database with the dataset's schema, for hand-made records. */
export async function emptyDatabase(name: DatasetName): Promise<Database> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  datasetDefinition(name).createSchema(db);
  return db;
}

/** A database of generated records (the small profile unless a count is given). */
export async function generatedDatabase(name: DatasetName, count?: number): Promise<Database> {
  const SQL = await loadSqlJs();
  return buildDatabase(SQL, datasetGenerator(name), count ?? 'small');
}

export function engineOver(name: DatasetName, db: Database): Engine {
  const engine = createEngine();
  engine.use(name, db);
  return engine;
}
