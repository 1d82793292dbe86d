/**
 * The weeks' tables, written (weeks-writer.ts) and read (weeks.ts), over a small copy of three real weeks (the
 * newest's first 400 sites and 50 that come or go, in each of the newest three shipped weeks): each week as
 * stored is the import of that week's records row for row, with nothing rebuilt; a site's weeks are each week's
 * import's; a part of the tables damaged is an error that names it, and the engine keeps answering what does
 * not read it; a copy kept in an older form is refused, never misread.
 */
import { brotliCompressSync, constants } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database, SqlJsStatic } from 'sql.js';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { nodeBrotli } from '../../../adapters/node/datasets/brotli-sync.ts';
import { createEngine } from '../../../engine/index.ts';
import { recordFromStored } from '../../../engine/site-scanning/stored-record.ts';
import { CORE_FIELDS, WeeksStore } from '../../../engine/site-scanning/weeks.ts';
import { WeeksWriter } from '../../../engine/site-scanning/weeks-writer.ts';
import { BLOCK_SITES } from '../../../engine/site-scanning/weeks-schema.ts';
import type { SourceRecord } from '../../../tools/site-scanning-source/week-changes.ts';
import { mappedWeek } from '../../../tools/site-scanning-source/weeks-dataset.ts';
import { everyWeek, weekDatabase } from '../../../tools/site-scanning-source/shipped-weeks.ts';

const SITES = 400;

let SQL: SqlJsStatic;
let weeksDb: Database;
/** Newest first: each week's date and its records by path (file order). */
const held: { date: string; records: Map<string, SourceRecord> }[] = [];
const imported = new Map<string, Database>();

const brotli = (raw: Uint8Array): Uint8Array => new Uint8Array(brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));

beforeAll(async () => {
  SQL = await loadSqlJs();
  const full: { date: string; records: Map<string, SourceRecord> }[] = [];
  for (const { week, records } of everyWeek()) {
    full.push({ date: week.date, records });
    if (full.length === 3) break;
  }
  // The newest's first sites, and the first of those some week lists and another does not.
  const comings = [...new Set(full.flatMap((w) => [...w.records.keys()]))].filter((path) => !full.every((w) => w.records.has(path)));
  const paths = new Set([...full[0].records.keys()].slice(0, SITES).concat(comings.slice(0, 50)));
  for (const { date, records } of full) held.push({ date, records: new Map([...records].filter(([path]) => paths.has(path))) });
  weeksDb = new SQL.Database();
  const writer = new WeeksWriter(
    weeksDb,
    [...held].reverse().map(({ date }, i) => ({ date, partial: i === 0 ? 'a test’s first week' : null })),
    brotli,
  );
  for (const { date, records } of held) writer.add(date, mappedWeek(date, records.values()), [...records.keys()]);
  writer.finish();
  for (const { date, records } of held) imported.set(date, (await weekDatabase(SQL, date, { records: [...records.values()] })).db);
}, 300_000);

afterAll(() => {
  weeksDb.close();
  for (const db of imported.values()) db.close();
});

const records = (db: Database) => db.exec('SELECT record FROM websites ORDER BY sort_key')[0].values.map(([r]) => String(r));

function storedWeek(store: WeeksStore, date: string): string[] {
  const reader = store.reader(store.week(date)!);
  const positions = reader.select({});
  return reader.page(positions, 0, positions.length);
}

/** A copy of the weeks' tables with one statement run on it. */
function damaged(sql: string, params: (string | number | null)[]): Database {
  const copy = new SQL.Database(weeksDb.export());
  copy.run(sql, params);
  return copy;
}

describe('a week as stored', () => {
  it('is the import of that week’s records, record for record, each week, with the weeks numbered oldest first', () => {
    const store = new WeeksStore(weeksDb, nodeBrotli);
    expect(store.held.map((w) => [w.week, w.date, w.count, w.partial])).toEqual(
      [...held].reverse().map(({ date, records: r }, i) => [i, date, r.size, i === 0 ? 'a test’s first week' : null]),
    );
    // The copy holds weeks that differ.
    expect(records(imported.get(held[0].date)!)).not.toEqual(records(imported.get(held[2].date)!));
    for (const { date } of held) expect(storedWeek(store, date), date).toEqual(records(imported.get(date)!));
    expect(store.handlers('2025-03-10')).toBeNull();
  });

  it('stores a version of a site’s columns once for the weeks in a row it holds for', () => {
    const versions = Number(weeksDb.exec('SELECT COUNT(*) FROM website_week_rows')[0].values[0][0]);
    const listed = held.reduce((n, w) => n + w.records.size, 0);
    expect(versions).toBeLessThan(listed);
    expect(versions).toBeGreaterThanOrEqual(held[0].records.size);
    // Every week's sites are its versions that hold for it.
    for (const [i, { records: r }] of [...held].reverse().entries()) {
      expect(Number(weeksDb.exec('SELECT COUNT(*) FROM website_week_rows WHERE valid_from <= ?1 AND valid_to > ?1', [i])[0].values[0][0])).toBe(r.size);
    }
  });

  it('gives each site’s core fields per week as each week’s import holds them, absent where it lists none', () => {
    const store = new WeeksStore(weeksDb, nodeBrotli);
    // Each week's core fields of each site, from its import: target URL → values (URLs listed twice left out).
    const byWeek = new Map<string, Map<string, Record<string, unknown> | null>>();
    for (const [date, db] of imported) {
      const sites = new Map<string, Record<string, unknown> | null>();
      for (const [url, stored] of db.exec('SELECT target_url, record FROM websites')[0].values) {
        const record = recordFromStored(String(stored));
        sites.set(String(url), sites.has(String(url)) ? null : Object.fromEntries(CORE_FIELDS.map((name) => [name, record[name] ?? null])));
      }
      byWeek.set(date, sites);
    }
    const urls = new Set([...byWeek.values()].flatMap((sites) => [...sites.keys()]));
    let compared = 0;
    let absent = 0;
    for (const url of urls) {
      if ([...byWeek.values()].some((sites) => sites.has(url) && sites.get(url) === null)) continue;
      const timeline = store.timeline(url)!;
      expect(timeline.map((w) => w.date)).toEqual([...held].reverse().map((w) => w.date));
      for (const week of timeline) {
        const want = byWeek.get(week.date)!.get(url);
        if (want === undefined) absent++;
        expect(week, `${url} in ${week.date}`).toMatchObject(want === undefined ? { state: 'absent', values: {} } : { state: 'present', values: want });
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(SITES - 10);
    expect(absent).toBeGreaterThan(0);
  });
});

describe('damaged tables', () => {
  it('name the block that cannot be read; the answers that do not read it stay right', () => {
    const [newest] = held.map((w) => w.date);
    const db = damaged("UPDATE website_week_blocks SET bytes = X'0badc0de' WHERE block = 0", []);
    const store = new WeeksStore(db, nodeBrotli);
    const engine = createEngine();
    engine.use('websites', imported.get(newest)!, null, newest);
    engine.attach('websites', store);
    const reference = createEngine();
    const middle = held[1].date;
    reference.use('websites', imported.get(middle)!, null, middle);
    const get = (e: ReturnType<typeof createEngine>, url: string) => e.handle({ method: 'GET', url });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // The first page's records are in the first block: the API's 500, the error naming it.
      const answer = get(engine, `/snapshots/${middle}/websites?limit=${BLOCK_SITES}`);
      expect(answer.status).toBe(500);
      expect(JSON.parse(String(answer.body))).toMatchObject({ statusCode: 500 });
      expect(String(errors.mock.calls.flat().find((e) => e instanceof Error))).toContain('the weeks dataset is damaged: block 0 cannot be read');
    } finally {
      errors.mockRestore();
    }
    // What reads no record of that block answers as before, and so does the active dataset.
    for (const path of ['/analysis', `/websites?limit=10&page=3`]) {
      expect(get(engine, `/snapshots/${middle}${path}`).body, path).toEqual(get(reference, `/snapshots/${middle}${path}`).body);
    }
    expect(get(engine, '/websites?limit=5').status).toBe(200);
    expect(JSON.parse(String(get(engine, '/snapshots').body)).snapshots.map((w: { date: string }) => w.date)).toEqual([...held].reverse().map((w) => w.date));
    db.close();
  });

  it('name the item list that cannot be read', () => {
    const db = damaged("UPDATE website_week_items SET bytes = X'00'", []);
    const store = new WeeksStore(db, nodeBrotli);
    // A record with third-party URLs reads the item list.
    const site = [...held[0].records.values()].findIndex((r) => Array.isArray(r.third_party_service_urls) && r.third_party_service_urls.length > 0);
    expect(site).toBeGreaterThanOrEqual(0);
    expect(() => storedWeek(store, held[0].date)).toThrow('the weeks dataset is damaged: the item list cannot be read');
    db.close();
  });

  it('refuse a copy kept in an older form, saying to load it again', () => {
    const first = damaged('DROP TABLE website_week_format', []);
    expect(() => new WeeksStore(first, nodeBrotli)).toThrow('the weeks dataset kept here is in an older form (1, not 4): delete it and load it again');
    first.close();
    // The third form: the chain with whole weeks every 4th.
    const third = damaged('UPDATE website_week_format SET version = 3', []);
    expect(() => new WeeksStore(third, nodeBrotli)).toThrow('the weeks dataset kept here is in an older form (3, not 4): delete it and load it again');
    third.close();
  });
});
