/** Every match of a query as CSV, past the API's 10,000 window, against the API's own export. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'sql.js';
import { call, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import type { Engine } from '../../../engine/index.ts';
import { exportAllCsv } from '../../../engine/ceilingrates/export-all.ts';
import { parseCsvRows } from './csv-helper.ts';

const API = '/api/v3/search/ceilingrates/';
let db: Database;
let engine: Engine;
let size: number;

beforeAll(async () => {
  db = await generatedDatabase('ceilingrates');
  engine = engineOver('ceilingrates', db);
  size = Number(db.exec('SELECT COUNT(*) FROM ceilingrates')[0].values[0][0]);
});

describe('export of every match', () => {
  it('writes every matching record in the query’s order, past the 10,000 window, with the notes and the count', async () => {
    const query = 'keyword=engineer&ordering=vendor_name&sort=desc&page=2&page_size=10';
    const answer = exportAllCsv(db, new URLSearchParams(query), [['Dataset', 'test v1']], 7);
    if (!answer.ok) throw new Error(answer.message);
    const chunks = [...answer.export.chunks()];
    expect(chunks.at(-1)!.written).toBe(answer.export.total);
    const rows = parseCsvRows(chunks.map((c) => c.text).join(''));
    expect(rows[0]).toEqual(['Search query', 'engineer']);
    expect(rows[2]).toEqual(['Dataset', 'test v1']);
    expect(rows[3]).toEqual(['Matching records', String(answer.export.total)]);
    expect(rows[4][0]).toBe('Contract #');
    const want = call(engine, `${API}?keyword=engineer&ordering=vendor_name&sort=desc&export=y`).body as string;
    const wanted = parseCsvRows(want).slice(3);
    expect(rows.slice(5, 5 + wanted.length)).toEqual(wanted);
    expect(rows.length - 5).toBe(answer.export.total);
    // Everything, where the API stops at its window.
    const everything = exportAllCsv(db, new URLSearchParams(''), []);
    if (!everything.ok) throw new Error(everything.message);
    expect(everything.export.total).toBe(size);
  });
});

describe('export past the window', () => {
  it('writes all 10,200 records where the API’s export stops at 10,000', async () => {
    const big = await generatedDatabase('ceilingrates', 10_200);
    const answer = exportAllCsv(big, new URLSearchParams(''), []);
    if (!answer.ok) throw new Error(answer.message);
    const lines = [...answer.export.chunks()]
      .map((c) => c.text)
      .join('')
      .trimEnd()
      .split('\r\n');
    expect(answer.export.total).toBe(10_200);
    expect(lines.length - 4).toBe(10_200);
    const api = call(engineOver('ceilingrates', big), `${API}?export=y`).body as string;
    expect(api.trimEnd().split('\r\n').length - 3).toBe(10_000);
  });
});
