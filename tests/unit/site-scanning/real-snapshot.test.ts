/**
 * The default websites dataset is the real published snapshot of 2025-06-09 (data/). The API's counts must equal
 * counts taken straight from the source records by the independent counter below (it reads the source's own keys
 * and never goes through the import mapping), and the source's oddities must survive the mapping and be found.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/index.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { dataSources } from '../../../tools/real-data.ts';
import { NEWEST_WEEK, newestWeekRecords } from '../../../tools/site-scanning-source/shipped-weeks.ts';
import { realWeek } from '../../../harness/real-fixtures.ts';
import { call, engineOver } from '../../../harness/engine.ts';

type Source = Record<string, unknown>;

/** Counts of a source key's values, by the raw value as the JSON has it (null as "null"). */
function countBy(records: readonly Source[], key: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of records) {
    const value = String(record[key]);
    counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}

let source: Source[];
let engine: Engine;

beforeAll(async () => {
  source = newestWeekRecords();
  const { db } = await realWeek(await loadSqlJs(), NEWEST_WEEK);
  engine = engineOver('websites', db);
});

const total = (url: string): number => call(engine, url).body.meta.totalItems as number;
const enc = encodeURIComponent;

describe('the real 2025-06-09 snapshot, through the API', () => {
  it('holds every current record, and data/sources.json says so', () => {
    expect(source).toHaveLength(36_331);
    expect(total('/websites?limit=1')).toBe(36_331);
    const entry = dataSources()[`site-scanning-${NEWEST_WEEK}.json.br`];
    expect(entry).toMatchObject({ count: 36_331, commit: 'f2cc7380b424ffc84df3293ef461a5af09be694b', dropped: 575, files: 36_906 });
    // The stale files carried the old `public` key: none is left.
    expect(source.filter((r) => 'public' in r)).toHaveLength(0);
  });

  it('counts by agency as the source does (every agency)', () => {
    const byAgency = countBy(source, 'agency');
    for (const [agency, count] of byAgency) {
      if (agency === 'null' || agency === '') continue;
      expect(total(`/websites?limit=1&target_url_agency_owner=${enc(agency)}`), agency).toBe(count);
    }
    expect(byAgency.get('General Services Administration')).toBe(
      call(engine, '/analysis?target_url_agency_owner=General%20Services%20Administration').body.total,
    );
  });

  it('counts by scan status, live and DAP as the source does', () => {
    for (const [status, count] of countBy(source, 'primary_scan_status')) {
      expect(total(`/websites?limit=1&scan_status=${status}`), status).toBe(count);
    }
    const live = countBy(source, 'live');
    expect(total('/websites?limit=1&final_url_live=true')).toBe(live.get('true'));
    expect(total('/websites?limit=1&final_url_live=false')).toBe(live.get('false'));
    expect(live.get('null')).toBe(14_430);
    const dap = countBy(source, 'dap');
    expect(total('/websites?limit=1&dap_detected_final_url=true')).toBe(dap.get('true'));
    expect(total('/websites?limit=1&dap_detected_final_url=false')).toBe(dap.get('false'));
  });

  it('counts distinct final base domains and agencies as /analysis does', () => {
    const analysis = call(engine, '/analysis').body;
    expect(analysis.total).toBe(source.length);
    expect(analysis.totalFinalUrlBaseDomains).toBe(new Set(source.map((r) => String(r.base_domain))).size);
    expect(analysis.totalAgencies).toBe(new Set(source.map((r) => String(r.agency))).size);
  });

  it('answers a sampled record field by field as the documented mapping says', () => {
    const gsa = source.find((r) => r.initial_domain === 'gsa.gov')!;
    const record = call(engine, '/websites/gsa.gov').body;
    expect(record).toMatchObject({
      target_url: 'gsa.gov',
      target_url_domain: gsa.initial_base_domain,
      final_url: gsa.url,
      final_url_live: gsa.live,
      final_url_domain: gsa.base_domain,
      final_url_website: gsa.domain,
      final_url_status_code: gsa.status_code,
      target_url_agency_owner: gsa.agency,
      target_url_bureau_owner: gsa.bureau,
      dap_detected_final_url: gsa.dap,
      dap_parameters_final_url: gsa.dap_parameters,
      ds_favicon: gsa.uswds_favicon,
      ds_inline_css: gsa.uswds_inpage_css,
      robots_txt_final_url: gsa.robots_txt_url,
      sitemap_xml_count: gsa.sitemap_xml_count,
      // Not snapshot columns: made from it as docs/api/differences.md says (gsa.gov's robots.txt is at www.gsa.gov).
      robots_txt_final_url_live: gsa.robots_txt_status_code === 200,
      robots_txt_target_url_redirects: gsa.robots_txt_url !== 'https://gsa.gov/robots.txt',
      dns_ipv6: gsa.ipv6,
      third_party_service_urls: gsa.third_party_service_urls,
      // The copying job removed scan_date: the snapshot's day stands in.
      scan_date: '2025-06-09T00:00:00.000Z',
      ds_usa_elements_list: null,
    });
    expect(record.robots_txt_final_url_live).toBe(true);
    expect(record.robots_txt_target_url_redirects).toBe(true);
    // 33 fields of the interface and production's DTO, then the 68 further fields of the snapshot and the 4 checks
    // made from them.
    expect(Object.keys(record)).toHaveLength(105);
  });
});

describe("the real snapshot's oddities are kept and can be found", () => {
  it('an agency name with U+202F inside filters exactly', () => {
    const names = [...new Set(source.map((r) => String(r.agency)).filter((a) => a.includes('\u202f')))];
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(total(`/websites?limit=1&target_url_agency_owner=${enc(name)}`)).toBe(source.filter((r) => r.agency === name).length);
    }
  });

  it('bureau names with trailing spaces filter exactly; "" is kept as ""', () => {
    const spaced = source.find((r) => typeof r.bureau === 'string' && r.bureau !== '' && r.bureau !== r.bureau.trim())!;
    const bureau = String(spaced.bureau);
    expect(total(`/websites?limit=1&target_url_bureau_owner=${enc(bureau)}`)).toBe(source.filter((r) => r.bureau === bureau).length);
    expect(total(`/websites?limit=1&target_url_bureau_owner=${enc(bureau.trim())}`)).toBe(source.filter((r) => r.bureau === bureau.trim()).length);
    const empty = source.filter((r) => r.bureau === '');
    expect(empty).toHaveLength(977);
    expect(call(engine, `/websites/${enc(String(empty[0].initial_domain))}`).body.target_url_bureau_owner).toBe('');
  });

  it('finds domains with _ and @, final hosts with :port, and 1 kB URLs by /websites/{url}', () => {
    const underscore = source.find((r) => String(r.initial_domain).includes('_'))!;
    expect(call(engine, `/websites/${enc(String(underscore.initial_domain))}`).body.target_url).toBe(underscore.initial_domain);
    const at = source.find((r) => String(r.initial_domain).includes('@'));
    if (at) expect(call(engine, `/websites/${enc(String(at.initial_domain))}`).body.target_url).toBe(at.initial_domain);
    const port = source.find((r) => typeof r.domain === 'string' && r.domain.includes(':'))!;
    const record = call(engine, `/websites/${enc(String(port.initial_domain))}`).body;
    expect(record.final_url_website).toBe(port.domain);
    expect(record.final_url_same_website).toBe(false);
    expect(total(`/websites?limit=1&final_url_domain=${enc(String(port.base_domain))}`)).toBe(source.filter((r) => r.base_domain === port.base_domain).length);
    const long = source.find((r) => typeof r.url === 'string' && r.url.length > 1000)!;
    expect(call(engine, `/websites/${enc(String(long.initial_domain))}`).body.final_url).toBe(long.url);
  });

  it('keeps an unscanned site (live null) with null scan fields', () => {
    const unscanned = source.find((r) => r.live === null)!;
    const record = call(engine, `/websites/${enc(String(unscanned.initial_domain))}`).body;
    expect(record.final_url_live).toBeNull();
    expect(record.scan_status).toBe(unscanned.primary_scan_status);
  });

  it('keeps JSON text in accessibility_violations as text, and objects or "" in dap_parameters', () => {
    const violations = source.find((r) => typeof r.accessibility_violations === 'string')!;
    expect(call(engine, `/websites/${enc(String(violations.initial_domain))}`).body.accessibility_violations).toBe(violations.accessibility_violations);
    const emptyDap = source.find((r) => r.dap_parameters === '')!;
    expect(call(engine, `/websites/${enc(String(emptyDap.initial_domain))}`).body.dap_parameters_final_url).toBe('');
    const objectDap = source.find((r) => r.dap_parameters !== null && typeof r.dap_parameters === 'object')!;
    expect(call(engine, `/websites/${enc(String(objectDap.initial_domain))}`).body.dap_parameters_final_url).toEqual(objectDap.dap_parameters);
  });
});
