/**
 * The last searches' match sets and aggregations, cached by what they matched on (the search engine's request
 * cache, keyed as Solr keys its filter cache): paging through one search, re-sorting it, exporting it, or a
 * team's CI asking the same query again pays only for its page. The data is read-only for the index's
 * lifetime, so an entry never goes stale; a new database gets a new index and an empty cache.
 */
import type { CeilingRatesQuery } from '../parse-query.ts';
import type { MatchSet } from './match-set.ts';

/** A search's match set, copied out of the per-request scratch, and its aggregations as JSON text. */
export interface CachedSearch {
  match: MatchSet;
  aggregationsJson: string;
}

/** Bytes a cache holds at most (masks, row lists, JSON text at two bytes a character). */
export const SEARCH_CACHE_BYTES = 4 * 1024 * 1024;

/** What a search matched on: everything but its page, size, ordering and output form. */
export function matchKey(query: CeilingRatesQuery): string {
  const { searches, keyword, filters, exclude } = query;
  return JSON.stringify([searches, keyword, filters, exclude]);
}

const sizeOf = (cached: CachedSearch): number => cached.match.mask.byteLength + (cached.match.rows?.byteLength ?? 0) + 2 * cached.aggregationsJson.length;

/**
 * A copy that outlives the scratch buffers the match was computed in, for ordering and export. Its `rest`
 * (which only the aggregator reads) is not copied: the aggregations are cached as text.
 */
export function cachedMatch(match: MatchSet): MatchSet {
  return { mask: match.mask.slice(), count: match.count, rows: match.rows?.slice() ?? null, rest: null };
}

/** Least recently used first out, by bytes. */
export class SearchCache {
  private readonly entries = new Map<string, { cached: CachedSearch; bytes: number }>();
  private bytes = 0;

  constructor(private readonly limit = SEARCH_CACHE_BYTES) {}

  get(key: string): CachedSearch | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Re-inserting moves it to the newest end of the Map's order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.cached;
  }

  set(key: string, cached: CachedSearch): void {
    const bytes = sizeOf(cached) + 2 * key.length;
    if (bytes > this.limit) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    for (const [oldest, entry] of this.entries) {
      if (this.bytes + bytes <= this.limit) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
    this.entries.set(key, { cached, bytes });
    this.bytes += bytes;
  }

  /** Forget every search (their memory goes with them). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Entries and bytes held. */
  size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}
