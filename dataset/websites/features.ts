/** The Site Scanning dataset's features beside its API: roll-ups, two datasets compared, the owners. */
import type { Database } from 'sql.js';
import { websiteRollups, type RollupsAnswer } from '../../engine/site-scanning/rollups.ts';
import { diffWeeks, websitesSites, type WeekDiff } from '../../engine/site-scanning/week-diff.ts';
import type { RollupGroup } from '../../engine/site-scanning/parameters.ts';
import { UNAVAILABLE } from '../../engine/http/failure.ts';
import type { OpenedDataset } from '../host/open.ts';
import type { FeatureHost } from '../feature-host.ts';
import { groupOwners, ownerPairs, type AgencyOwners } from './owners.ts';

const DATASET = 'websites';

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function websitesFeatures(host: FeatureHost) {
  /** Owners worked out once per open database: a switch opens another database, and so reads them again. */
  const owners = new WeakMap<Database, AgencyOwners[]>();
  return {
    /** The websites the Site Scanning filters in `query` select, rolled up by agency or bureau (engine/site-scanning/rollups.ts). */
    async websiteRollups(query: string, group: RollupGroup): Promise<RollupsAnswer> {
      const db = await host.database(DATASET);
      if (!db) return UNAVAILABLE;
      return websiteRollups(db, new URLSearchParams(query), group);
    },

    /**
     * What changed between two Site Scanning datasets (engine/site-scanning/week-diff.ts): each an import's id
     * (a weekly file), or null for the build's. One that is not the active dataset is opened aside and closed after.
     */
    async compareWebsiteDatasets(before: string | null, after: string | null): Promise<{ ok: true; diff: WeekDiff } | { ok: false; message: string }> {
      const opened: OpenedDataset[] = [];
      const open = async (id: string | null): Promise<Database> => {
        if (id === host.activeImport(DATASET)) {
          const db = await host.database(DATASET);
          if (db) return db;
        }
        const aside = id === null ? await host.openBuiltIn(DATASET) : await host.openImport(id);
        opened.push(aside);
        return aside.db;
      };
      try {
        return { ok: true, diff: diffWeeks(websitesSites(await open(before)), websitesSites(await open(after))) };
      } catch (error) {
        return { ok: false, message: `The datasets could not be compared: ${message(error)}` };
      } finally {
        for (const o of opened) o.db.close();
      }
    },

    /** Agencies and their bureaus as stored in the open websites dataset (docs/decisions/0301). */
    async websiteOwners(): Promise<AgencyOwners[]> {
      const db = await host.database(DATASET);
      if (!db) return [];
      let found = owners.get(db);
      if (!found) owners.set(db, (found = groupOwners(ownerPairs(db) ?? [])));
      return found;
    },
  };
}
