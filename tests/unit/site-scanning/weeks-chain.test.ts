/**
 * The weeks dataset's chain reader (engine/site-scanning/weeks.ts, dataset/websites/week-source.ts) over a small
 * copy of three real weeks (the same span of 400 sites' paths in each of the newest three shipped weeks, their changes
 * written as data/ writes them): each week rebuilt at run time is the import of that week's records row for row; a
 * chain file damaged or missing is an error that names it, and the engine keeps answering the other weeks and the
 * active dataset; a copy kept in the older form is refused, never misread.
 */
import { brotliCompressSync, constants } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database, SqlJsStatic } from 'sql.js';
import { loadSqlJs } from '../../../adapters/node/sqljs-node.ts';
import { nodeBrotli } from '../../../adapters/node/brotli-sync.ts';
import { createEngine } from '../../../engine/index.ts';
import { diffWeek, type SourceRecord } from '../../../engine/site-scanning/week-changes.ts';
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
  let last: string | null = null;
  for (const { week, records } of everyWeek()) {
    // The same span of paths every week: up to the newest's 400th, so the older weeks' own sites in it too.
    last ??= [...records.keys()][SITES - 1];
    held.push({ date: week.date, records: new Map([...records].filter(([path]) => path <= last!)) });
    if (held.length === 3) break;
  }
  const [newest] = held;
  weeks = await importOf(newest.date, newest.records);
  const writer = new WeeksWriter(weeks, sortKeyPaths(weeks, [...newest.records.keys()]));
  held.forEach(({ date, records }, i) => {
    const chain = i === 0 ? brotli([...records.values()]) : brotli(diffWeek(date, held[i - 1].records, records));
    writer.add(date, mappedWeek(date, records.values()), [...records.keys()], chain);
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

  it('gives each site’s core fields per week as each week’s import holds them', () => {
    const [newest, , oldest] = held;
    const url = String(imported.get(newest.date)!.exec('SELECT target_url FROM websites ORDER BY sort_key LIMIT 1')[0].values[0][0]);
    const timeline = siteWeeks(weeks, url)!;
    for (const row of timeline) {
      const db = imported.get(row.date)!;
      const found = db.exec('SELECT final_url_live, target_url_agency_owner FROM websites WHERE target_url = ? ORDER BY sort_key LIMIT 1', [url])[0];
      if (!found) {
        expect(row.state).toBe('absent');
        continue;
      }
      const [live, agency] = found.values[0];
      expect([row.values.final_url_live, row.values.target_url_agency_owner]).toEqual([live === null ? null : live === 1, agency]);
    }
    expect(timeline.map((r) => r.date)).toEqual([oldest.date, held[1].date, newest.date]);
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

  it('names a file left out, rather than rebuilding a wrong week', () => {
    const [, middle, oldest] = held.map((w) => w.date);
    const db = damaged('DELETE FROM website_week_chain WHERE date = ?', [middle]);
    expect(() => weekDatabase(SQL, db, oldest, nodeBrotli)).toThrow(`the changes of ${middle}, which those of ${oldest} follow, are missing`);
    expect(() => weekDatabase(SQL, db, middle, nodeBrotli)).toThrow(`the changes of ${middle} are missing`);
    db.close();
  });

  it('leaves the engine answering the other weeks and the active dataset', () => {
    const [newest, middle, oldest] = held.map((w) => w.date);
    const db = damaged("UPDATE website_week_chain SET bytes = X'00' WHERE date = ?", [middle]);
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
      expect(String(errors.mock.calls.flat().find((e) => e instanceof Error))).toContain(`the changes of ${middle} cannot be read`);
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

  it('refuses a copy kept in the older form, saying to load it again', () => {
    const db = damaged('DROP TABLE website_week_format', []);
    expect(() => weekSource(SQL, db, nodeBrotli)).toThrow('the weeks dataset kept here is in an older form (1, not 2): delete it and load it again');
    db.close();
  });
});
