/** The import targets, one line per dataset a user's file can be imported into. */
import type { WebsiteRecord } from '../../engine/site-scanning/record.ts';
import type { ImportTarget } from './target.ts';
import type { ImportableDataset } from './formats.ts';
import { websitesTarget } from './websites/target.ts';
import { ceilingRatesTarget } from './ceilingrates/target.ts';
import type { ImportedCeilingRate } from './ceilingrates/map.ts';

export const IMPORT_TARGETS = [websitesTarget, ceilingRatesTarget] as const;

/** Each target's record type, by dataset. */
export interface ImportedRecords extends Record<ImportableDataset, unknown> {
  websites: WebsiteRecord;
  ceilingrates: ImportedCeilingRate;
}

export function importTarget<D extends ImportableDataset>(dataset: D): ImportTarget<ImportedRecords[D]> {
  const found = IMPORT_TARGETS.find((target) => target.dataset === dataset);
  if (!found) throw new Error(`no import into ${dataset}`);
  return found as unknown as ImportTarget<ImportedRecords[D]>;
}
