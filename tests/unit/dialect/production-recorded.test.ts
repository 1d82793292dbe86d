/**
 * Issue 41: the production dialect replays production's recorded answers (tests/fixtures/recorded/), key for key:
 * the key sets and their order at every level, the JSON types and the value forms (a dated `_index`, a boolean
 * clearance, spelled-out education, `""` for no termination, prices as written, float32 prices in the
 * aggregations), for both APIs; and the same engine still answers the interface's shape without the dialect.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/index.ts';
import { insertCeilingRates } from '../../../engine/ceilingrates/schema.ts';
import { WEBSITE_FIELDS, type WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { insertWebsites } from '../../../engine/site-scanning/schema.ts';
import type { Dialect } from '../../../engine/dialect/dialect.ts';
import { emptyDatabase, engineOver } from '../../../harness/engine.ts';
import { API, engineerOnes, ENVELOPE, queryOf, REC_2026, shapeOf, SITE_2022, stored } from './recorded-data.ts';

/**
 * The keys of a record as production's serializer writes it: GSA/site-scanning-engine @ ebbd61d6 (2026-08-04),
 * `Website.serialized()`, the exposed fields of entities/core-result.entity.ts and then entities/website.entity.ts.
 */
const SERIALIZER_KEYS_2026_08 = [
  'scan_date',
  'not_found_scan_status',
  'primary_scan_status',
  'robots_txt_scan_status',
  'sitemap_xml_scan_status',
  'dns_scan_status',
  'initial_base_domain',
  'url',
  'initial_url',
  'live',
  'filter',
  'pageviews',
  'visits',
  'base_domain',
  'name',
  'page_hash',
  'media_type',
  'status_code',
  '404_test',
  'redirect',
  'uswds_usa_classes',
  'uswds_usa_elements_list',
  'uswds_string',
  'uswds_inpage_css',
  'uswds_favicon',
  'uswds_string_in_css',
  'uswds_favicon_in_css',
  'uswds_publicsans_font',
  'uswds_semantic_version',
  'uswds_version',
  'uswds_count',
  'dap',
  'dap_parameters',
  'dap_version',
  'ga_tag_id',
  'og_title',
  'og_description',
  'og_article_published',
  'og_article_modified',
  'main_element_present',
  'robots_txt_url',
  'robots_txt_status_code',
  'robots_txt_detected',
  'robots_txt_media_type',
  'robots_txt_filesize',
  'robots_txt_crawl_delay',
  'robots_txt_sitemap_locations',
  'sitemap_xml_detected',
  'sitemap_xml_status_code',
  'sitemap_xml_url',
  'sitemap_xml_filesize',
  'sitemap_xml_media_type',
  'sitemap_xml_count',
  'sitemap_xml_pdf_count',
  'sitemap_xml_lastmod',
  'sitemap_xml_page_hash',
  'third_party_service_domains',
  'third_party_service_urls',
  'third_party_service_count',
  'cookie_domains',
  'ipv6',
  'login',
  'hostname',
  'domain',
  'top_level_domain',
  'canonical_link',
  'cms',
  'required_links_url',
  'required_links_text',
  'feedback_links_text',
  'login_provider',
  'site_search',
  'search_dot_gov',
  'accessibility_scan_status',
  'accessibility_violations',
  'viewport_meta_tag',
  'title',
  'description',
  'performance_scan_status',
  'largest_contentful_paint',
  'cumulative_layout_shift',
  'keywords',
  'og_image',
  'og_type',
  'og_url',
  'language',
  'language_link',
  'security_scan_status',
  'https_enforced',
  'hsts',
  'uswds_usa_class_list',
  'uswds_banner_heres_how',
  'www_scan_status',
  'www_url',
  'www_status_code',
  'www_title',
  'www_same',
  'tooling',
  'hyperlink_domains',
  'initial_domain',
  'initial_top_level_domain',
  'branch',
  'agency',
  'bureau',
  'source_list',
];

function get(engine: Engine, url: string, dialect?: Dialect) {
  const raw = engine.handle({ method: 'GET', url, ...(dialect ? { dialect } : {}) });
  return { status: raw.status, raw: raw.body, body: JSON.parse(raw.body) };
}

let rates: Engine;
let one: Engine;
beforeAll(async () => {
  const db = await emptyDatabase('ceilingrates');
  insertCeilingRates(db, engineerOnes());
  rates = engineOver('ceilingrates', db);
  const single = await emptyDatabase('ceilingrates');
  insertCeilingRates(single, [stored(REC_2026.one_hit.hit._source)]);
  one = engineOver('ceilingrates', single);
});

describe('ceiling rates in the production dialect, replayed against the answer recorded 2026-10-10', () => {
  it('has the recorded keys, key order and JSON types at every level', () => {
    const ours = get(rates, `${API}${queryOf(ENVELOPE.url)}`, 'production').body;
    expect(ours.hits.total).toEqual(ENVELOPE.raw.hits.total);
    expect(shapeOf(ours)).toEqual(shapeOf(ENVELOPE.raw));
    expect(Object.keys(ours.aggregations)).toEqual(Object.keys(ENVELOPE.raw.aggregations));
    expect(ours._shards).toEqual(ENVELOPE.raw._shards);
  });

  it('writes the values in the recorded forms', () => {
    const ours = get(rates, `${API}${queryOf(ENVELOPE.url)}`, 'production').body;
    const [recorded] = ENVELOPE.raw.hits.hits;
    const hit = ours.hits.hits.find((h: { _id: string }) => h._id === recorded._id);
    expect(hit._index).toMatch(/^ceilingrates-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d$/);
    expect(hit._index.slice(0, 'ceilingrates-2026-10-10'.length)).toBe(recorded._index.slice(0, 'ceilingrates-2026-10-10'.length));
    // The first hit is the recorded record: its _source is the recorded one, value for value.
    expect(hit._source).toEqual(recorded._source);
    expect(hit.sort).toEqual(recorded.sort);
    const a = ours.aggregations;
    const r = ENVELOPE.raw.aggregations;
    for (const name of ['security_clearance', 'worksite', 'education_level', 'business_size']) {
      expect(
        a[name].buckets.map((b: { key: string }) => b.key),
        name,
      ).toEqual(r[name].buckets.map((b: { key: string }) => b.key).filter((k: string) => k !== 'High School Equivalent'));
    }
    // Prices as written, in production's order: count, then the key as text ("101.22" before "87.92").
    // (The buckets are the interface's, by the cent: 88.1008 keys as "88.1" here.)
    const byCent = (key: string) => String(Math.round(Number(key) * 100) / 100);
    expect(a.current_price.buckets.slice(0, r.current_price.buckets.length)).toEqual(
      r.current_price.buckets.map((b: { key: string; doc_count: number }) => ({ ...b, key: byCent(b.key) })),
    );
    // Single prices in the aggregations are float32 values, as production's index holds them.
    // (The edges differ, k-means here: differences.md; their form is production's.)
    const float32 = (x: number) => Math.fround(x) === x;
    for (const b of [...a.wage_histogram.buckets, ...r.wage_histogram.buckets]) {
      expect(float32(b.min) && float32(b.max), JSON.stringify(b)).toBe(true);
      if (b.min === b.max) expect(b.key).toBe(b.min);
    }
    expect(a.wage_stats.min).toBe(r.wage_stats.min);
    expect(a.wage_stats.max).toBe(r.wage_stats.max);
    expect(Object.keys(a.histogram_percentiles.values)).toEqual(Object.keys(r.histogram_percentiles.values));
    for (const v of Object.values(a.histogram_percentiles.values) as number[]) expect(float32(v), String(v)).toBe(true);
    expect(r.histogram_percentiles.values['10.0']).toBe(Math.fround(71.7031));
    expect(a.education_level_counts).toEqual(r.education_level_counts);
  });

  it('one price: wage_stats as recorded, to the last digit and the "NaN" strings', () => {
    const ours = get(one, `${API}${queryOf(REC_2026.one_hit.url)}`, 'production');
    expect(ours.body.aggregations.wage_stats).toEqual(REC_2026.one_hit.wage_stats);
    expect(ours.body.hits.hits[0]._source).toEqual(REC_2026.one_hit.hit._source);
    expect(ours.raw).toContain('"variance":0.0,');
  });

  it("accepts production's values in the filters, in both dialects", () => {
    for (const dialect of ['interface', 'production'] as const) {
      const total = (filter: string) => get(rates, `${API}?page_size=1&${filter}`, dialect).body.hits.total.value;
      expect(total('filter=education_level:Bachelors'), dialect).toBe(78);
      expect(total('filter=education_level:BA'), dialect).toBe(78);
      expect(total('filter=education_level:High School Equivalent|Masters'), dialect).toBe(13);
      expect(total('filter=security_clearance:true'), dialect).toBe(5);
      expect(total('filter=security_clearance:false'), dialect).toBe(86);
      expect(total('filter=site:Customer_Facility'), dialect).toBe(45);
    }
  });

  it('without the dialect the same engine answers the interface shape', () => {
    const ours = get(rates, `${API}${queryOf(ENVELOPE.url)}`).body;
    expect(ours._shards.total).toBe(1);
    expect(ours.hits.hits[0]._index).toBe('ceilingrates');
    expect(ours.hits.hits[0]._source).not.toHaveProperty('data_source');
    expect(typeof ours.hits.hits[0]._source.security_clearance).toBe('string');
    expect(Object.keys(ours.aggregations).indexOf('histogram_percentiles')).toBeGreaterThan(2);
  });
});

describe('Site Scanning in the production dialect', () => {
  let sites: Engine;
  beforeAll(async () => {
    const recorded: Record<string, unknown> = SITE_2022.record;
    const record = Object.fromEntries(WEBSITE_FIELDS.map(([name]) => [name, recorded[name] ?? null])) as unknown as WebsiteRecord;
    const db = await emptyDatabase('websites');
    insertWebsites(db, [
      { ...record, robots_txt_final_url: 'https://www.gsa.gov/robots.txt', robots_txt_final_url_status_code: 200 },
      { ...record, target_url: 'www.gsa.gov', robots_txt_final_url: 'https://www.gsa.gov/robots.txt', robots_txt_final_url_status_code: 404 },
    ]);
    sites = engineOver('websites', db);
  });

  it("names each field as production's current records do, with production's types", () => {
    const ours = get(sites, '/websites/gsa.gov', 'production').body;
    const recorded = SITE_2022.record;
    const renamed: Record<string, string> = {
      target_url_domain: 'initial_base_domain',
      final_url: 'url',
      final_url_live: 'live',
      final_url_domain: 'base_domain',
      final_url_status_code: 'status_code',
      target_url_404_test: '404_test',
      target_url_redirects: 'redirect',
      dap_detected_final_url: 'dap',
      main_element_present_final_url: 'main_element_present',
      target_url: 'initial_domain',
      target_url_branch: 'branch',
      target_url_agency_owner: 'agency',
      target_url_bureau_owner: 'bureau',
    };
    for (const [name, value] of Object.entries(recorded)) {
      if (name === 'final_url_same_domain' || name === 'final_url_same_website') {
        expect(ours, name).not.toHaveProperty(name);
        continue;
      }
      const production = renamed[name] ?? name;
      expect(ours[production], name).toEqual(value);
      if (production !== name) expect(ours, name).not.toHaveProperty(name);
    }
    expect(ours).toHaveProperty('primary_scan_status');
    expect(Object.keys(ours).filter((k) => k.startsWith('ds_'))).toEqual([]);
    expect(Object.keys(ours).filter((k) => k.startsWith('uswds_')).length).toBeGreaterThan(10);
  });

  it("has exactly the keys of production's serializer of 2026-08, its fields this data lacks null", () => {
    for (const record of [get(sites, '/websites/gsa.gov', 'production').body, get(sites, '/websites?limit=1', 'production').body.items[0]]) {
      expect(Object.keys(record).sort()).toEqual([...SERIALIZER_KEYS_2026_08].sort());
      for (const absent of ['feedback_links_text', 'largest_contentful_paint', 'cumulative_layout_shift', 'www_same', 'tooling', 'hyperlink_domains']) {
        expect(record[absent], absent).toBeNull();
      }
      // The 2024 documentation's four checks are gone from production's records (the interface dialect keeps them).
      for (const gone of ['robots_txt_final_url_live', 'robots_txt_target_url_redirects', 'sitemap_xml_final_url_live', 'sitemap_xml_target_url_redirects']) {
        expect(record, gone).not.toHaveProperty(gone);
      }
    }
    expect(get(sites, '/websites/gsa.gov').body.robots_txt_final_url_live).toBe(true);
  });

  it('pages hold the same records; the interface dialect keeps the 2.0 names', () => {
    const page = get(sites, '/websites?limit=1', 'production').body;
    expect(Object.keys(page)).toEqual(['items', 'meta', 'links']);
    expect(page.items[0]).toHaveProperty('initial_domain');
    const plain = get(sites, '/websites?limit=1').body;
    expect(plain.items[0]).toHaveProperty('target_url');
    expect(plain.items[0]).not.toHaveProperty('initial_domain');
  });
});

describe('docs/api/differences.md', () => {
  const page = readFileSync(new URL('../../../docs/api/differences.md', import.meta.url), 'utf8');
  it('says what the production dialect answers in every row of both tables', () => {
    const lines = page.split('\n');
    const headers = lines.flatMap((line, i) => (line.startsWith('|') && line.trim().endsWith('| Production dialect |') ? [i] : []));
    expect(headers).toHaveLength(2);
    for (const header of headers) {
      const rows = lines.slice(
        header + 2,
        lines.findIndex((line, i) => i > header && !line.startsWith('|')),
      );
      expect(rows.length).toBeGreaterThanOrEqual(10);
      for (const row of rows) {
        const cells = row
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim());
        expect(cells.length, row).toBe(lines[header].split('|').length - 2);
        expect(cells.at(-1), row).not.toBe('');
      }
    }
  });

  it('ends with the switching checklist: origin, key, 403 and 429, CORS, what the dialect already does', () => {
    const checklist = page.slice(page.indexOf('## Switching checklist'));
    expect(page.indexOf('## Switching checklist')).toBeGreaterThan(0);
    expect(checklist.match(/^## /gm)).toHaveLength(1);
    for (const needle of ['**Origin.**', '**Key.**', '**403 and 429.**', '**CORS.**', '**What the dialect already does.**'])
      expect(checklist).toContain(needle);
  });
});

describe('values production was not seen answering', () => {
  it('a clearance neither yes nor no is null in _source and has no bucket; NONE education is None, as the price lists write it; Both worksite stays', async () => {
    const [first] = engineerOnes();
    const db = await emptyDatabase('ceilingrates');
    insertCeilingRates(db, [
      { ...first, id: 1, security_clearance: 'As Required', education_level: 'NONE', worksite: 'Both' },
      { ...first, id: 2, security_clearance: 'Yes' },
    ]);
    const engine = engineOver('ceilingrates', db);
    const answer = get(engine, API, 'production').body;
    const byId = (id: string) => answer.hits.hits.find((h: { _id: string }) => h._id === id)._source;
    const source = byId('1');
    expect([source.security_clearance, source.education_level, source.worksite]).toEqual([null, 'None', 'Both']);
    expect(answer.aggregations.security_clearance.buckets).toEqual([{ key: 'true', doc_count: 1 }]);
    expect(answer.aggregations.education_level.buckets.map((b: { key: string }) => b.key)).toContain('None');
    expect(get(engine, `${API}?filter=education_level:None`, 'production').body.hits.total.value).toBe(1);
    expect(byId('2').security_clearance).toBe(true);
  });
});
