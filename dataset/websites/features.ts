/** The Site Scanning dataset's features beside its API: roll-ups, a site's weeks, snapshot diffs, the owners. */
import type { Database } from 'sql.js';
import { websiteRollups, type RollupsAnswer } from '../../engine/site-scanning/rollups.ts';
import { siteHistory, type SiteHistory } from '../../engine/site-scanning/history.ts';
import { selectWebsiteByTargetUrl } from '../../engine/site-scanning/sql.ts';
import { recordFromStored } from '../../engine/site-scanning/stored-record.ts';
import { diffSnapshots, type SnapshotDiff } from '../../engine/site-scanning/snapshot-diff.ts';
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

    /** How a site's record changed across the weekly snapshots shipped with the active websites dataset (null: none). */
    async websiteHistory(targetUrl: string): Promise<SiteHistory | null> {
      const db = await host.database(DATASET);
      const stored = db ? selectWebsiteByTargetUrl(db, targetUrl) : null;
      return db && stored !== null ? siteHistory(db, recordFromStored(stored)) : null;
    },

    /**
     * What changed between two Site Scanning datasets (engine/site-scanning/snapshot-diff.ts): each an import's
     * id, or null for the build's. One that is not the active dataset is opened aside and closed after.
     */
    async diffWebsiteSnapshots(before: string | null, after: string | null): Promise<{ ok: true; diff: SnapshotDiff } | { ok: false; message: string }> {
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
        return { ok: true, diff: diffSnapshots(await open(before), await open(after)) };
      } catch (error) {
        return { ok: false, message: `The snapshots could not be compared: ${message(error)}` };
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
