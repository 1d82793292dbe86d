import type { Database } from 'sql.js';
import { groupOwners, ownerPairs, type AgencyOwners } from '../../dataset/index.ts';
import type { DatasetHost } from '../../dataset/host/index.ts';

/**
 * Agencies and their bureaus as stored in the open websites dataset (docs/decisions/0301), worked out once
 * per open database: a switch to another dataset opens another database, and so reads them again.
 */
export function websiteOwners(host: DatasetHost): () => Promise<AgencyOwners[]> {
  const cache = new WeakMap<Database, AgencyOwners[]>();
  return async () => {
    const db = await host.database('websites');
    if (!db) return [];
    let owners = cache.get(db);
    if (!owners) cache.set(db, (owners = groupOwners(ownerPairs(db) ?? [])));
    return owners;
  };
}
