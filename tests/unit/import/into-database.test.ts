import { describe, expect, it } from 'vitest';
import type { Database, SqlJsStatic } from 'sql.js';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { importIntoDatabase } from '../../../dataset/import/into-database.ts';
import { ImportError, type ImportErrorCode } from '../../../dataset/import/errors.ts';
import { call, emptyDatabase, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import { startImport } from '../../../dataset/import/import.ts';
import { insertWebsites } from '../../../engine/site-scanning/schema.ts';
import type { WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { SNAPSHOT_COLUMNS } from '../../../dataset/import/websites/snapshot-columns.ts';
import { fixture, fixtureText } from './helpers.ts';

/** sql.js whose databases say when they are closed, to see that a failed import leaves nothing open. */
async function watchedSql(): Promise<{ SQL: SqlJsStatic; opened: Database[]; closed: Database[] }> {
  const real = await loadSqlJs();
  const opened: Database[] = [];
  const closed: Database[] = [];
  class Watched extends real.Database {
    constructor(...args: ConstructorParameters<typeof real.Database>) {
      super(...args);
      opened.push(this);
    }
    override close(): void {
      closed.push(this);
      super.close();
    }
  }
  return { SQL: { ...real, Database: Watched } as SqlJsStatic, opened, closed };
}

async function failure(run: Promise<unknown>): Promise<ImportError> {
  try {
    await run;
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error('the import did not fail');
}

/** A valid snapshot CSV of `rows` rows, big enough to span several 1 MB slices. */
function bigSnapshot(rows: number): string {
  const lines = [SNAPSHOT_COLUMNS.join(',')];
  const title = 'x'.repeat(2000);
  for (let i = 0; i < rows; i++) {
    const cells = SNAPSHOT_COLUMNS.map((column) =>
      column === 'initial_domain' ? `site${i}.example.gov` : column === 'primary_scan_status' ? 'completed' : column === 'title' ? title : '',
    );
    lines.push(cells.join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/** Every record of a websites listing, page by page: the order the API lists them in. */
function listing(db: Database): string[] {
  const engine = engineOver('websites', db);
  const out: string[] = [];
  for (let page = 1; ; page++) {
    const { body } = call(engine, `/websites?limit=100&page=${page}`);
    out.push(
      ...body.items.map((item: { target_url: string; og_description_final_url: string | null }) => `${item.target_url} ${item.og_description_final_url}`),
    );
    if (page >= body.meta.totalPages) return out;
  }
}

describe('importIntoDatabase', () => {
  it('websites go in batch by batch, listed in the order one insert of every record gives', async () => {
    const SQL = await loadSqlJs();
    const lines = [SNAPSHOT_COLUMNS.join(',')];
    // 12,000 rows (several batches), domains far out of listing order.
    for (let i = 0; i < 12_000; i++) {
      const domain = `site${(i * 7919) % 12_000}.example.gov`;
      lines.push(
        SNAPSHOT_COLUMNS.map((c) => (c === 'initial_domain' ? domain : c === 'primary_scan_status' ? 'completed' : c === 'title' ? `row ${i}` : '')).join(','),
      );
    }
    const file = new Blob([lines.join('\n') + '\n']);
    const { db } = await importIntoDatabase(SQL, file, { name: 'site-scanning-latest.csv' });
    const run = await startImport(new Blob([lines.join('\n') + '\n']), { name: 'site-scanning-latest.csv' });
    const records: WebsiteRecord[] = [];
    for await (const batch of run.batches as AsyncIterable<WebsiteRecord[]>) records.push(...batch);
    const once = await emptyDatabase('websites');
    insertWebsites(once, records);
    const imported = listing(db);
    expect(imported).toHaveLength(12_000);
    expect(imported).toEqual(listing(once));
    expect(imported.slice(0, 3).map((item) => item.split(' ')[0])).toEqual(['site0.example.gov', 'site1.example.gov', 'site10.example.gov']);
  });

  it('builds a websites database the engine answers from: /websites?target_url_agency_owner=…', async () => {
    const SQL = await loadSqlJs();
    const { db, dataset, format, report } = await importIntoDatabase(SQL, fixture('websites-current.csv'), { name: 'site-scanning-latest.csv' });
    expect([dataset, format, report.rowsImported]).toEqual(['websites', 'websites-csv', 5]);
    const engine = engineOver('websites', db);
    const { status, body } = call(engine, '/websites?target_url_agency_owner=Department%20of%20Veterans%20Affairs');
    expect(status).toBe(200);
    expect(body.items.map((item: { target_url: string }) => item.target_url)).toEqual(['benefits.va.gov', 'old.va.gov']);
    expect(body.items[0].og_description_final_url).toHaveLength(2000);
    expect(body.items[0].final_url_same_domain).toBe(false);
    const one = call(engine, '/websites/https://www.nasa.gov/');
    expect(one.status).toBe(200);
    expect(one.body.final_url_status_code).toBe(200);
    db.close();
  });

  it('builds a ceiling-rates database the engine searches', async () => {
    const SQL = await loadSqlJs();
    const { db, dataset } = await importIntoDatabase(SQL, fixture('ceilingrates-export.csv'));
    expect(dataset).toBe('ceilingrates');
    const { status, body } = call(engineOver('ceilingrates', db), '/api/v3/search/ceilingrates/?search=labor_category:Program+Manager');
    expect(status).toBe(200);
    expect(body.hits.total.value).toBe(1);
    expect(body.hits.hits[0]._source).toMatchObject({ id: 2, labor_category: 'Program Manager', current_price: 98.2, education_level: 'MA' });
    db.close();
  });

  it('writes the ceiling-rates column table, so an import binds on the fast path like a built dataset', async () => {
    const SQL = await loadSqlJs();
    const { db } = await importIntoDatabase(SQL, fixture('ceilingrates-export.csv'));
    const [[columns]] = db.exec('SELECT COUNT(*) FROM ceilingrates_columns')[0].values;
    expect(columns).toBeGreaterThan(0);
    db.close();
  });

  it('reads back its own CSV export (export=y) into the same records', async () => {
    const SQL = await loadSqlJs();
    const original = await generatedDatabase('ceilingrates', 400);
    const engine = engineOver('ceilingrates', original);
    const exported = call(engine, '/api/v3/search/ceilingrates/?export=y').raw.body;
    const { db, report } = await importIntoDatabase(SQL, exported, { name: 'export.csv' });
    expect(report.rowsRejected).toBe(0);
    const rows = (database: Database, sql: string): unknown[][] => database.exec(sql)[0].values;
    const fields =
      'vendor_name, idv_piid, schedule, sin, labor_category, category, subcategory, education_level, min_years_experience, worksite, security_clearance, business_size, current_price, next_year_price, second_year_price, contract_start, contract_end, cont_beg_dtg, cont_end_dtg';
    const order = 'ORDER BY current_price, idv_piid, labor_category, sin, vendor_name';
    expect(rows(db, `SELECT ${fields} FROM ceilingrates ${order}`)).toEqual(rows(original, `SELECT ${fields} FROM ceilingrates ${order}`));
    db.close();
    original.close();
  });

  it('reads back saved /websites pages into the same records', async () => {
    const SQL = await loadSqlJs();
    const original = await generatedDatabase('websites', 250);
    const engine = engineOver('websites', original);
    const pages = [1, 2, 3].map((page) => call(engine, `/websites?limit=100&page=${page}`).body);
    const { db, report } = await importIntoDatabase(SQL, JSON.stringify(pages));
    expect(report.rowsImported).toBe(250);
    const all = (e: ReturnType<typeof engineOver>) => [1, 2, 3].flatMap((page) => call(e, `/websites?limit=100&page=${page}`).body.items);
    expect(all(engineOver('websites', db))).toEqual(all(engine));
    db.close();
    original.close();
  });

  it.each<[string, string, ImportErrorCode, RegExp]>([
    ['a truncated CSV (inside a quoted cell)', 'truncated-quoted.csv', 'truncated', /cut short/],
    ['a truncated CSV (in the middle of a row)', 'truncated-row.csv', 'truncated', /line 3 has 14 of 104 fields/],
    ['a truncated JSON file', 'truncated.json', 'truncated', /cut short/],
    ['a file of another kind', 'wrong-format.txt', 'wrong-format', /Accepted files/],
    ['JSON of another kind', 'wrong-format.json', 'wrong-format', /neither Site Scanning records nor ceiling-rate/],
    [
      'a file with no valid rows',
      'no-valid-rows.csv',
      'no-valid-rows',
      /None of its 2 rows could be imported \(current price "N\/A" is not a number; no labor category\)/,
    ],
    ['a header with no rows', 'header-only.csv', 'no-valid-rows', /no data rows/],
  ])('fails on %s with a clear message and closes the new database', async (_what, name, code, message) => {
    const { SQL, opened, closed } = await watchedSql();
    const error = await failure(importIntoDatabase(SQL, fixture(name), { name }));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/Nothing was changed/);
    expect(closed).toEqual(opened);
  });

  it('fails with no-valid-rows on an empty snapshot JSON array', async () => {
    const SQL = await loadSqlJs();
    const error = await failure(importIntoDatabase(SQL, '[]', { name: 'site-scanning-latest.json' }));
    expect(error.code).toBe('no-valid-rows');
    expect(error.message).toMatch(/no data rows/);
  });

  it('leaves an existing database answering when an import fails', async () => {
    const existing = await generatedDatabase('websites', 20);
    const engine = engineOver('websites', existing);
    const before = call(engine, '/websites?limit=100').body;
    const SQL = await loadSqlJs();
    await failure(importIntoDatabase(SQL, fixture('truncated-quoted.csv')));
    expect(call(engine, '/websites?limit=100').body).toEqual(before);
    existing.close();
  });

  it('cancels through the AbortSignal halfway, closing the new database', async () => {
    const { SQL, opened, closed } = await watchedSql();
    const controller = new AbortController();
    const text = bigSnapshot(1500); // ~3.2 MB: four 1 MB slices
    const seen: number[] = [];
    const error = await failure(
      importIntoDatabase(SQL, text, {
        batchSize: 200,
        signal: controller.signal,
        onProgress: (progress) => {
          seen.push(progress.bytesRead);
          if (progress.bytesRead >= 1 << 20) controller.abort();
        },
      }),
    );
    expect(error.code).toBe('cancelled');
    expect(error.message).toMatch(/cancelled/i);
    expect(seen[0]).toBeLessThan(text.length);
    expect(opened.length).toBe(1);
    expect(closed).toEqual(opened);
  });

  it('reports progress in bytes of the total, up to the whole file', async () => {
    const SQL = await loadSqlJs();
    const bytes = new TextEncoder().encode(bigSnapshot(1200));
    const seen: { bytesRead: number; totalBytes: number | null; rowsImported: number }[] = [];
    const { db, report } = await importIntoDatabase(SQL, bytes, { onProgress: (p) => seen.push(p) });
    expect(report.rowsImported).toBe(1200);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.every((p) => p.totalBytes === bytes.byteLength)).toBe(true);
    expect(seen.map((p) => p.bytesRead)).toEqual(seen.map((p) => p.bytesRead).sort((a, b) => a - b));
    expect(seen.at(-1)).toMatchObject({ bytesRead: bytes.byteLength, rowsImported: 1200 });
    db.close();
  });

  it('releases a stream source when the import stops early', async () => {
    const SQL = await loadSqlJs();
    const prose = 'Meeting notes. '.repeat(20_000); // 300 KB: several stream pieces past the 64 KB head
    const wrongStream = new Blob([prose]).stream();
    expect((await failure(importIntoDatabase(SQL, wrongStream))).code).toBe('wrong-format');
    expect(wrongStream.locked).toBe(false);
    const noLaborCategory = 'Contract #,Vendor Name\n' + 'GS-1,Acme\n'.repeat(40_000); // 400 KB
    const malformedStream = new Blob([noLaborCategory]).stream();
    expect((await failure(importIntoDatabase(SQL, malformedStream))).code).toBe('malformed');
    expect(malformedStream.locked).toBe(false);
  });

  it('accepts a Blob and a byte stream as well as a string', async () => {
    const SQL = await loadSqlJs();
    const text = fixtureText('websites-previous.csv');
    const blob = new Blob([text]);
    const stream = new Blob([text]).stream();
    for (const source of [blob, stream, text]) {
      const { db, report } = await importIntoDatabase(SQL, source);
      expect(report.rowsImported).toBe(3);
      db.close();
    }
  });
});
