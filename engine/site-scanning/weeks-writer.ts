/**
 * Writes the weeks' tables (weeks-schema.ts) from every week's records as the import maps them, the weeks given
 * newest first (the order data/'s chain is read in). Build time; pure but for the Brotli encoder it is given.
 */
import type { Database, SqlValue } from 'sql.js';
import type { WebsiteRecord } from './record.ts';
import { storedTexts } from './stored-record.ts';
import { COLUMN_FIELDS, columnValues } from './schema.ts';
import { MEASURE_SQL, MEASURES, OUTCOME_COLUMN } from './measures.ts';
import { SiteWeeksBuilder, type SiteWeeks } from './site-weeks.ts';
import { BLOCK_SITES, BLOCKS_TABLE, createWeeksSchema, FACTS_TABLE, indexWeeks, ITEMS_TABLE, ROWS_TABLE, WEEKS_TABLE } from './weeks-schema.ts';
import { inTransaction } from '../sqlite-transaction.ts';

/** Compresses bytes (Brotli), synchronously: the build's encoder. */
export type BrotliEncode = (bytes: Uint8Array) => Uint8Array;

/** A week to write, oldest first: its day and, when its list is known to be incomplete, why. */
export interface WeekToWrite {
  date: string;
  partial?: string | null;
}

/** One version of a site's columns: its values and the weeks it holds for, [from, to). */
interface Version {
  values: SqlValue[];
  key: string;
  from: number;
  to: number;
}

const utf8 = new TextEncoder();

/** SQLite's BINARY collation: UTF-8 bytes compared in order, a prefix first. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

const TARGET_URL = COLUMN_FIELDS.indexOf('target_url');

export class WeeksWriter {
  private readonly siteWeeks = new SiteWeeksBuilder();
  private readonly versions = new Map<string, Version[]>();
  private readonly counts = new Map<number, number>();
  private next: number;

  /**
   * `weeks`: every week the records will be added for, oldest first. A site is told across weeks by the `sites`
   * given with its records (data/'s source file path), which also orders records of one target URL, as each
   * week's file lists them.
   */
  constructor(
    private readonly db: Database,
    private readonly weeks: readonly WeekToWrite[],
    private readonly encode: BrotliEncode,
  ) {
    createWeeksSchema(db);
    this.next = weeks.length - 1;
  }

  /** The next week's records (newest first), as the import of its file maps them; `sites[i]` is the site of `records[i]`. */
  add(date: string, records: readonly WebsiteRecord[], sites: readonly string[]): void {
    const week = this.next--;
    if (this.weeks[week]?.date !== date) throw new Error(`the week of ${date} added where ${this.weeks[week]?.date ?? 'no week'} was expected`);
    if (records.length !== sites.length) throw new Error(`the week of ${date}: ${records.length} records for ${sites.length} sites`);
    records.forEach((record, i) => {
      const site = sites[i];
      this.siteWeeks.add(site, week, storedTexts(record), date);
      const values = columnValues(record);
      const key = JSON.stringify(values);
      let versions = this.versions.get(site);
      if (!versions) this.versions.set(site, (versions = []));
      const newest = versions[versions.length - 1];
      // A version holds for weeks in a row: the same values after a week away are a version of their own.
      if (newest && newest.key === key && newest.from === week + 1) newest.from = week;
      else versions.push({ values, key, from: week, to: week + 1 });
    });
    this.counts.set(week, records.length);
  }

  /** Writes every table once the oldest week is added. */
  finish(): void {
    if (this.next !== -1) throw new Error(`${this.next + 1} weeks not added, ${this.weeks[this.next].date} the newest of them`);
    const { items, sites } = this.siteWeeks.finish();
    // Each (target URL, site) pair's place: the URL's bytes, then the site (the order its file lists records in).
    const pairs = new Map<string, { url: Uint8Array; site: string }>();
    for (const [site, versions] of this.versions) {
      for (const { values } of versions) pairs.set(JSON.stringify([values[TARGET_URL], site]), { url: utf8.encode(String(values[TARGET_URL])), site });
    }
    const ranked = [...pairs.entries()].sort(([, a], [, b]) => compareBytes(a.url, b.url) || (a.site < b.site ? -1 : a.site > b.site ? 1 : 0));
    const listed = new Map(ranked.map(([key], i) => [key, i]));
    const placeOf = (site: string, version: Version): number => listed.get(JSON.stringify([version.values[TARGET_URL], site]))!;
    // Sites numbered in the listing order of their newest version, so a page's records share few blocks.
    const numbered = [...this.versions.entries()]
      .map(([site, versions]) => ({ site, place: placeOf(site, versions[0]) }))
      .sort((a, b) => a.place - b.place)
      .map(({ site }) => site);
    const numberOf = new Map(numbered.map((site, i) => [site, i]));
    const rows = [...this.versions.entries()]
      .flatMap(([site, versions]) => versions.map((version) => ({ site: numberOf.get(site)!, listed: placeOf(site, version), version })))
      .sort((a, b) => a.listed - b.listed || a.version.from - b.version.from);
    inTransaction(this.db, () => {
      this.each(`INSERT INTO ${WEEKS_TABLE} VALUES (?, ?, ?, ?)`, this.weeks, (w, week) => [week, w.date, this.counts.get(week)!, w.partial ?? null]);
      this.each(
        `INSERT INTO ${ROWS_TABLE} VALUES (${[...COLUMN_FIELDS, 'site', 'listed', 'from', 'to'].map(() => '?').join(', ')})`,
        rows,
        ({ site, listed: place, version }) => [...version.values, site, place, version.from, version.to],
      );
      const blocks: SiteWeeks[][] = [];
      numbered.forEach((site, i) => (blocks[Math.floor(i / BLOCK_SITES)] ??= []).push(sites.get(site)!));
      this.each(`INSERT INTO ${BLOCKS_TABLE} VALUES (?, ?, ?)`, blocks, (block, i) => [i, ...this.compressed(JSON.stringify(block))]);
      this.db.run(`INSERT INTO ${ITEMS_TABLE} VALUES (?, ?)`, this.compressed(items.join('\n')));
      this.db.run(
        `INSERT INTO ${FACTS_TABLE}
         SELECT w.week, r.target_url_agency_owner, r.target_url_bureau_owner, r.${OUTCOME_COLUMN}, COUNT(*), ${MEASURES.map((m) => `COALESCE(SUM(${MEASURE_SQL[m]}), 0)`).join(', ')}
           FROM ${ROWS_TABLE} r JOIN ${WEEKS_TABLE} w ON w.week >= r.valid_from AND w.week < r.valid_to
          GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      );
      indexWeeks(this.db);
    });
    this.db.run('ANALYZE');
  }

  private compressed(text: string): [number, Uint8Array] {
    const raw = utf8.encode(text);
    return [raw.length, this.encode(raw)];
  }

  /** Runs one statement per item. */
  private each<T>(sql: string, items: readonly T[], params: (item: T, i: number) => SqlValue[]): void {
    const statement = this.db.prepare(sql);
    try {
      items.forEach((item, i) => statement.run(params(item, i)));
    } finally {
      statement.free();
    }
  }
}
