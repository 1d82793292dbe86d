import { describe, expect, it } from 'vitest';
import type { WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { FURTHER_FIELDS, WEBSITE_FIELDS } from '../../../engine/site-scanning/record.ts';
import { fixture, fixtureText, inChunks, noteOf, readAll } from './helpers.ts';

/** A record with every field null except the identity, to spell out only what a row carries. */
function record(fields: Partial<WebsiteRecord> & Pick<WebsiteRecord, 'target_url' | 'scan_status'>): WebsiteRecord {
  const empty = Object.fromEntries(WEBSITE_FIELDS.map(([name]) => [name, null])) as unknown as WebsiteRecord;
  return { ...empty, ...fields };
}

/** The interface's and production's DTO fields only: the tests below spell those out; the further fields are checked apart. */
function core(full: WebsiteRecord): Partial<WebsiteRecord> {
  const copy: Record<string, unknown> = { ...full };
  for (const [name] of FURTHER_FIELDS) delete copy[name];
  return copy as Partial<WebsiteRecord>;
}

const LONG = 'The Department of Veterans Affairs is the federal agency that provides health care, benefits, and memorial services to veterans. '
  .repeat(30)
  .slice(0, 2000);

const CURRENT: WebsiteRecord[] = [
  record({
    scan_date: '2026-08-21T04:31:13.538Z',
    target_url_domain: 'usa.gov',
    scan_status: 'completed',
    final_url: 'https://search.usa.gov/',
    final_url_live: true,
    final_url_domain: 'usa.gov',
    final_url_website: 'search.usa.gov',
    final_url_MIMEType: 'text/html',
    final_url_same_domain: true,
    final_url_status_code: 200,
    final_url_same_website: true,
    target_url_404_test: true,
    target_url_redirects: false,
    ds_usa_classes: 42,
    ds_usa_class_list: ['usa-banner', 'usa-footer', 'usa-header'],
    ds_usa_elements_list: ['usa-banner'],
    ds_banner_heres_how: true,
    ds_semantic_version: '3.8.0',
    ds_count: 118,
    dap_detected_final_url: true,
    dap_parameters_final_url: { agency: 'GSA', subagency: 'TTS' },
    og_title_final_url: 'Search.gov: the search engine for government websites',
    og_description_final_url: 'Search.gov, a service of GSA',
    main_element_present_final_url: true,
    robots_txt_detected: true,
    sitemap_xml_detected: false,
    third_party_service_domains: ['dap.digitalgov.gov', 'www.googletagmanager.com'],
    third_party_service_count: 2,
    cms: 'Drupal',
    target_url: 'search.usa.gov',
    target_url_branch: 'Executive',
    target_url_agency_owner: 'General Services Administration',
    target_url_bureau_owner: 'GSA, TTS',
  }),
  record({
    scan_date: '2026-08-21T05:00:00.000Z',
    target_url_domain: 'va.gov',
    scan_status: 'timeout',
    target_url: 'old.va.gov',
    target_url_branch: 'Executive',
    target_url_agency_owner: 'Department of Veterans Affairs',
    target_url_bureau_owner: 'Veterans Benefits Administration',
  }),
  record({
    scan_date: '2026-08-21T06:10:00.000Z',
    target_url_domain: 'va.gov',
    scan_status: 'completed',
    final_url: 'https://www.vets.gov/benefits',
    final_url_live: true,
    final_url_domain: 'vets.gov',
    final_url_website: 'www.vets.gov',
    final_url_MIMEType: 'text/html',
    final_url_same_domain: false,
    final_url_status_code: 200,
    final_url_same_website: false,
    target_url_404_test: false,
    target_url_redirects: true,
    ds_usa_classes: 0,
    ds_usa_class_list: null,
    ds_banner_heres_how: false,
    ds_count: 0,
    dap_detected_final_url: false,
    og_title_final_url: 'Benefits,\r\nfor "Veterans"\nand families',
    og_description_final_url: LONG,
    main_element_present_final_url: false,
    third_party_service_domains: null,
    third_party_service_count: 0,
    target_url: 'benefits.va.gov',
    target_url_branch: 'Executive',
    target_url_agency_owner: 'Department of Veterans Affairs',
    target_url_bureau_owner: 'Office of Information and Technology, IT Operations and Services (ITOPS)',
  }),
  record({
    scan_date: '2026-08-20T23:59:59Z',
    target_url_domain: 'nasa.gov',
    scan_status: 'completed',
    final_url: 'https://www.nasa.gov/',
    final_url_live: true,
    final_url_domain: 'nasa.gov',
    final_url_website: 'www.nasa.gov',
    final_url_MIMEType: 'text/html',
    final_url_same_domain: true,
    final_url_status_code: 200,
    final_url_same_website: true,
    target_url_404_test: true,
    target_url_redirects: false,
    ds_usa_classes: 12,
    ds_banner_heres_how: false,
    ds_count: 40,
    dap_detected_final_url: true,
    third_party_service_count: 5,
    target_url: 'www.nasa.gov',
    target_url_branch: 'Executive',
    target_url_agency_owner: 'National Aeronautics and Space Administration',
  }),
  record({ target_url_domain: 'x.gov', scan_status: 'unknown_error', target_url: 'x.gov' }),
];

describe('Site Scanning snapshot CSV, current column names (BOM, CRLF, 104 columns)', () => {
  it('maps each row field by field, in the record key order', async () => {
    const { records } = await readAll(fixture('websites-current.csv'));
    expect(records.map(core)).toEqual(CURRENT.map(core));
    expect(Object.keys(records[0])).toEqual(WEBSITE_FIELDS.map(([name]) => name));
  });

  it('reads the further columns under their record names (older names where the 2021-2024 records had them)', async () => {
    const { records } = await readAll(fixture('websites-current.csv'));
    const raw = fixtureText('websites-current.csv')
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    const header = raw[0].split(',');
    // The fixture's first row is plain (no quoted commas up to these columns).
    const cells = raw[1].split(',');
    const cell = (name: string): string => cells[header.indexOf(name)];
    expect(records[0].initial_url).toBe(cell('initial_url') || null);
    expect(records[0].robots_txt_final_url).toBe(cell('robots_txt_url') || null);
    expect(records[0].dns_ipv6).toBe(cell('ipv6') === '' ? null : cell('ipv6') === 'true');
    expect(records[1].final_url_live).toBe(CURRENT[1].final_url_live);
  });

  it('reads the same records when the text arrives in 7-character chunks (cells split anywhere)', async () => {
    const { records, report } = await readAll(inChunks(fixtureText('websites-current.csv'), 7));
    const whole = await readAll(fixture('websites-current.csv'));
    expect(records).toEqual(whole.records);
    expect(records.map(core)).toEqual(CURRENT.map(core));
    expect(report.rejected.map((row) => row.line)).toEqual([7, 9, 10]);
  });

  it('rejects a short row, a duplicate target and an empty target with their line numbers', async () => {
    const { report } = await readAll(fixture('websites-current.csv'));
    expect(report.rowsRead).toBe(8);
    expect(report.rowsImported).toBe(5);
    expect(report.rejected).toEqual([
      { line: 7, record: 4, reason: '4 fields where the header has 104' },
      { line: 9, record: 6, reason: 'duplicate target_url "search.usa.gov" (first at line 2)' },
      { line: 10, record: 7, reason: 'no target URL (initial_domain / target_url is empty)' },
    ]);
  });

  it('reports the normalised values with examples, and what it could not read', async () => {
    const { report } = await readAll(fixture('websites-current.csv'));
    expect(noteOf(report, 'final_url_status_code', 'decimal form of a whole number')).toMatchObject({
      outcome: 'normalised',
      count: 1,
      examples: [{ line: 8, record: 5, original: '200.0', value: '200' }],
    });
    expect(noteOf(report, 'final_url_live', 'True/TRUE as boolean')?.examples[0]).toMatchObject({ original: 'True', value: 'true' });
    expect(noteOf(report, 'target_url', 'host name lower-cased or URL reduced to its host')?.examples[0]).toMatchObject({
      original: 'WWW.NASA.GOV',
      value: 'www.nasa.gov',
    });
    expect(noteOf(report, 'third_party_service_domains', 'empty list as null')).toMatchObject({ count: 1, examples: [{ original: '[]', value: null }] });
    expect(noteOf(report, 'final_url_live', 'not a boolean')).toMatchObject({ outcome: 'set-to-null', examples: [{ original: 'maybe' }] });
    expect(noteOf(report, 'scan_status', 'status outside the API enum as unknown_error')?.examples[0]).toMatchObject({
      original: 'Something new',
      value: 'unknown_error',
    });
    expect(report.columns.used).toContain('initial_domain');
    expect(report.columns.used).toContain('ga_tag_id');
    expect(report.columns.ignored).not.toContain('ga_tag_id');
  });
});

describe('Site Scanning snapshot CSV, previous column names (LF, TRUE/FALSE, 200.0)', () => {
  it('maps each row field by field', async () => {
    const { records, report } = await readAll(fixture('websites-previous.csv'));
    expect(report.rowsRejected).toBe(0);
    expect(records).toEqual([
      record({
        scan_date: '2023-06-15T04:31:13.538Z',
        target_url_domain: 'gsa.gov',
        scan_status: 'completed',
        final_url: 'https://10x.gsa.gov/',
        final_url_live: true,
        final_url_domain: 'gsa.gov',
        final_url_website: '10x.gsa.gov',
        final_url_MIMEType: 'text/html',
        final_url_same_domain: true,
        final_url_status_code: 200,
        final_url_same_website: true,
        target_url_404_test: true,
        target_url_redirects: false,
        ds_usa_classes: 7,
        ds_usa_class_list: ['usa-banner', 'usa-header'],
        ds_usa_elements_list: null,
        ds_banner_heres_how: true,
        ds_semantic_version: '2.13.3',
        ds_count: 55,
        dap_detected_final_url: true,
        dap_parameters_final_url: { agency: 'GSA' },
        og_title_final_url: '10x',
        main_element_present_final_url: true,
        robots_txt_detected: true,
        sitemap_xml_detected: false,
        third_party_service_domains: ['dap.digitalgov.gov', 'fonts.googleapis.com'],
        third_party_service_count: 2,
        target_url: '10x.gsa.gov',
        target_url_branch: 'Executive',
        target_url_agency_owner: 'General Services Administration',
        target_url_bureau_owner: 'GSA, IDI, ECAS II',
      }),
      record({
        scan_date: '2023-06-15T04:40:00.000Z',
        target_url_domain: 'pnl.gov',
        scan_status: 'completed',
        final_url: 'https://www.flickr.com/photos/pnnl/albums',
        final_url_live: true,
        final_url_domain: 'flickr.com',
        final_url_website: 'www.flickr.com',
        final_url_MIMEType: 'text/html',
        final_url_same_domain: false,
        final_url_status_code: 200,
        final_url_same_website: false,
        target_url_404_test: false,
        target_url_redirects: true,
        dap_detected_final_url: false,
        target_url: 'picturethis.pnl.gov',
        target_url_branch: 'Executive',
        target_url_agency_owner: 'Department of Energy',
        target_url_bureau_owner: 'Pacific Northwest National Laboratory',
      }),
      record({ scan_status: 'unknown_error', target_url: 'www.epa.gov', target_url_agency_owner: 'Environmental Protection Agency' }),
    ]);
    expect(noteOf(report, 'third_party_service_domains', 'Python-style list text')).toBeDefined();
    expect(noteOf(report, 'ds_usa_class_list', 'comma-separated text as list')).toBeDefined();
    expect(noteOf(report, 'scan_date', 'date-time without zone read as UTC')?.examples[0]).toMatchObject({ original: '2023-06-15 04:40:00' });
    expect(noteOf(report, 'final_url', '"--" placeholder as null')?.count).toBe(1);
  });

  it('derives target_url from the final website when the file has no target column, and says so', async () => {
    const csv =
      'final_url,final_url_domain,final_url_website,target_url_agency_owner,target_url_bureau_owner,dap_detected_final_url\n' +
      'https://1.usa.gov/,usa.gov,1.usa.gov,General Services Administration,"GSA, TTS",TRUE\n';
    const { records, report } = await readAll(csv);
    expect(records).toEqual([
      record({
        scan_status: 'completed',
        final_url: 'https://1.usa.gov/',
        final_url_domain: 'usa.gov',
        final_url_website: '1.usa.gov',
        dap_detected_final_url: true,
        target_url: '1.usa.gov',
        target_url_agency_owner: 'General Services Administration',
        target_url_bureau_owner: 'GSA, TTS',
      }),
    ]);
    expect(report.warnings.join(' ')).toMatch(/no target URL column.*final website/);
    expect(report.warnings.join(' ')).toMatch(/no scan status column/);
  });
});

describe('Site Scanning snapshot JSON', () => {
  it('maps typed values, keeps objects, turns [] into null and rejects what is not a record', async () => {
    const { records, report } = await readAll(fixture('websites-snapshot.json'));
    expect(records).toEqual([
      record({
        scan_date: '2026-08-21T04:31:13.538Z',
        target_url_domain: 'usa.gov',
        scan_status: 'completed',
        final_url: 'https://search.usa.gov/',
        final_url_live: true,
        final_url_domain: 'usa.gov',
        final_url_website: 'search.usa.gov',
        final_url_MIMEType: 'text/html',
        final_url_same_domain: true,
        final_url_status_code: 200,
        final_url_same_website: true,
        target_url_404_test: true,
        target_url_redirects: false,
        ds_usa_classes: 3,
        ds_usa_class_list: null,
        ds_banner_heres_how: true,
        ds_semantic_version: '3.8.0',
        ds_count: 20,
        dap_detected_final_url: true,
        dap_parameters_final_url: { agency: 'GSA' },
        og_title_final_url: 'Search.gov',
        main_element_present_final_url: true,
        robots_txt_detected: true,
        sitemap_xml_detected: false,
        third_party_service_domains: ['dap.digitalgov.gov'],
        third_party_service_count: 1,
        target_url: 'search.usa.gov',
        target_url_branch: 'Executive',
        target_url_agency_owner: 'General Services Administration',
        target_url_bureau_owner: 'GSA, TTS',
        name: 'search.usa.gov',
        ga_tag_id: 'G-1,G-2',
      }),
      record({
        scan_date: '2026-08-21T05:00:00.000Z',
        target_url_domain: 'va.gov',
        scan_status: 'dns_resolution_error',
        target_url: 'old.va.gov',
        target_url_branch: 'Executive',
        target_url_agency_owner: 'Department of Veterans Affairs',
        name: 'old.va.gov',
      }),
    ]);
    expect(report.rejected).toEqual([
      { line: null, record: 3, reason: 'no target URL (initial_domain / target_url is empty)' },
      { line: null, record: 4, reason: 'not a JSON object' },
    ]);
  });

  it('reads saved /websites pages (API field names) back into the same records', async () => {
    const { records: first } = await readAll(fixture('websites-current.csv'));
    const pages = [
      { items: first.slice(0, 2), meta: {} },
      { items: first.slice(2), meta: {} },
    ];
    const { records, report } = await readAll(JSON.stringify(pages));
    expect(report.format).toBe('websites-json');
    expect(records).toEqual(first);
  });
});
