/**
 * The weeks dataset's chain reader (engine/site-scanning/weeks.ts, dataset/websites/week-source.ts) over a small
 * copy of three real weeks (the newest's first 400 sites and 50 that come or go, in each of the newest three shipped weeks, their changes
 * written as data/ writes them, the middle week also kept whole as the build keeps a checkpoint): each week rebuilt at
 * run time is the import of that week's records row for row; a chain file or checkpoint damaged or missing is an
 * error that names it, and the engine keeps answering the other weeks and the
 * active dataset; a copy kept in the older form is refused, never misread.
 */
import { brotliCompressSync, constants } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database, SqlJsStatic } from 'sql.js';
import { loadSqlJs } from '../../../adapters/node/sqljs-node.ts';
import { nodeBrotli } from '../../../adapters/node/brotli-sync.ts';
import { createEngine } from '../../../engine/index.ts';
import { diffWeek, type SourceRecord } from '../../../engine/site-scanning/week-changes.ts';
import { HISTORY_FIELDS } from '../../../engine/site-scanning/history.ts';
import { recordFromStored } from '../../../engine/site-scanning/stored-record.ts';
import { siteWeeks, sortKeyPaths, weekList, WeeksWriter, type ChainFile } from '../../../engine/site-scanning/weeks.ts';
import { importIntoDatabase } from '../../../dataset/import/index.ts';
import { mappedWeek, weekDatabase, weekSource } from '../../../dataset/websites/week-source.ts';
import { everyWeek } from '../../../tools/real-data.ts';

const SITES = 400;

let SQL: SqlJsStatic;
let weeks: Database;
/** Newest first: each week's date and its records by path (file order). */
const held: { date: string; records: Map<string, SourceRecord> }[] = [];
const imported = new Map<string, Database>();

const brotli = (value: unknown): ChainFile => {
  const raw = new TextEncoder().encode(JSON.stringify(value));
  return { bytes: new Uint8Array(brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })), rawBytes: raw.length };
};

async function importOf(date: string, records: Map<string, SourceRecord>): Promise<Database> {
  const bytes = new TextEncoder().encode(JSON.stringify([...records.values()]));
  const { db, report } = await importIntoDatabase(SQL, bytes, { name: `site-scanning-${date}.json`, format: 'websites-json', snapshotDate: date });
  expect(report.rowsRejected).toBe(0);
  return db;
}

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
  const [newest] = held;
  weeks = await importOf(newest.date, newest.records);
  const writer = new WeeksWriter(weeks, sortKeyPaths(weeks, [...newest.records.keys()]));
  held.forEach(({ date, records }, i) => {
    const chain = i === 0 ? brotli([...records.values()]) : brotli(diffWeek(date, held[i - 1].records, records));
    writer.add(date, mappedWeek(date, records.values()), [...records.keys()], chain);
    if (i === 1) writer.checkpoint(date, brotli([...records.values()]));
  });
  for (const { date, records } of held) imported.set(date, await importOf(date, records));
}, 300_000);

afterAll(() => {
  weeks.close();
  for (const db of imported.values()) db.close();
});

const rows = (db: Database) => db.exec('SELECT sort_key, target_url, record FROM websites ORDER BY sort_key')[0].values;

/** A copy of the weeks database with one statement run on it. */
function damaged(sql: string, params: (string | null)[]): Database {
  const copy = new SQL.Database(weeks.export());
  copy.run(sql, params);
  return copy;
}

describe('a week rebuilt from the chain', () => {
  it('is the import of that week’s records, row for row, each week', () => {
    expect(weekList(weeks).map((w) => w.date)).toEqual(held.map((w) => w.date).reverse());
    // The copy holds weeks that differ.
    expect(rows(imported.get(held[0].date)!)).not.toEqual(rows(imported.get(held[2].date)!));
    for (const { date, records } of held) {
      const week = weekDatabase(SQL, weeks, date, nodeBrotli)!;
      expect(rows(week), date).toEqual(rows(imported.get(date)!));
      expect(rows(week).length).toBe(records.size);
      week.close();
    }
    expect(weekDatabase(SQL, weeks, '2025-03-10', nodeBrotli)).toBeNull();
  });

  it('gives each site’s core fields per week as each week’s import holds them, absent where it lists none', () => {
    // Each week's core fields of each site, from its import: target URL → values (URLs listed twice left out).
    const byWeek = new Map<string, Map<string, Record<string, unknown> | null>>();
    for (const [date, db] of imported) {
      const sites = new Map<string, Record<string, unknown> | null>();
      for (const [url, stored] of db.exec('SELECT target_url, record FROM websites')[0].values) {
        const record = recordFromStored(String(stored));
        sites.set(String(url), sites.has(String(url)) ? null : Object.fromEntries(HISTORY_FIELDS.map((name) => [name, record[name] ?? null])));
      }
      byWeek.set(date, sites);
    }
    const urls = new Set([...byWeek.values()].flatMap((sites) => [...sites.keys()]));
    let compared = 0;
    let absent = 0;
    for (const url of urls) {
      if ([...byWeek.values()].some((sites) => sites.has(url) && sites.get(url) === null)) continue;
      const timeline = siteWeeks(weeks, url)!;
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

describe('a damaged chain', () => {
  it('names the file that cannot be read; the weeks after it still rebuild', () => {
    const [newest, middle, oldest] = held.map((w) => w.date);
    const db = damaged("UPDATE website_week_chain SET bytes = X'0badc0de' WHERE date = ?", [oldest]);
    const source = weekSource(SQL, db, nodeBrotli);
    expect(() => source.open(oldest)).toThrow(`the weeks dataset is damaged: the changes of ${oldest} cannot be read`);
    for (const date of [middle, newest]) {
      const week = source.open(date)!;
      expect(rows(week)).toEqual(rows(imported.get(date)!));
      week.close();
    }
    db.close();
  });

  it('rebuilds the weeks at and before a checkpoint from it, without the newest week’s file', () => {
    const [newest, middle, oldest] = held.map((w) => w.date);
    const db = damaged("UPDATE website_week_chain SET bytes = X'0badc0de' WHERE date = ?", [newest]);
    for (const date of [middle, oldest]) {
      const week = weekDatabase(SQL, db, date, nodeBrotli)!;
      expect(rows(week), date).toEqual(rows(imported.get(date)!));
      week.close();
    }
    db.close();
  });

  it('names a damaged checkpoint: the weeks it rebuilds fail, the newest still rebuilds', () => {
    const [newest, middle, oldest] = held.map((w) => w.date);
    const db = damaged("UPDATE website_week_checkpoints SET bytes = X'0badc0de' WHERE date = ?", [middle]);
    const source = weekSource(SQL, db, nodeBrotli);
    for (const date of [middle, oldest])
      expect(() => source.open(date)).toThrow(`the weeks dataset is damaged: the records of ${middle} kept whole cannot be read`);
    const week = source.open(newest)!;
    expect(rows(week)).toEqual(rows(imported.get(newest)!));
    week.close();
    db.close();
  });

  it('names a file left out, rather than rebuilding a wrong week', () => {
    const [, middle, oldest] = held.map((w) => w.date);
    const db = damaged('DELETE FROM website_week_chain WHERE date = ?', [middle]);
    db.run('DELETE FROM website_week_checkpoints');
    expect(() => weekDatabase(SQL, db, oldest, nodeBrotli)).toThrow(`the changes of ${middle}, which those of ${oldest} follow, are missing`);
    expect(() => weekDatabase(SQL, db, middle, nodeBrotli)).toThrow(`the changes of ${middle} are missing`);
    db.close();
  });

  it('leaves the engine answering the other weeks and the active dataset', () => {
    const [newest, middle, oldest] = held.map((w) => w.date);
    const db = damaged("UPDATE website_week_checkpoints SET bytes = X'00' WHERE date = ?", [middle]);
    const engine = createEngine();
    engine.use('websites', imported.get(newest)!, null, newest);
    engine.useWeeks('websites', weekSource(SQL, db, nodeBrotli));
    const get = (url: string) => engine.handle({ method: 'GET', url });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const date of [middle, oldest]) {
        const answer = get(`/snapshots/${date}/analysis`);
        expect(answer.status).toBe(500);
        expect(JSON.parse(String(answer.body))).toMatchObject({ statusCode: 500 });
      }
      expect(String(errors.mock.calls.flat().find((e) => e instanceof Error))).toContain(`the records of ${middle} kept whole cannot be read`);
    } finally {
      errors.mockRestore();
    }
    const reference = createEngine();
    reference.use('websites', imported.get(newest)!, null, newest);
    expect(get('/analysis').body).toEqual(reference.handle({ method: 'GET', url: '/analysis' }).body);
    const dated = `/snapshots/${newest}/websites?limit=5`;
    expect(get(dated).body).toEqual(reference.handle({ method: 'GET', url: dated }).body);
    expect(JSON.parse(String(get('/snapshots').body)).snapshots.map((w: { date: string }) => w.date)).toEqual([oldest, middle, newest]);
    db.close();
  });

  it('refuses a copy kept in an older form, saying to load it again', () => {
    const first = damaged('DROP TABLE website_week_format', []);
    expect(() => weekSource(SQL, first, nodeBrotli)).toThrow('the weeks dataset kept here is in an older form (1, not 3): delete it and load it again');
    first.close();
    // The second form: the chain alone, no checkpoints.
    const second = damaged('UPDATE website_week_format SET version = 2', []);
    second.run('DROP TABLE website_week_checkpoints');
    expect(() => weekSource(SQL, second, nodeBrotli)).toThrow('the weeks dataset kept here is in an older form (2, not 3): delete it and load it again');
    second.close();
  });
});
