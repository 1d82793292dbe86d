/**
 * Binding reads the columns the fast way (the build's column table, or one JSON scan); whichever way it takes,
 * the store must be exactly the one stepping every row builds (decision 0205).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Database } from 'sql.js';
import { call, emptyDatabase, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import { insertCeilingRates, writeCeilingRatesColumns } from '../../../engine/ceilingrates/schema.ts';
import { insertHostileRecords } from '../../../tools/generate/hostile.ts';
import { loadColumns, readColumnsByRow } from '../../../engine/ceilingrates/columns/load.ts';
import { COLUMNS_TABLE, readColumnTable } from '../../../engine/ceilingrates/columns/table.ts';
import { NUMERIC_FIELDS, TEXT_FIELDS, type ColumnStore } from '../../../engine/ceilingrates/columns/store.ts';
import { DictionaryBuilder, type Dictionary } from '../../../engine/ceilingrates/columns/dictionary.ts';
import { keyDictionary, rankNumbers } from '../../../engine/ceilingrates/columns/number-ranks.ts';
import { KNOWN } from './known-records.ts';
import { priceKey } from '../../../engine/ceilingrates/text.ts';

function expectDictionary(actual: Dictionary, expected: Dictionary, what: string): void {
  expect(actual.codes.constructor.name, what).toBe(expected.codes.constructor.name);
  expect(actual.values, what).toEqual(expected.values);
  expect(Array.from(actual.codes), what).toEqual(Array.from(expected.codes));
  expect(Array.from(actual.rank), what).toEqual(Array.from(expected.rank));
  expect(Array.from(actual.byRank), what).toEqual(Array.from(expected.byRank));
}

function expectSameStore(actual: ColumnStore, expected: ColumnStore): void {
  expect(actual.size).toBe(expected.size);
  // Object.is per element: NaN equals NaN, and -0 is not 0.
  const same = (a: Float64Array, b: Float64Array): boolean => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
  expect(same(actual.ids, expected.ids)).toBe(true);
  for (const f of NUMERIC_FIELDS) expect(same(actual.numbers[f], expected.numbers[f]), f).toBe(true);
  for (const f of TEXT_FIELDS) expectDictionary(actual.text[f], expected.text[f], f);
  expectDictionary(actual.experienceKeys, expected.experienceKeys, 'experience keys');
  expectDictionary(actual.priceKeys, expected.priceKeys, 'price keys');
}

/** Records built to differ between reading paths if any path were careless. */
async function awkwardDatabase(): Promise<Database> {
  const db = await emptyDatabase('ceilingrates');
  insertCeilingRates(db, KNOWN);
  insertHostileRecords(db, 'ceilingrates');
  const base = KNOWN[0];
  const texts = ['ä', 'z', '\u{1F600} emoji', '\uFFFD', '\uE000 private', 'A', 'a', ' a', 'a ', '"quoted" \\ back', 'tab\there', 'line\nbreak', '\u0001ctl'];
  insertCeilingRates(
    db,
    texts.map((text, i) => ({
      ...base,
      id: 5_000_000 - i * 7, // inserted in descending id order
      vendor_name: text,
      labor_category: texts[(i + 3) % texts.length],
      security_clearance: i % 3 === 0 ? null : text,
      current_price: [0.1 + 0.2, -0, 1e300 / 7, 27.004, 27.001, 1 / 3, 123456789.12345679, 15, 0, 5e-324, 99.995, 100.005, 42][i],
      next_year_price: i % 2 ? null : 2 ** 53 + 2,
      min_years_experience: [0, 3, 45, 2.5, -1, 1e21, 7, 7, 0, 3, 12, 30, 1][i],
    })),
  );
  // Values the typed schema lets through: text in a numeric column, an empty string, and huge integers.
  db.run(`UPDATE ceilingrates SET second_year_price = 'n/a' WHERE id = ?`, [5_000_000]);
  db.run(`UPDATE ceilingrates SET second_year_price = '' WHERE id = ?`, [5_000_000 - 7]);
  db.run(`UPDATE ceilingrates SET min_years_experience = 9007199254740993 WHERE id = ?`, [5_000_000 - 14]);
  return db;
}

describe('ceiling-rates columns', () => {
  it('binds from the column table of a generated database, to the same store as stepping every row', async () => {
    const db = await generatedDatabase('ceilingrates');
    expect(readColumnTable(db)).not.toBeNull();
    expectSameStore(loadColumns(db), readColumnsByRow(db));
  });

  it('reads a database without the table (an import) by one scan, to the same store', async () => {
    const db = await awkwardDatabase();
    expect(readColumnTable(db)).toBeNull();
    expectSameStore(loadColumns(db), readColumnsByRow(db));
  });

  it('writes and trusts a table over awkward records (unicode order, null, control characters)', async () => {
    const db = await awkwardDatabase();
    writeCeilingRatesColumns(db);
    expect(readColumnTable(db)).not.toBeNull();
    expectSameStore(loadColumns(db), readColumnsByRow(db));
  });

  it('ignores a table that no longer describes the records', async () => {
    const db = await generatedDatabase('ceilingrates', 500);
    db.run(`UPDATE ceilingrates SET vendor_name = vendor_name || ' (renamed)' WHERE id = (SELECT MIN(id) FROM ceilingrates)`);
    const fresh = readColumnsByRow(db);
    expect(fresh.text.vendor_name.values.some((v) => v?.endsWith(' (renamed)'))).toBe(true);
    expectSameStore(loadColumns(db), fresh);

    const more = await generatedDatabase('ceilingrates', 500);
    insertCeilingRates(more, [{ ...KNOWN[0], id: 10_000_000 }]);
    expectSameStore(loadColumns(more), readColumnsByRow(more));
  });

  it('ignores a table of another shape or cut short', async () => {
    const db = await generatedDatabase('ceilingrates', 300);
    db.run(`UPDATE ${COLUMNS_TABLE} SET ranks = substr(ranks, 1, 10) WHERE field = 'labor_category'`);
    expect(readColumnTable(db)).toBeNull();
    expectSameStore(loadColumns(db), readColumnsByRow(db));
  });

  it('keeps a NUL inside a value, and steps the rows when a value is a BLOB (JSON cannot carry it)', async () => {
    const db = await emptyDatabase('ceilingrates');
    insertCeilingRates(db, KNOWN);
    db.run(`UPDATE ceilingrates SET vendor_name = 'cut' || char(0) || 'here' WHERE id = ?`, [KNOWN[0].id]);
    db.run(`UPDATE ceilingrates SET category = x'0102' WHERE id = ?`, [KNOWN[1].id]);
    const stepped = readColumnsByRow(db);
    expect(stepped.text.vendor_name.values).toContain('cut\u0000here');
    expectSameStore(loadColumns(db), stepped);
  });

  it('reads the rows in id order even where an index could be scanned instead of the table', async () => {
    const db = await generatedDatabase('ceilingrates', 400);
    db.run('CREATE INDEX by_price ON ceilingrates (current_price, min_years_experience)');
    db.run('CREATE INDEX by_vendor ON ceilingrates (vendor_name)');
    expectSameStore(loadColumns(db), readColumnsByRow(db));
    db.run(`DROP TABLE ${COLUMNS_TABLE}`);
    expectSameStore(loadColumns(db), readColumnsByRow(db));
  });

  it('ranks numbers as a sort of every value does: ties share a rank, -0 is 0, null after all', () => {
    /** The definition: sort the present values, keep the distinct ones (===), and look each record up. */
    const reference = (values: Float64Array): { distinct: number[]; rank: number[] } => {
      const present = values.filter((v) => v === v).sort();
      const distinct: number[] = [];
      for (let i = 0; i < present.length; i++) if (i === 0 || present[i] !== present[i - 1]) distinct.push(present[i]);
      const rankOf = new Map<number, number>();
      distinct.forEach((v, i) => rankOf.set(v, i));
      return { distinct, rank: Array.from(values, (v) => (v === v ? rankOf.get(v)! : distinct.length)) };
    };
    const number = fc.oneof(fc.double(), fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 5e-324, 27.5, 100, 99.99), fc.integer({ min: -3, max: 3 }));
    fc.assert(
      fc.property(fc.array(number, { maxLength: 300 }), (list) => {
        const values = Float64Array.from(list);
        const actual = rankNumbers(values);
        const expected = reference(values);
        expect(Array.from(actual.rank)).toEqual(expected.rank);
        expect(actual.distinct.length).toBe(expected.distinct.length);
        expect(Array.from(actual.distinct).every((v, i) => Object.is(v, expected.distinct[i]))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('keys numbers (price "27.00", experience "3") as a dictionary of every record\'s key would, in the keys\' byte order', () => {
    const reference = (values: Float64Array, key: (v: number) => string): Dictionary => {
      const builder = new DictionaryBuilder(values.length);
      values.forEach((v, r) => builder.add(r, v === v ? key(v) : null));
      // The keys are ASCII, where UTF-16 order is byte order.
      return builder.build((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    };
    const number = fc.oneof(
      fc.double({ min: -1e6, max: 1e25 }),
      fc.constantFrom(0, -0, NaN, -0.001, -0.004, 0.004, 27.001, 27.004, 27.005, 1.005, 99.995, 1e21, Infinity, -Infinity),
      fc.integer({ min: 0, max: 50 }),
    );
    fc.assert(
      fc.property(fc.array(number, { maxLength: 200 }), (list) => {
        const values = Float64Array.from(list);
        for (const key of [priceKey, (v: number) => String(v)]) {
          expectDictionary(keyDictionary(rankNumbers(values), key), reference(values, key), 'keys');
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('a database changed after its column table was written', () => {
  it('answers from the records as they are now: an insert drops the stale table', async () => {
    const db = await generatedDatabase('ceilingrates', 300);
    const [[before]] = db.exec(`SELECT COUNT(*) FROM ${COLUMNS_TABLE}`)[0].values;
    expect(before).toBeGreaterThan(0);
    const [row] = db.exec('SELECT * FROM ceilingrates WHERE id = 150')[0].values;
    const columns = db.exec('SELECT * FROM ceilingrates WHERE id = 150')[0].columns;
    const record = Object.fromEntries(columns.map((c, i) => [c, row[i]])) as Record<string, unknown>;
    db.run('DELETE FROM ceilingrates WHERE id = 150');
    insertCeilingRates(db, [{ ...record, vendor_name: 'Renamed Vendor After Build', labor_category: 'Renamed Category' } as never]);

    const engine = engineOver('ceilingrates', db);
    const found = call(engine, '/api/v3/search/ceilingrates/?search=vendor_name:Renamed+Vendor+After+Build');
    expect(found.body.hits.total.value).toBe(1);
    expect(found.body.aggregations.labor_category.buckets).toEqual([{ key: 'Renamed Category', doc_count: 1 }]);
  });
});
