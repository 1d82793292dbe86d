/**
 * The export written from the in-memory columns is byte for byte the export written the old way, from each
 * record's `_source` read out of SQLite and parsed: over generated data, the hostile records, a hostile file
 * imported, and hand-made records at the edges (formula starts, quotes, line breaks, null clearance and prices,
 * negative, huge and tiny numbers).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Papa from 'papaparse';
import type { Database } from 'sql.js';
import { call, emptyDatabase, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import { importedHostileRates } from '../../../harness/fuzz/imported.ts';
import { KNOWN } from './known-records.ts';
import { ceilingRatesIndex } from '../../../engine/ceilingrates/ceiling-rates-index.ts';
import { csvCell, EXPORT_FIELDS, exportHead } from '../../../engine/ceilingrates/export.ts';
import { exportAllCsv } from '../../../engine/ceilingrates/export-all.ts';
import { parseQuery, RESULT_WINDOW } from '../../../engine/ceilingrates/parse-query.ts';
import { topRows } from '../../../engine/ceilingrates/query/order.ts';
import { readSourceJson } from '../../../engine/ceilingrates/query/source.ts';
import { insertCeilingRates, writeCeilingRatesColumns } from '../../../engine/ceilingrates/schema.ts';
import { hasColumnTable } from '../../../engine/ceilingrates/columns/table.ts';
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import { insertHostileRecords } from '../../../tools/generate/hostile.ts';

const API = '/api/v3/search/ceilingrates/';

/** The rows of records by id, as the export wrote them before: `_source` JSON parsed, a cell per field. */
function oldRows(db: Database, ids: readonly number[]): string {
  const sources = readSourceJson(db, ids);
  return ids
    .map((id) => {
      const record = JSON.parse(sources.get(id)!) as CeilingRateRecord;
      return EXPORT_FIELDS.map((field) => csvCell(record[field])).join(',') + '\r\n';
    })
    .join('');
}

/** The export=y answer and the old way's text for the same query (the same rows in the same order). */
function bothWays(db: Database, query: string): { now: string; before: string } {
  const now = call(engineOver('ceilingrates', db), `${API}?${query}`).raw.body;
  const index = ceilingRatesIndex(db);
  const params = new URLSearchParams(query);
  const parsed = parseQuery(params);
  const match = index.match(parsed);
  const rows = topRows({ mask: match.mask, matches: match.rows ?? undefined, keys: index.orderKeys(parsed), limit: RESULT_WINDOW });
  return {
    now,
    before:
      exportHead(params) +
      oldRows(
        db,
        rows.map((r) => index.store.ids[r]),
      ),
  };
}

const EDGES: Partial<CeilingRateRecord>[] = [
  { vendor_name: '=HYPERLINK("http://x")', labor_category: '+1', idv_piid: '-2', sin: '@SUM(A1)', category: '|cmd', subcategory: '\tTab' },
  { vendor_name: '\rCR first', labor_category: 'say "hi", then\nleave', idv_piid: '"', sin: ',', schedule: '\r\n' },
  { security_clearance: null, next_year_price: null, second_year_price: null, education_level: '' },
  { current_price: -5, next_year_price: -0.000001, second_year_price: -0, min_years_experience: -1 },
  { current_price: 1e308, next_year_price: 1.7976931348623157e308, second_year_price: 5e-324, min_years_experience: 1e9 },
  { current_price: 0.1 + 0.2, next_year_price: 1e21, second_year_price: 123456789.125, worksite: "'quoted" },
  { contract_start: '=2020-01-01', contract_end: 'not a date, really', business_size: 'Ø 𝒳 \u{f8ff}' },
];

async function edgeDatabase(withColumnTable: boolean): Promise<Database> {
  const db = await emptyDatabase('ceilingrates');
  const records = [...KNOWN, ...EDGES.map((edge, i) => ({ ...KNOWN[i % KNOWN.length], ...edge, id: 1000 + i }))];
  insertCeilingRates(db, records);
  if (withColumnTable) writeCeilingRatesColumns(db);
  return db;
}

const QUERIES = [
  'export=y',
  'export=y&ordering=vendor_name&sort=desc',
  'export=y&ordering=next_year_price&sort=desc&ordering=labor_category',
  'export=y&keyword=an&filter=business_size:S',
  'export=y&ordering=second_year_price&sort=asc&ordering=idv_piid',
];

describe('export=y from the columns equals the export from _source', () => {
  it('hand-made edge records, with and without the column table', async () => {
    for (const withTable of [true, false]) {
      const db = await edgeDatabase(withTable);
      expect(hasColumnTable(db)).toBe(withTable);
      for (const query of QUERIES) {
        const { now, before } = bothWays(db, query);
        expect(now, `${query} (column table: ${withTable})`).toBe(before);
      }
    }
  });

  it('generated records and the hostile records', async () => {
    const db = await generatedDatabase('ceilingrates', 3000);
    insertHostileRecords(db, 'ceilingrates');
    expect(hasColumnTable(db)).toBe(true);
    for (const query of [...QUERIES, 'export=y&search=labor_category:engineer&ordering=min_years_experience']) {
      const { now, before } = bothWays(db, query);
      expect(now, query).toBe(before);
    }
  });

  it('a hostile file imported', async () => {
    const db = await importedHostileRates(1500);
    for (const query of QUERIES) {
      const { now, before } = bothWays(db, query);
      expect(now, query).toBe(before);
    }
  });

  it('any records in any order: the rows as the old way wrote them', async () => {
    const db = await importedHostileRates(300);
    const index = ceilingRatesIndex(db);
    const writer = index.csvRows.get();
    fc.assert(
      fc.property(fc.array(fc.nat({ max: index.store.size - 1 }), { maxLength: 400 }), (rows) => {
        expect(writer.write(rows)).toBe(
          oldRows(
            db,
            rows.map((r) => index.store.ids[r]),
          ),
        );
      }),
      { seed: 4242, numRuns: 60 },
    );
  });

  it('the export of every match writes the same rows', async () => {
    const db = await edgeDatabase(true);
    const answer = exportAllCsv(db, new URLSearchParams('ordering=vendor_name'), [], 4);
    if (!answer.ok) throw new Error(answer.message);
    const text = [...answer.export.chunks()].map((c) => c.text).join('');
    const { now } = bothWays(db, 'export=y&ordering=vendor_name');
    expect(text.slice(text.indexOf('Contract #,'))).toBe(now.slice(now.indexOf('Contract #,')));
  });
});

describe('csvCell and the separators of other locales', () => {
  it('quotes text holding ; tab or | as it quotes a comma, so `x;=formula` stays one cell in a ;-separated reading', () => {
    for (const separator of [',', ';', '\t', '|']) {
      const text = `Senior Engineer${separator}=HYPERLINK("http://evil.example","x")`;
      const cell = csvCell(text);
      expect(cell, JSON.stringify(separator)).toBe(`"${text.replace(/"/g, '""')}"`);
      // Read as a file of that separator, the quoted cell is one field: no field starts with `=`.
      const fields = Papa.parse<string[]>(`${cell}${separator}next`, { delimiter: separator }).data[0];
      expect(fields, JSON.stringify(separator)).toEqual([text, 'next']);
    }
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell(-12.5)).toBe('-12.5');
  });
});
