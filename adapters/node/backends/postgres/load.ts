/**
 * `offline-gov-api load --database`: the records of opened datasets (the engine's SQLite tables, as the built
 * files hold them or the app's import core made them from a user's CSV/JSON) copied into Postgres, each by
 * its dataset's store (stores.ts). One transaction per load: until it commits, servers keep answering the
 * data that was there; if it fails or is interrupted, that data is intact.
 */
import type pg from 'pg';
import { DATASET_NAMES } from '../../../../engine/dataset-registry.ts';
import type { DatasetName } from '../../../../engine/http/types.ts';
import { isSnapshotDate } from '../../../../engine/http/snapshots.ts';
import { migrate } from './schema.ts';
import type { LoadOptions, LoadSource } from './store.ts';
import { storeOf, type Loaded } from './stores.ts';

export type LoadInput = Partial<Record<DatasetName, LoadSource>> &
  LoadOptions & {
    /**
     * VACUUM (ANALYZE) the loaded tables after the commit (default). A caller loading many snapshots in a row
     * leaves it to one `vacuumLoaded` at the end: each would read every week loaded before it again.
     */
    vacuum?: boolean;
  };

/** VACUUM (ANALYZE) the tables of these datasets' stores. */
export async function vacuumLoaded(pool: pg.Pool, datasets: readonly DatasetName[]): Promise<void> {
  const tables = datasets.flatMap((name) => storeOf(name)?.tables ?? []);
  // VACUUM too: the replaced rows' index entries and heap tuples go, so an index scan reads the new rows page
  // after page instead of alternating with the dead ones.
  if (tables.length > 0) await pool.query(`VACUUM (ANALYZE) ${tables.join(', ')}`);
}

export type LoadResult = Partial<Loaded>;

/** Migrate the schema and load the given datasets, in the registry's order, all in one transaction. */
export async function loadIntoPostgres(pool: pg.Pool, input: LoadInput): Promise<LoadResult> {
  if (input.snapshot !== undefined && !isSnapshotDate(input.snapshot)) throw new Error(`--snapshot must be a date YYYY-MM-DD, not "${input.snapshot}"`);
  const options: LoadOptions = input.snapshot === undefined ? {} : { snapshot: input.snapshot };
  const given = DATASET_NAMES.filter((name) => input[name] !== undefined);
  const stores = given.map((name) => {
    const store = storeOf(name);
    if (!store) throw new Error(`the Postgres door has no store for the dataset ${name}`);
    return [name, store] as const;
  });
  const result = await inLoadTransaction(pool, async (client) => {
    const loaded: Record<string, unknown> = {};
    for (const [name, store] of stores) loaded[name] = await store.load(client, input[name]!, options);
    return loaded;
  });
  if (input.vacuum !== false) await vacuumLoaded(pool, given);
  return result as LoadResult;
}

/** `work` as one load's transaction, the schema migrated first; rolled back if it fails. */
export async function inLoadTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // A big load's statements may run longer than a request's timeout.
    await client.query('SET LOCAL statement_timeout = 0');
    await migrate(client);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
