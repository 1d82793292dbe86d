/**
 * The prepared columns prepared beside a database (decision 0405): an index bound from the prepared bytes answers
 * every request of the bench workload and of a fuzz sample exactly as an index bound from the records, over
 * a generated database and an awkward one; bytes that do not fit (another format, other records, cut short)
 * are not used, and the engine binds from the records instead.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { Database } from 'sql.js';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { emptyDatabase, generatedDatabase } from '../../../harness/engine.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { insertCeilingRates } from '../../../engine/ceilingrates/schema.ts';
import { insertHostileRecords } from '../../../tools/generate/hostile.ts';
import { KNOWN } from './known-records.ts';
import { RECORD_ORDER_FIELDS } from '../../../harness/fuzz/requests.ts';
import { workload } from '../../../bench/ceilingrates/workload.ts';
import { ceilingPathArb, queryArb } from '../../../harness/fuzz/requests.ts';
import { ceilingRatesIndex } from '../../../engine/ceilingrates/ceiling-rates-index.ts';
import { PREPARED_KIND, PREPARED_SHAPE, PREPARED_VERSION, readPrepared } from '../../../engine/ceilingrates/columns/prepared.ts';
import { pack, PackMismatch, unpack } from '../../../engine/typed-pack.ts';

afterEach(() => vi.restoreAllMocks());

/** The same file opened again: a new Database object, so nothing bound to the first is shared. */
async function reopened(db: Database): Promise<Database> {
  const SQL = await loadSqlJs();
  return new SQL.Database(db.export());
}

/** An engine bound from the records, and the bytes it offered to keep. */
function boundFromRecords(db: Database): { engine: Engine; prepared: Uint8Array } {
  let prepared: Uint8Array | null = null;
  const engine = createEngine({ preparedReady: (_dataset, _db, offered) => (prepared = offered()) });
  engine.use('ceilingrates', db);
  engine.prepare('ceilingrates');
  if (!prepared) throw new Error('the bind offered nothing to keep');
  return { engine, prepared };
}

/** An engine given prepared bytes, and whether it bound from the records after all. */
function boundFromPrepared(db: Database, prepared: Uint8Array): { engine: Engine; rebound: () => boolean } {
  let rebound = false;
  const engine = createEngine({ preparedReady: () => (rebound = true) });
  engine.use('ceilingrates', db, prepared);
  engine.prepare('ceilingrates');
  return { engine, rebound: () => rebound };
}

/** Values that exist in the data, as the bench takes them. */
function known(db: Database): { vendor: string; piid: string } {
  const row = db.exec('SELECT vendor_name, idv_piid FROM ceilingrates ORDER BY id LIMIT 1 OFFSET 7')[0].values[0] as string[];
  return { vendor: row[0], piid: row[1] };
}

/** The bench workload, every request once more with a later page, and a fixed fuzz sample. */
function requests(db: Database): string[] {
  const bench = workload(known(db)).flatMap(({ url }) => [url, `${url}&page=2`]);
  const fuzz = fc.sample(
    fc
      .tuple(ceilingPathArb(), fc.constantFrom('', 'filter=price_range:100,101&'), queryArb('ceiling'))
      .map(([path, narrow, query]) => `${path}?${narrow}${query}`),
    { seed: 4051, numRuns: 1500 },
  );
  return [
    ...bench,
    ...fuzz,
    ...RECORD_ORDER_FIELDS.flatMap((field) => [
      `/api/v3/search/ceilingrates/?ordering=${field}&sort=desc&page_size=50`,
      `/api/v3/search/ceilingrates/?ordering=${field}&export=y`,
    ]),
  ];
}

function answer(engine: Engine, url: string): { status: number; headers: Record<string, string>; body: string } {
  const { status, headers, body } = engine.handle({ method: 'GET', url });
  return { status, headers, body: body.replace(/^\{"took":\d+,/, '{"took":0,') };
}

function expectSameAnswers(fresh: Engine, prepared: Engine, urls: readonly string[]): void {
  for (const url of urls) expect(answer(prepared, url), url).toEqual(answer(fresh, url));
}

/** Records built to differ between reading paths if any were careless (as in columns.test.ts), without the column table. */
async function awkwardDatabase(): Promise<Database> {
  const db = await emptyDatabase('ceilingrates');
  insertCeilingRates(db, KNOWN);
  insertHostileRecords(db, 'ceilingrates');
  const texts = ['ä', 'z', '\u{1F600} emoji', '\uFFFD', 'A', 'a', ' a', '"quoted" \\ back', 'tab\there', 'line\nbreak', '\u0001ctl', 'cut\u0000here'];
  insertCeilingRates(
    db,
    texts.map((text, i) => ({
      ...KNOWN[0],
      id: 5_000_000 - i * 7,
      vendor_name: text,
      labor_category: texts[(i + 3) % texts.length],
      security_clearance: i % 3 === 0 ? null : text,
      current_price: [0.1 + 0.2, -0, 1e300 / 7, 27.004, 27.001, 1 / 3, 123456789.12345679, 15, 0, 5e-324, 99.995, 100.005][i],
      next_year_price: i % 2 ? null : 2 ** 53 + 2,
      min_years_experience: [0, 3, 45, 2.5, -1, 1e21, 7, 7, 0, 3, 12, 30][i],
    })),
  );
  db.run(`UPDATE ceilingrates SET second_year_price = 'n/a' WHERE id = ?`, [5_000_000]);
  return db;
}

describe('prepared columns prepared beside the database', () => {
  it.each([
    ['generated records', () => generatedDatabase('ceilingrates')],
    ['awkward records: unicode order, NUL, -0, 5e-324, text in a numeric column, no column table', awkwardDatabase],
  ])('answer every request of the workload and a fuzz sample as a bind from the records does (%s)', async (_, database) => {
    const db = await database();
    const fresh = boundFromRecords(db);
    const again = boundFromPrepared(await reopened(db), fresh.prepared);
    expect(again.rebound()).toBe(false);
    expectSameAnswers(fresh.engine, again.engine, requests(db));
  });

  it('of a database with no records are read back, and answer as a bind from the records does', async () => {
    const db = await emptyDatabase('ceilingrates');
    const fresh = boundFromRecords(db);
    const again = boundFromPrepared(await reopened(db), fresh.prepared);
    expect(again.rebound()).toBe(false);
    const base = '/api/v3/search/ceilingrates/';
    expectSameAnswers(fresh.engine, again.engine, [base, `${base}?keyword=engineer`, `${base}?suggest-contains=labor_category:eng`]);
  });

  it('hold the same store, combinations, order columns and aggregation tables, the arrays mapped on the prepared bytes', async () => {
    const db = await awkwardDatabase();
    const index = ceilingRatesIndex(db);
    const bytes = index.preparedBytes();
    const read = readPrepared(bytes, await reopened(db));
    expect(read.store).toEqual(index.store);
    // Object.is per element: NaN equals NaN, and -0 is not 0.
    for (const [field, column] of Object.entries(read.store.numbers)) {
      const freshColumn = index.store.numbers[field as keyof typeof index.store.numbers];
      expect(
        column.every((v, r) => Object.is(v, freshColumn[r])),
        field,
      ).toBe(true);
    }
    expect(read.store.ids.buffer).toBe(bytes.buffer);
    const { dicts, ...combos } = read.combos;
    const { dicts: freshDicts, ...freshCombos } = index.combos;
    expect(combos).toEqual(freshCombos);
    expect(dicts).toEqual(freshDicts);
    for (const field of ['current_price', 'min_years_experience', 'labor_category', 'vendor_name', 'idv_piid', 'next_year_price'] as const) {
      const { sortValue, ...column } = read.orders.get(field);
      const { sortValue: freshSortValue, ...freshColumn } = index.orders.get(field);
      expect(column, field).toEqual(freshColumn);
      for (let row = 0; row < read.store.size; row++) expect(sortValue(row), `${field} ${row}`).toEqual(freshSortValue(row));
    }
    expect(read.aggregator).toEqual(index.ratesTables.aggregator.rows());
    expect(read.aggregator!.packed.buffer).toBe(bytes.buffer);
  });

  it('of other records, another version or cut short are not used: the engine binds from the records and offers new bytes', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const db = await generatedDatabase('ceilingrates', 400);
    const other = boundFromRecords(await generatedDatabase('ceilingrates', 300)).prepared;
    const prepared = boundFromRecords(db).prepared;
    const olderVersion = pack(unpack(prepared, { kind: PREPARED_KIND, version: PREPARED_VERSION, shape: PREPARED_SHAPE }), {
      kind: PREPARED_KIND,
      version: PREPARED_VERSION - 1,
    });
    for (const bytes of [other, olderVersion, prepared.subarray(0, prepared.byteLength - 1024), new Uint8Array(prepared.byteLength)]) {
      const again = boundFromPrepared(await reopened(db), bytes);
      expect(again.rebound()).toBe(true);
      expectSameAnswers(boundFromRecords(db).engine, again.engine, [
        '/api/v3/search/ceilingrates/?page_size=5',
        '/api/v3/search/ceilingrates/?suggest=vendor_name:a',
      ]);
    }
    expect(warn).toHaveBeenCalledTimes(4);
    expect(() => readPrepared(other, db)).toThrow(PackMismatch);
  });
});
