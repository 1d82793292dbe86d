/**
 * The weeks attachment of the websites dataset, read (its tables: weeks-schema.ts; written by weeks-writer.ts):
 * any week's API answers as plain queries of the stored weeks, nothing rebuilt; a site's weeks; each week's
 * counts (the trends); any week's sites for a comparison (week-diff.ts). Every door holds one WeeksStore per
 * kept copy, the engine (its dated paths) and the features (the views) alike. The Brotli decoder is the
 * caller's (Node's zlib, the browsers' WebAssembly one): this module stays pure.
 */
import type { Database } from 'sql.js';
import type { RouteHandler } from '../http/routes.ts';
import type { WeekEntry, WeekSource } from '../http/snapshots.ts';
import { allRows } from '../sqlite-rows.ts';
import { websiteHandlers, type WebsiteReader } from './api.ts';
import { FURTHER_FIELDS, WEBSITE_FIELDS, type WebsiteRecord } from './record.ts';
import { recordFromStored } from './stored-record.ts';
import { MEASURES, type Measure } from './measures.ts';
import { comparedSites, type ComparedSite } from './week-diff.ts';
import { recordAt, weekDayText, type SiteWeeks } from './site-weeks.ts';
import { WeekIndex } from './week-index.ts';
import { BLOCK_SITES, BLOCKS_TABLE, checkWeeksFormat, FACTS_TABLE, heldWeeks, ITEMS_TABLE, ROWS_TABLE, type HeldWeek } from './weeks-schema.ts';

/**
 * Decodes Brotli bytes of a known decoded size, synchronously: Node's brotliDecompressSync, the browsers'
 * WebAssembly decoder once initialised (a record is read inside a synchronous request).
 */
export type BrotliDecode = (bytes: Uint8Array, rawBytes: number) => Uint8Array;

/** Blocks decoded, cached (16 sites each, ~66 KB of JSON): a filtered page reads up to one per record. */
const BLOCKS_CACHED = 128;
/** Records made, cached (a few KB each): a page asked again is answered from them. */
const RECORDS_CACHED = 4_096;

/** A map that forgets its least recently used entries beyond `size`. */
class Recent<K, V> {
  private readonly entries = new Map<K, V>();
  constructor(private readonly size: number) {}
  get(key: K, make: () => V): V {
    let value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
    } else {
      value = make();
      if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value as K);
    }
    this.entries.set(key, value);
    return value;
  }
}

/**
 * The fields a site's weeks show: the interface's and production's DTO fields. scan_date is left out (a week's is
 * its own day, most weeks), and so are the snapshot's further fields, whose counters and hashes change every week.
 */
const FURTHER = new Set<string>(FURTHER_FIELDS.map(([name]) => name));
export const CORE_FIELDS: readonly (keyof WebsiteRecord)[] = WEBSITE_FIELDS.map(([name]) => name).filter(
  (name) => name !== 'scan_date' && name !== 'target_url' && !FURTHER.has(name),
);

/** One week of one site: its core fields that week, and which differ from the week before it was listed. */
export interface TimelineRow {
  date: string;
  /** `absent`: that week's list had no such site (values is empty). */
  state: 'present' | 'absent';
  values: Record<string, unknown>;
  changed: string[];
}

/** One group's sites in one week and how many of them each measure counts, per scan outcome. */
export interface WeekFact extends Record<Measure, number> {
  date: string;
  name: string | null;
  sites: number;
  outcomes: Record<string, number>;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class WeeksStore implements WeekSource {
  /** The weeks held, oldest first. */
  readonly held: readonly HeldWeek[];
  private readonly byDate: ReadonlyMap<string, HeldWeek>;
  private index: WeekIndex | null = null;
  private items: string[] | null = null;
  private readonly blocks = new Recent<number, SiteWeeks[]>(BLOCKS_CACHED);
  private readonly records = new Recent<number, string>(RECORDS_CACHED);

  /** Throws when the database holds the weeks in another form (an older copy: checkWeeksFormat). */
  constructor(
    readonly db: Database,
    private readonly decode: BrotliDecode,
  ) {
    checkWeeksFormat(db);
    this.held = heldWeeks(db);
    this.byDate = new Map(this.held.map((w) => [w.date, w]));
  }

  weeks(): WeekEntry[] {
    return this.held.map(({ date, count }) => ({ date, count }));
  }

  week(date: string): HeldWeek | null {
    return this.byDate.get(date) ?? null;
  }

  handlers(date: string): Record<string, RouteHandler> | null {
    const week = this.week(date);
    return week ? websiteHandlers(this.reader(week)) : null;
  }

  /** One week's records as the API's routes read them. */
  reader(week: HeldWeek): WebsiteReader {
    const day = weekDayText(week.date);
    return {
      select: (filters) => this.weekIndex().select(filters, week.week),
      distinctCounts: (positions) => this.weekIndex().distinctCounts(positions),
      page: (positions, offset, limit) =>
        this.weekIndex()
          .sites(positions, offset, limit)
          .map((site) => this.record(site, week.week, day)),
      byUrl: (targetUrl) => {
        const site = allRows(this.db, `SELECT site FROM ${ROWS_TABLE} WHERE target_url = ?1 AND valid_from <= ?2 AND valid_to > ?2 ORDER BY listed LIMIT 1`, [
          targetUrl,
          week.week,
        ])[0]?.[0];
        return site === undefined ? null : this.record(Number(site), week.week, day);
      },
    };
  }

  private weekIndex(): WeekIndex {
    this.index ??= WeekIndex.load(this.db);
    return this.index;
  }

  /** A site's stored record text (stored-record.ts) in a week it is listed; `day` is that week's scan_date text. */
  private record(site: number, week: number, day: string): string {
    return this.records.get(site * this.held.length + week, () =>
      recordAt(this.block(Math.floor(site / BLOCK_SITES))[site % BLOCK_SITES], week, day, () => this.itemList()),
    );
  }

  private block(block: number): SiteWeeks[] {
    return this.blocks.get(
      block,
      () => JSON.parse(this.text(`SELECT raw_bytes, bytes FROM ${BLOCKS_TABLE} WHERE block = ?`, [block], `block ${block}`)) as SiteWeeks[],
    );
  }

  private itemList(): string[] {
    this.items ??= this.text(`SELECT raw_bytes, bytes FROM ${ITEMS_TABLE}`, [], 'the item list').split('\n');
    return this.items;
  }

  /** A compressed text of the tables; a part missing or undecodable is an error that says which. */
  private text(sql: string, params: number[], what: string): string {
    const row = allRows(this.db, sql, params)[0];
    if (!row) throw new Error(`the weeks dataset is damaged: ${what} is missing`);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(this.decode(row[1] as Uint8Array, Number(row[0])));
    } catch (error) {
      throw new Error(`the weeks dataset is damaged: ${what} cannot be read (${message(error)})`);
    }
  }

  /** A week's sites as a comparison reads them (week-diff.ts), or null when the week is not held. */
  sites(date: string): Map<string, ComparedSite> | null {
    const week = this.week(date);
    return week ? comparedSites(this.db, ROWS_TABLE, 'listed', 'valid_from <= ?1 AND valid_to > ?1', [week.week]) : null;
  }

  /** A site's core fields in every week, oldest first, each with the fields that differ from the week present before; null: no such site. */
  timeline(targetUrl: string): TimelineRow[] | null {
    // The site the URL was listed under last (a URL two sites listed: the first in listing order).
    const site = allRows(this.db, `SELECT site FROM ${ROWS_TABLE} WHERE target_url = ? ORDER BY valid_to DESC, listed LIMIT 1`, [targetUrl])[0]?.[0];
    if (site === undefined) return null;
    const spans = allRows(this.db, `SELECT valid_from, valid_to FROM ${ROWS_TABLE} WHERE site = ?`, [site]).map(([from, to]) => [Number(from), Number(to)]);
    const rows: TimelineRow[] = [];
    let previous: Record<string, unknown> | null = null;
    for (const { week, date } of this.held) {
      if (!spans.some(([from, to]) => from <= week && week < to)) {
        rows.push({ date, state: 'absent', values: {}, changed: [] });
        continue;
      }
      const record = recordFromStored(this.record(Number(site), week, weekDayText(date)));
      const values = Object.fromEntries(CORE_FIELDS.map((name) => [name, record[name] ?? null]));
      const before = previous;
      const changed = before ? CORE_FIELDS.filter((name) => JSON.stringify(before[name]) !== JSON.stringify(values[name])) : [];
      rows.push({ date, state: 'present', values, changed: [...changed] });
      previous = values;
    }
    return rows;
  }

  /** Per week and agency (or bureau, of one agency or of all), the sites, the measures and the scan outcomes. */
  facts(by: 'agency' | 'bureau', agency?: string): WeekFact[] {
    const where = agency === undefined ? '' : 'WHERE agency IS ?1';
    const rows = allRows(
      this.db,
      `SELECT week, ${by}, scan_status, SUM(sites), ${MEASURES.map((m) => `SUM(${m})`).join(', ')} FROM ${FACTS_TABLE} ${where} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      agency === undefined ? [] : [agency],
    );
    const facts = new Map<string, WeekFact>();
    for (const [week, name, status, sites, ...counts] of rows) {
      const date = this.held[Number(week)].date;
      const key = JSON.stringify([date, name]);
      let fact = facts.get(key);
      if (!fact) {
        fact = { date, name: name === null ? null : String(name), sites: 0, live: 0, dap: 0, uswds: 0, banner: 0, outcomes: {} };
        facts.set(key, fact);
      }
      fact.sites += Number(sites);
      MEASURES.forEach((m, i) => (fact[m] += Number(counts[i])));
      const outcome = status === null ? 'unknown' : String(status);
      fact.outcomes[outcome] = (fact.outcomes[outcome] ?? 0) + Number(sites);
    }
    return [...facts.values()];
  }
}
