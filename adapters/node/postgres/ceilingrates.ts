/**
 * Ceiling rates from Postgres, answered by the engine's own code: each server process reads the rates of the
 * current load generation once (the engine's SQLite file `load` kept beside the rows, or else the rows) and
 * binds the engine's ceiling-rates API to it, then
 * answers from that until `load` commits a new generation (checked with one small query per request, so
 * every replica moves to the newest load; it answers the previous one for the seconds the read takes). The
 * rates are bounded (about 250,000 records, the whole schedule) and every replica holding them is what spreads the work; the semantics of search, keyword, filters,
 * ordering, aggregations, percentiles, the histogram, suggestions and the export stay in one place, the
 * engine. Decision 1000 says why, and what moving them into SQL would take.
 */
import { gunzipSync } from 'node:zlib';
import type pg from 'pg';
import type { Database } from 'sql.js';
import type { RouteHandler } from '../../../engine/http/routes.ts';
import { ceilingRatesApi } from '../../../engine/ceilingrates/api.ts';
import { createCeilingRatesSchema, insertCeilingRates } from '../../../engine/ceilingrates/schema.ts';
import { RECORD_FIELDS, type CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import { loadSqlJs } from '../sqljs-node.ts';
import { quote } from './schema.ts';

interface Bound {
  generation: number;
  handlers: Record<string, RouteHandler>;
  close(): void;
}

/** The generation `load` last committed, or null when no rates were ever loaded. */
async function currentGeneration(pool: pg.Pool): Promise<number | null> {
  const { rows } = await pool.query<{ generation: string }>('SELECT max(generation) AS generation FROM ceilingrates_loads');
  return rows[0]?.generation == null ? null : Number(rows[0].generation);
}

type Generation = { generation: number; image: Uint8Array } | { generation: number; records: CeilingRateRecord[] };

/**
 * The rates of the newest generation, read in one repeatable-read transaction so a concurrent load cannot mix
 * in: the engine's file that `load` kept beside the rows, or else the rows themselves.
 */
async function readGeneration(pool: pg.Pool): Promise<Generation | null> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows: loads } = await client.query<{ generation: string; image: Buffer | null }>(
      'SELECT generation, image FROM ceilingrates_loads ORDER BY generation DESC LIMIT 1',
    );
    if (loads.length === 0) {
      await client.query('COMMIT');
      return null;
    }
    const generation = Number(loads[0].generation);
    const image = loads[0].image;
    if (image) {
      await client.query('COMMIT');
      return { generation, image: new Uint8Array(gunzipSync(image)) };
    }
    const result = await client.query({ text: `SELECT ${RECORD_FIELDS.map(quote).join(', ')} FROM ceilingrates ORDER BY id`, rowMode: 'array' });
    await client.query('COMMIT');
    const records = result.rows.map((row: unknown[]) => {
      const record: Record<string, unknown> = {};
      RECORD_FIELDS.forEach((field, i) => (record[field] = field === 'id' ? Number(row[i]) : row[i]));
      return record as unknown as CeilingRateRecord;
    });
    return { generation, records };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export class CeilingRatesFromPostgres {
  private bound: Bound | null = null;
  private building: Promise<Bound | null> | null = null;

  constructor(private readonly pool: pg.Pool) {}

  /** The engine's handlers over the current generation; null when the database holds no rates. */
  async handlers(): Promise<Record<string, RouteHandler> | null> {
    const generation = await currentGeneration(this.pool);
    if (generation === null) return null;
    if (this.bound?.generation === generation) return this.bound.handlers;
    // One rebuild at a time. Until it is done, the previous load keeps answering (a new load makes no
    // replica stall for the seconds a read and bind take); only a replica with nothing yet waits.
    this.building ??= this.build().finally(() => (this.building = null));
    if (this.bound) {
      this.building.catch(() => {});
      return this.bound.handlers;
    }
    const bound = await this.building;
    return bound?.handlers ?? null;
  }

  private async build(): Promise<Bound | null> {
    const read = await readGeneration(this.pool);
    if (!read) return null;
    const SQL = await loadSqlJs();
    let db: Database;
    if ('image' in read) {
      db = new SQL.Database(read.image);
    } else {
      db = new SQL.Database();
      createCeilingRatesSchema(db);
      insertCeilingRates(db, read.records);
    }
    const handlers = ceilingRatesApi.bind(db);
    const previous = this.bound;
    this.bound = { generation: read.generation, handlers, close: () => db.close() };
    previous?.close();
    return this.bound;
  }

  close(): void {
    this.bound?.close();
    this.bound = null;
  }
}
