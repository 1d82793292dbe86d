/**
 * The Postgres store of each dataset in the registry (engine/dataset-registry.ts), the one table the door
 * reads: load.ts, answers.ts and commands.ts find a dataset's store here by its name. A dataset without one
 * (a registered dataset the door does not serve yet) is refused by `load` and answered 503 by `serve`.
 */
import type { DatasetName } from '../../../../engine/http/types.ts';
import { ceilingRatesStore } from './ceilingrates-store.ts';
import type { PostgresStore } from './store.ts';
import { websitesStore } from './websites-store.ts';

export const POSTGRES_STORES = {
  websites: websitesStore,
  ceilingrates: ceilingRatesStore,
} satisfies Partial<Record<DatasetName, PostgresStore<unknown>>>;

type Stores = typeof POSTGRES_STORES;

/** What each store's load returns, by dataset. */
export type Loaded = { [Name in keyof Stores]: Stores[Name] extends PostgresStore<infer L> ? L : never };

/** A dataset's store, as the shared code sees it. */
export const storeOf = (name: DatasetName): PostgresStore<unknown> | undefined =>
  (POSTGRES_STORES as Partial<Record<DatasetName, PostgresStore<unknown>>>)[name];
