/** The websites data layer: deterministic generation, realistic shape, and indexes behind every query. */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Database } from 'sql.js';
import { generateWebsites, websitesDataset } from '../../../tools/generate/websites.ts';
import { buildDatabase } from '../../../tools/generated-datasets.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { gunzipSync } from 'node:zlib';
import { gzipDatabase } from '../../../adapters/node/datasets/dataset-writer.ts';
import { SCAN_STATUSES, type WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { FILTER_NAMES } from '../../../engine/site-scanning/parameters.ts';
import type { WebsiteFilters } from '../../../engine/site-scanning/parse-query.ts';
import { BY_ROWIDS_SQL, BY_TARGET_URL_SQL } from '../../../engine/site-scanning/sql.ts';
import { insertWebsites } from '../../../engine/site-scanning/schema.ts';
import { FilterIndex, listingOrder, LOAD_SQL } from '../../../engine/site-scanning/filter-index.ts';
import { PackMismatch } from '../../../engine/typed-pack.ts';
import { call, emptyDatabase, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import { KNOWN, completed, hosts } from './fixtures.ts';

describe('determinism', () => {
  it('the same seed gives a byte-identical database', async () => {
    const SQL = await loadSqlJs();
    const a = buildDatabase(SQL, websitesDataset, 'small').export();
    const b = buildDatabase(SQL, websitesDataset, 'small').export();
    expect(a.length).toBeGreaterThan(0);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it("the gzip'd artifact opens again and answers like the database it came from", async () => {
    const SQL = await loadSqlJs();
    const original = buildDatabase(SQL, websitesDataset, 'small');
    const reopened = new SQL.Database(gunzipSync(gzipDatabase(original.export())));
    const before = call(engineOver('websites', original), '/websites?final_url_live=true&page=3').raw.body;
    expect(call(engineOver('websites', reopened), '/websites?final_url_live=true&page=3').raw.body).toBe(before);
    expect(websitesDataset.countRows(reopened)).toEqual({ websites: websitesDataset.profiles.small });
  });

  it('another seed gives other records', () => {
    const a = generateWebsites(50, 1);
    const b = generateWebsites(50, 2);
    expect(a).not.toEqual(b);
    expect(generateWebsites(50, 1)).toEqual(a);
  });
});

describe('the default profile looks like the real snapshot (data.md)', () => {
  let records: WebsiteRecord[];
  beforeAll(() => {
    records = generateWebsites(websitesDataset.profiles.default, websitesDataset.seed);
  });
  const distinct = (f: (r: WebsiteRecord) => unknown) => new Set(records.map(f)).size;
  const share = (f: (r: WebsiteRecord) => boolean, of = records) => of.filter(f).length / of.length;

  it('30,000 records with unique target URLs', () => {
    expect(records).toHaveLength(30000);
    expect(distinct((r) => r.target_url)).toBe(30000);
  });

  it('about 150 agencies, 270 bureaus and 1,400 target base domains', () => {
    expect(distinct((r) => r.target_url_agency_owner)).toBeGreaterThan(130);
    expect(distinct((r) => r.target_url_agency_owner)).toBeLessThan(170);
    expect(distinct((r) => `${r.target_url_agency_owner}|${r.target_url_bureau_owner}`)).toBeGreaterThan(230);
    expect(distinct((r) => `${r.target_url_agency_owner}|${r.target_url_bureau_owner}`)).toBeLessThan(300);
    expect(distinct((r) => r.target_url_domain)).toBeGreaterThan(1300);
    expect(distinct((r) => r.target_url_domain)).toBeLessThan(1500);
  });

  it('about 60% completed, the rest spread over the failure statuses with null scan fields', () => {
    expect(share((r) => r.scan_status === 'completed')).toBeGreaterThan(0.55);
    expect(share((r) => r.scan_status === 'completed')).toBeLessThan(0.7);
    expect(distinct((r) => r.scan_status)).toBeGreaterThan(15);
    for (const r of records) {
      expect(SCAN_STATUSES).toContain(r.scan_status);
      if (r.scan_status !== 'completed') {
        expect(r.final_url).toBeNull();
        expect(r.final_url_live).toBeNull();
        expect(r.dap_detected_final_url).toBeNull();
        expect(r.target_url_agency_owner).not.toBeNull();
      }
    }
  });

  it('about 13,500 live sites, DAP on about half of them', () => {
    const live = records.filter((r) => r.final_url_live === true);
    expect(live.length).toBeGreaterThan(12000);
    expect(live.length).toBeLessThan(15500);
    expect(share((r) => r.dap_detected_final_url === true, live)).toBeGreaterThan(0.4);
    expect(share((r) => r.dap_detected_final_url === true, live)).toBeLessThan(0.6);
    expect(live.every((r) => r.final_url_status_code! >= 200 && r.final_url_status_code! < 300)).toBe(true);
  });

  it('redirects, some to other domains, with consistent flags', () => {
    const completed = records.filter((r) => r.scan_status === 'completed');
    const away = completed.filter((r) => r.final_url_domain !== r.target_url_domain);
    expect(share((r) => r.target_url_redirects === true, completed)).toBeGreaterThan(0.2);
    expect(away.length).toBeGreaterThan(500);
    for (const r of completed) {
      expect(r.final_url_same_domain).toBe(r.final_url_domain === r.target_url_domain);
      expect(r.final_url_same_website).toBe(r.final_url_website === r.target_url);
      if (!r.target_url_redirects) expect(r.final_url_website).toBe(r.target_url);
    }
  });

  it('design-system class lists are sorted `usa-` classes, counted, never empty lists', () => {
    const withClasses = records.filter((r) => r.ds_usa_class_list !== null);
    expect(withClasses.length).toBeGreaterThan(2000);
    for (const r of withClasses) {
      expect(r.ds_usa_class_list!.length).toBeGreaterThan(0);
      expect([...r.ds_usa_class_list!].sort()).toEqual(r.ds_usa_class_list);
      expect(r.ds_usa_class_list!.every((c) => c.startsWith('usa-'))).toBe(true);
      expect(r.ds_usa_classes).toBe(r.ds_usa_class_list!.length);
    }
    expect(records.some((r) => Array.isArray(r.third_party_service_domains) && r.third_party_service_domains.length === 0)).toBe(false);
  });

  it('several MIME types and status codes, third-party domains counted', () => {
    expect(distinct((r) => r.final_url_MIMEType)).toBeGreaterThan(5);
    expect(distinct((r) => r.final_url_status_code)).toBeGreaterThan(8);
    for (const r of records) {
      if (r.third_party_service_domains) expect(r.third_party_service_count).toBe(r.third_party_service_domains.length);
    }
  });
});

describe('indexes serve every filter and the order', () => {
  let db: Database;
  beforeAll(async () => {
    db = await generatedDatabase('websites');
  });
  const plan = (sql: string, params: unknown[]): string =>
    db
      .exec(`EXPLAIN QUERY PLAN ${sql}`, params as never)[0]
      .values.map((row) => String(row[3]))
      .join('\n');
  const sample: Required<WebsiteFilters> = {
    target_url_domain: 'gsa.gov',
    final_url_domain: 'gsa.gov',
    final_url_live: true,
    target_url_redirects: false,
    target_url_agency_owner: 'General Services Administration',
    target_url_bureau_owner: 'GSA, TTS',
    scan_status: 'completed',
    dap_detected_final_url: true,
  };

  /** The matching rowids in listing order, by SQL over the stored columns. */
  const matching = (filters: WebsiteFilters): number[] => {
    const names = Object.keys(filters) as (keyof WebsiteFilters)[];
    const where = names.map((name) => `"${name}" = ?`).join(' AND ');
    const params = names.map((name) => (typeof filters[name] === 'boolean' ? (filters[name] ? 1 : 0) : filters[name]));
    return (db.exec(`SELECT rowid FROM websites ${where ? `WHERE ${where}` : ''} ORDER BY sort_key`, params as never)[0]?.values ?? []).map((r) =>
      Number(r[0]),
    );
  };
  const selected = (index: FilterIndex, filters: WebsiteFilters): number[] => {
    const { positions } = index.select(filters);
    return index.rowidsOf(positions, 0, positions.length);
  };

  it('the filter index reads every record once, in the order of the table: SQLite sorts nothing (listing order is made in memory)', () => {
    const text = plan(LOAD_SQL, []);
    expect(text).toMatch(/SCAN websites/);
    expect(text.match(/SCAN websites/g)).toHaveLength(1);
    expect(text).not.toMatch(/TEMP B-TREE/);
  });

  it('orders the records as ORDER BY sort_key does: null first, ties in row id order, whatever the keys', () => {
    const sqlOrder = (keys: (number | null)[]) =>
      keys
        .map((key, i) => ({ key: key === null ? -Infinity : key, i }))
        .sort((a, b) => a.key - b.key || a.i - b.i)
        .map((x) => x.i);
    const key = fc.oneof(
      fc.constant(null),
      fc.integer({ min: -5, max: 5 }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constant(2 ** 52),
    );
    fc.assert(
      fc.property(fc.array(key, { maxLength: 60 }), (keys) => {
        expect(Array.from(listingOrder(keys))).toEqual(sqlOrder(keys));
      }),
      // Found by this property: an integer past 2^53 has no exact "one below", so null tied with it.
      { examples: [[[-17986493545573476, null]]] },
    );
  });

  it('a filter index prepared as bytes selects as the one read from the records, and refuses other records', async () => {
    const index = FilterIndex.load(db);
    const prepared = FilterIndex.fromPrepared(index.preparedBytes(), db);
    for (const name of FILTER_NAMES) expect(selected(prepared, { [name]: sample[name] }), name).toEqual(selected(index, { [name]: sample[name] }));
    expect(prepared.distinctCounts(prepared.select({}).positions)).toEqual(index.distinctCounts(index.select({}).positions));
    const other = new (await loadSqlJs()).Database(db.export());
    other.run('DELETE FROM websites WHERE rowid = (SELECT max(rowid) FROM websites)');
    expect(() => FilterIndex.fromPrepared(index.preparedBytes(), other)).toThrow(PackMismatch);
    other.close();
  });

  it.each(FILTER_NAMES)('%s: the index visits only the records carrying the value, and selects them in order', (name) => {
    const index = FilterIndex.load(db);
    const expected = matching({ [name]: sample[name] });
    expect(expected.length).toBeGreaterThan(0);
    expect(selected(index, { [name]: sample[name] })).toEqual(expected);
    expect(index.select({ [name]: sample[name] }).visited).toBe(expected.length);
    expect(expected.length).toBeLessThan(index.size);
  });

  it('combined filters walk the shorter list and check the other', () => {
    const index = FilterIndex.load(db);
    const filters = { target_url_agency_owner: sample.target_url_agency_owner, final_url_live: true };
    expect(selected(index, filters)).toEqual(matching(filters));
    const shorter = Math.min(matching({ target_url_agency_owner: sample.target_url_agency_owner }).length, matching({ final_url_live: true }).length);
    expect(index.select(filters).visited).toBe(shorter);
  });

  it('a value no record carries selects nothing without a walk; no filter selects everything in order', () => {
    const index = FilterIndex.load(db);
    expect(index.select({ target_url_agency_owner: 'No Such Agency', final_url_live: true })).toEqual({ positions: new Uint32Array(0), visited: 0 });
    expect(selected(index, {})).toEqual(matching({}));
  });

  it('a page of rows is read by primary key, in the page order', () => {
    const text = plan(BY_ROWIDS_SQL, ['[3,1,2]']);
    expect(text).toMatch(/SEARCH websites USING INTEGER PRIMARY KEY/);
    expect(text).not.toMatch(/SCAN websites/);
  });

  it('a record by target URL is an index search', () => {
    expect(plan(BY_TARGET_URL_SQL, ['gsa.gov'])).toMatch(/SEARCH websites USING (COVERING )?INDEX websites_by_target_url/);
  });
});

describe('insertWebsites', () => {
  it('keeps the listing in target_url order when records arrive in several batches', async () => {
    const db = await emptyDatabase('websites');
    insertWebsites(db, [KNOWN[5], KNOWN[0]]);
    insertWebsites(db, [KNOWN[3], KNOWN[1]]);
    insertWebsites(db, [KNOWN[4], KNOWN[2]]);
    const engine = engineOver('websites', db);
    expect(hosts(call(engine, '/websites').body)).toEqual(KNOWN.map((r) => r.target_url));
    expect(hosts(call(engine, '/websites?limit=2&page=2').body)).toEqual(['data.nasa.gov', 'gsa.gov']);
  });

  it('keeps target_url byte order for any records in any batches (duplicates in insertion order)', async () => {
    const hostArb = fc.stringMatching(/^[ab.é]{1,4}$/);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(hostArb, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 }), async (batches) => {
        const db = await emptyDatabase('websites');
        const inserted: WebsiteRecord[] = [];
        batches.forEach((batch, b) => {
          const records = batch.map((host, i) => completed(host, 'x.gov', { og_title_final_url: `${b}/${i}` }));
          insertWebsites(db, records);
          inserted.push(...records);
        });
        const expected = [...inserted].sort((x, y) => Buffer.compare(Buffer.from(x.target_url), Buffer.from(y.target_url)));
        const { body } = call(engineOver('websites', db), '/websites?limit=100');
        expect(body.items.map((r: WebsiteRecord) => r.og_title_final_url)).toEqual(expected.map((r) => r.og_title_final_url));
        db.close();
      }),
      { numRuns: 60 },
    );
  });

  it('renumbers when one gap between neighbours runs out', async () => {
    const db = await emptyDatabase('websites');
    insertWebsites(db, [completed('a.gov', 'a.gov'), completed('c.gov', 'c.gov')]);
    // Each host sorts just after the previous one and before c.gov, halving the same gap every time.
    const squeezed = Array.from({ length: 40 }, (_, i) => `b${'b'.repeat(i)}.gov`);
    for (const host of squeezed) insertWebsites(db, [completed(host, host)]);
    const { body } = call(engineOver('websites', db), '/websites?limit=100');
    expect(hosts(body)).toEqual(['a.gov', ...[...squeezed].sort(), 'c.gov']);
  });

  it('stores an empty list as null, as the API answers it', async () => {
    const db = await emptyDatabase('websites');
    insertWebsites(db, [completed('x.gov', 'x.gov', { ds_usa_class_list: [], third_party_service_domains: [] })]);
    const { body } = call(engineOver('websites', db), '/websites/x.gov');
    expect(body.ds_usa_class_list).toBeNull();
    expect(body.third_party_service_domains).toBeNull();
  });
});
