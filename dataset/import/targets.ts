/**
 * The import targets, one line per dataset a user's file can be imported into, in detection order: a JSON file
 * is the first whose keys it holds (a ceiling rate may carry a `url`, so the more telling keys come first).
 */
import type { ImportTarget } from './target.ts';
import { websitesTarget } from './websites/target.ts';
import { ceilingRatesTarget } from './ceilingrates/target.ts';

export const IMPORT_TARGETS = [ceilingRatesTarget, websitesTarget] as const;

type AnyTarget = (typeof IMPORT_TARGETS)[number];

/** The datasets a user's file can be imported into. */
export type ImportableDataset = AnyTarget['dataset'];

/** Each target's record type, by dataset. */
export type ImportedRecords = { [T in AnyTarget as T['dataset']]: T extends ImportTarget<infer R, T['dataset']> ? R : never };

export function importTarget<D extends ImportableDataset>(dataset: D): ImportTarget<ImportedRecords[D], D> {
  const found = IMPORT_TARGETS.find((target) => target.dataset === dataset);
  if (!found) throw new Error(`no import into ${dataset}`);
  return found as unknown as ImportTarget<ImportedRecords[D], D>;
}
