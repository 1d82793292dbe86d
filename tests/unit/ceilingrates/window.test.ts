/**
 * The 10,000 window over a generated dataset larger than it: hits.total is capped with `gte`, the
 * aggregations still count every record, the last page of the window is the 10,000th record in order,
 * and the CSV export stops at 10,000 rows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'sql.js';
import { call, emptyDatabase, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import type { Engine } from '../../../engine/index.ts';

const API = '/api/v3/search/ceilingrates/';
const COUNT = 10_600;
let db: Database;
let engine: Engine;

beforeAll(async () => {
  db = await generatedDatabase('ceilingrates', COUNT);
  engine = engineOver('ceilingrates', db);
});

const scalar = (sql: string): number => Number(db.exec(sql)[0].values[0][0]);

describe('the result window', () => {
  it('caps hits.total at 10000 with gte; the aggregations count every match', () => {
    const r = call(engine, `${API}?page_size=1`);
    expect(r.body.hits.total).toEqual({ value: 10000, relation: 'gte' });
    const a = r.body.aggregations;
    expect(a.wage_stats.count).toBe(COUNT);
    const sizes = a.business_size.buckets.reduce((n: number, b: { doc_count: number }) => n + b.doc_count, 0);
    expect(sizes + a.business_size.sum_other_doc_count).toBe(COUNT);
    expect(a.wage_histogram.buckets.reduce((n: number, b: { doc_count: number }) => n + b.doc_count, 0)).toBe(COUNT);
  });

  it('a count at or under the cap is exact', () => {
    const n = scalar("SELECT COUNT(*) FROM ceilingrates WHERE business_size = 'O'");
    expect(n).toBeLessThanOrEqual(10000);
    expect(call(engine, `${API}?filter=business_size:O`).body.hits.total).toEqual({ value: n, relation: 'eq' });
  });

  it('the last page of the window ends with the 10,000th record in the order', () => {
    const r = call(engine, `${API}?page=20&page_size=500`);
    expect(r.body.hits.hits).toHaveLength(500);
    const tenThousandth = scalar('SELECT id FROM ceilingrates ORDER BY current_price, id LIMIT 1 OFFSET 9999');
    expect(Number(r.body.hits.hits.at(-1)._id)).toBe(tenThousandth);
    const desc = call(
      engine,
      `${API}?page=10&page_size=1000&ordering=vendor_name&sort=desc&ordering=current_price`.replace('1000', '500').replace('page=10', 'page=20'),
    );
    const expected = scalar('SELECT id FROM ceilingrates ORDER BY vendor_name DESC, current_price, id LIMIT 1 OFFSET 9999');
    expect(Number(desc.body.hits.hits.at(-1)._id)).toBe(expected);
  });

  it('suggest-contains caps its total the same way', () => {
    const n = scalar("SELECT COUNT(*) FROM ceilingrates WHERE lower(labor_category) LIKE '%an%'");
    const r = call(engine, `${API}?suggest-contains=labor_category:an`);
    expect(r.body.hits.total).toEqual(n > 10000 ? { value: 10000, relation: 'gte' } : { value: n, relation: 'eq' });
  });

  it('export=y writes at most 10000 records', () => {
    const r = call(engine, `${API}?export=y`);
    const lines = (r.body as string).trimEnd().split('\r\n');
    // Rows start with the contract number: GS-10F-…, GS00F…, 47Q….
    expect(lines.filter((l) => /^(GS|47Q)/.test(l))).toHaveLength(10000);
    expect(lines[2].startsWith('Contract #,')).toBe(true);
  });

  it('an empty database answers with the no-match shape', async () => {
    const empty = engineOver('ceilingrates', await emptyDatabase('ceilingrates'));
    const r = call(empty, `${API}?keyword=manager&ordering=vendor_name`);
    expect(r.status).toBe(200);
    expect(r.body.hits.total).toEqual({ value: 0, relation: 'eq' });
    expect(r.body.aggregations.wage_stats.count).toBe(0);
  });
});
