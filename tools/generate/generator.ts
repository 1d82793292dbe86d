import type { Database } from 'sql.js';
import type { DatasetName } from '../../engine/http/types.ts';

export type Profile = 'default' | 'small';

/** How one dataset's default records are made: a deterministic generator per profile, over the engine's schema. */
export interface DatasetGenerator {
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
