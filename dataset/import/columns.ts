/** Column-name matching shared by both datasets: names compare after this normalisation. */

/** Lower case, BOM and outer spaces removed, inner runs of white space as one space, no spaces around `/`. */
export function normaliseHeader(name: string): string {
  return name
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/ ?\/ ?/g, '/');
}

/** Source column name (normalised) → the canonical key it feeds; first listed alias wins for a key. */
export type AliasTable<K extends string> = Readonly<Record<K, readonly string[]>>;

export interface ColumnMap<K extends string> {
  /** Canonical key → index of the source column that feeds it. */
  index: Map<K, number>;
  used: string[];
  ignored: string[];
}

/** Index of the alias lookup: normalised name → canonical key and the alias's rank. */
function lookup<K extends string>(aliases: AliasTable<K>): Map<string, { key: K; rank: number }> {
  const result = new Map<string, { key: K; rank: number }>();
  for (const key of Object.keys(aliases) as K[]) {
    aliases[key].forEach((alias, rank) => result.set(normaliseHeader(alias), { key, rank }));
  }
  return result;
}

/**
 * Maps a header row to canonical keys. When two columns feed one key (a file with both generations'
 * names), the alias listed first wins.
 */
export function mapColumns<K extends string>(header: readonly string[], aliases: AliasTable<K>): ColumnMap<K> {
  const table = lookup(aliases);
  const chosen = new Map<K, { index: number; rank: number }>();
  header.forEach((name, index) => {
    const hit = table.get(normaliseHeader(name));
    if (!hit) return;
    const previous = chosen.get(hit.key);
    if (!previous || hit.rank < previous.rank) chosen.set(hit.key, { index, rank: hit.rank });
  });
  const index = new Map<K, number>();
  for (const [key, { index: column }] of chosen) index.set(key, column);
  const usedIndexes = new Set(index.values());
  const used: string[] = [];
  const ignored: string[] = [];
  header.forEach((name, column) => (usedIndexes.has(column) ? used : ignored).push(name.replace(/^\uFEFF/, '').trim()));
  return { index, used, ignored };
}

/** How many of a header's names are known aliases: the detector's evidence. */
export function countKnown<K extends string>(header: readonly string[], aliases: AliasTable<K>): number {
  const table = lookup(aliases);
  return header.filter((name) => table.has(normaliseHeader(name))).length;
}
