import type { OwnerPair } from './inspect.ts';

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
