/** The agencies and bureaus of a Site Scanning database, for the websites view's pickers. */
import type { Database } from 'sql.js';
import { quoteIdent, tableWithColumns } from '../sqlite-catalogue.ts';

/** One agency with the bureaus seen under it and the record count, for the websites view's pickers. */
export interface AgencyOwners {
  agency: string;
  count: number;
  bureaus: { bureau: string; count: number }[];
}

/** Fold (agency, bureau, count) rows into sorted agencies, each with its sorted bureaus. */
export function groupOwners(pairs: Iterable<OwnerPair>): AgencyOwners[] {
  const agencies = new Map<string, { count: number; bureaus: Map<string, number> }>();
  for (const { agency, bureau, count } of pairs) {
    let entry = agencies.get(agency);
    if (!entry) agencies.set(agency, (entry = { count: 0, bureaus: new Map() }));
    entry.count += count;
    if (bureau !== null) entry.bureaus.set(bureau, (entry.bureaus.get(bureau) ?? 0) + count);
  }
  const byName = (a: string, b: string) => a.localeCompare(b, 'en');
  return [...agencies.keys()].sort(byName).map((agency) => {
    const entry = agencies.get(agency)!;
    return {
      agency,
      count: entry.count,
      bureaus: [...entry.bureaus.keys()].sort(byName).map((bureau) => ({ bureau, count: entry.bureaus.get(bureau)! })),
    };
  });
}

export interface OwnerPair {
  agency: string;
  bureau: string | null;
  count: number;
}

/** Agency and bureau pairs with record counts, straight from the table that stores the API's columns. */
export function ownerPairs(db: Database): OwnerPair[] | null {
  const table = tableWithColumns(db, ['target_url_agency_owner', 'target_url_bureau_owner']);
  if (!table) return null;
  const result = db.exec(
    `SELECT target_url_agency_owner, target_url_bureau_owner, count(*) FROM ${quoteIdent(table)}
     WHERE target_url_agency_owner IS NOT NULL GROUP BY 1, 2`,
  )[0];
  return (result?.values ?? []).map((r) => ({
    agency: String(r[0]),
    bureau: r[1] === null ? null : String(r[1]),
    count: Number(r[2]),
  }));
}
