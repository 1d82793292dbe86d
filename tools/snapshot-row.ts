/**
 * The inverse of the import mapping: an API record → a row of the real 104-column snapshot CSV, with the
 * columns the API does not carry filled with plausible values of the real kinds (JSON lists of URLs and
 * domains, MD5 hashes, titles, descriptions). For the import timing file and the round-trip test.
 */
import type { Random } from './random.ts';
import type { WebsiteRecord } from '../engine/site-scanning/record.ts';
import { SNAPSHOT_COLUMNS, type SnapshotColumn } from '../dataset/import/websites/snapshot-columns.ts';

const WORDS = [
  'federal',
  'services',
  'program',
  'information',
  'public',
  'health',
  'data',
  'grants',
  'benefits',
  'research',
  'safety',
  'energy',
  'agriculture',
  'veterans',
  'education',
  'resources',
  'office',
  'national',
  'policy',
  'reports',
  'careers',
  'contact',
];
const PATHS = ['about', 'contact', 'privacy', 'foia', 'accessibility', 'no-fear-act', 'inspector-general', 'news', 'careers', 'data', 'site-map'];
const TRACKERS = [
  'dap.digitalgov.gov',
  'www.googletagmanager.com',
  'www.google-analytics.com',
  'fonts.googleapis.com',
  'cdn.jsdelivr.net',
  'search.usa.gov',
  'connect.facebook.net',
  'platform.twitter.com',
  'www.youtube.com',
  'touchpoints.app.cloud.gov',
];

function hex(random: Random, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += '0123456789abcdef'[random.int(0, 15)];
  return out;
}

function sentence(random: Random, words: number): string {
  const parts: string[] = [];
  for (let i = 0; i < words; i++) parts.push(random.pick(WORDS));
  const text = parts.join(' ');
  return text[0].toUpperCase() + text.slice(1);
}

function some<T>(random: Random, items: readonly T[], min: number, max: number): T[] {
  return random.shuffle([...items]).slice(0, random.int(min, Math.min(max, items.length)));
}

const json = (value: unknown): string => JSON.stringify(value);
const flag = (value: boolean | null): string => (value === null ? '' : String(value));
const num = (value: number | null): string => (value === null ? '' : String(value));
const list = (value: readonly string[] | null): string => (value === null ? '' : json(value));

/** The row's cells by column; every column present (empty string = null). */
export function snapshotRow(record: WebsiteRecord, random: Random): Record<SnapshotColumn, string> {
  const row = Object.fromEntries(SNAPSHOT_COLUMNS.map((column) => [column, ''])) as Record<SnapshotColumn, string>;
  const host = record.target_url;
  const tld = (name: string | null): string => (name === null ? '' : name.slice(name.lastIndexOf('.') + 1));
  Object.assign(row, {
    name: (record.final_url_website ?? host).replace(/^www\./, ''),
    initial_url: `https://${host}`,
    initial_domain: host,
    initial_base_domain: record.target_url_domain ?? '',
    initial_top_level_domain: tld(record.target_url_domain),
    agency: record.target_url_agency_owner ?? '',
    bureau: record.target_url_bureau_owner ?? '',
    branch: record.target_url_branch ?? '',
    source_list: json(some(random, ['gov', 'dap', 'pulse', 'omb_idea', 'eotw', 'usagov', 'gov_man', 'uscourts', 'oira'], 1, 4)),
    scan_date: record.scan_date ?? '',
    primary_scan_status: record.scan_status,
    filter: String(random.chance(0.05)),
  });
  for (const status of ['accessibility', 'dns', 'not_found', 'performance', 'robots_txt', 'security', 'sitemap_xml', 'www'] as const) {
    row[`${status}_scan_status`] = record.scan_status === 'completed' ? (random.chance(0.97) ? 'completed' : 'timeout') : record.scan_status;
  }
  if (record.scan_status !== 'completed') return row;

  const finalUrl = record.final_url ?? `https://${host}/`;
  const website = record.final_url_website ?? host;
  const title = sentence(random, random.int(3, 8));
  const description = `${sentence(random, random.int(20, 45))}.`;
  const thirdPartyUrls = (record.third_party_service_domains ?? []).flatMap((domain) =>
    Array.from({ length: random.int(1, 3) }, () => `https://${domain}/${random.pick(PATHS)}/${hex(random, 12)}.js?v=${random.int(1, 99)}`),
  );
  Object.assign(row, {
    redirect: flag(record.target_url_redirects),
    url: finalUrl,
    domain: website,
    base_domain: record.final_url_domain ?? '',
    top_level_domain: tld(record.final_url_domain),
    live: flag(record.final_url_live),
    status_code: num(record.final_url_status_code),
    media_type: record.final_url_MIMEType ?? '',
    '404_test': flag(record.target_url_404_test),
    page_hash: hex(random, 32),
    accessibility_violations: json({
      'color-contrast': random.int(0, 40),
      'html-has-lang': random.int(0, 1),
      'image-alt': random.int(0, 12),
      label: random.int(0, 6),
    }),
    pageviews: String(random.int(0, 2_000_000)),
    visits: String(random.int(0, 900_000)),
    ipv6: String(random.chance(0.6)),
    hostname: random.pick(['cloudfront.net', 'akamaiedge.net', 'azurewebsites.net', 'amazonaws.com', 'cloud.gov', '']),
    cms: record.cms ?? '',
    login_provider: random.chance(0.1) ? 'login.gov' : '',
    // As the published snapshot writes it: the login markers found, a list of strings.
    login: random.chance(0.2) ? json(random.chance(0.5) ? ['"password"', 'type="password"'] : ['"password"', '>Sign In<']) : '',
    site_search: String(random.chance(0.6)),
    search_dot_gov: String(random.chance(0.3)),
    dap: flag(record.dap_detected_final_url),
    dap_parameters: record.dap_parameters_final_url === null ? '' : json(record.dap_parameters_final_url),
    dap_version: record.dap_detected_final_url ? random.pick(['20240712 v8.2', '20230807 v7.01', '20220803 v6.9']) : '',
    ga_tag_id: random.chance(0.4) ? `G-${hex(random, 10).toUpperCase()},UA-${random.int(10_000_000, 99_999_999)}-${random.int(1, 9)}` : '',
    third_party_service_domains: list(record.third_party_service_domains),
    third_party_service_urls: thirdPartyUrls.length > 0 ? json(thirdPartyUrls) : '',
    third_party_service_count: num(record.third_party_service_count),
    cookie_domains: json(some(random, [website, `.${record.final_url_domain ?? host}`, ...TRACKERS], 0, 4)),
    hyperlink_domains: json(
      some(
        random,
        [
          website,
          'www.usa.gov',
          'www.whitehouse.gov',
          'www.oig.gov',
          'www.regulations.gov',
          'www.facebook.com',
          'twitter.com',
          'www.youtube.com',
          'www.linkedin.com',
          'public.govdelivery.com',
          'www.benefits.gov',
          'www.performance.gov',
        ],
        3,
        12,
      ),
    ),
    tooling: json(some(random, ['jquery', 'bootstrap', 'react', 'angular', 'uswds', 'font-awesome', 'modernizr'], 0, 3)),
    viewport_meta_tag: String(random.chance(0.9)),
    cumulative_layout_shift: String(Math.round(random.next() * 500) / 1000),
    largest_contentful_paint: String(random.int(400, 9000)),
    required_links_url: json(some(random, PATHS.slice(0, 7), 0, 7)),
    required_links_text: json(
      some(random, ['about us', 'accessibility', 'budget and performance', 'no fear act', 'foia', 'inspector general', 'privacy policy'], 0, 7),
    ),
    feedback_links_text: random.chance(0.3) ? json(['feedback', 'contact us']) : '',
    https_enforced: String(random.chance(0.95)),
    hsts: String(random.chance(0.7)),
    title,
    description,
    keywords: some(random, WORDS, 0, 8).join(', '),
    og_title: record.og_title_final_url ?? '',
    og_description: record.og_description_final_url ?? '',
    og_article_published: random.chance(0.1) ? '2024-03-05T14:00:00Z' : '',
    og_article_modified: random.chance(0.2) ? '2026-07-30T09:12:44Z' : '',
    og_image: random.chance(0.5) ? `https://${website}/sites/default/files/${hex(random, 8)}/social-share.png` : '',
    og_type: random.chance(0.5) ? 'website' : '',
    og_url: random.chance(0.5) ? finalUrl : '',
    canonical_link: random.chance(0.6) ? finalUrl : '',
    language: random.chance(0.9) ? 'en' : 'en-US',
    language_link: random.chance(0.2) ? json([`https://${website}/es`]) : '',
    main_element_present: flag(record.main_element_present_final_url),
    robots_txt_detected: flag(record.robots_txt_detected),
    robots_txt_url: `https://${website}/robots.txt`,
    robots_txt_status_code: record.robots_txt_detected ? '200' : '404',
    robots_txt_media_type: record.robots_txt_detected ? 'text/plain' : 'text/html',
    robots_txt_filesize: record.robots_txt_detected ? String(random.int(30, 9000)) : '',
    robots_txt_crawl_delay: random.chance(0.1) ? String(random.int(1, 10)) : '',
    robots_txt_sitemap_locations: record.robots_txt_detected ? json([`https://${website}/sitemap.xml`, `https://${website}/sitemap-pages.xml`]) : '',
    sitemap_xml_detected: flag(record.sitemap_xml_detected),
    sitemap_xml_url: `https://${website}/sitemap.xml`,
    sitemap_xml_status_code: record.sitemap_xml_detected ? '200' : '404',
    sitemap_xml_media_type: record.sitemap_xml_detected ? 'application/xml' : 'text/html',
    sitemap_xml_filesize: record.sitemap_xml_detected ? String(random.int(500, 900_000)) : '',
    sitemap_xml_count: record.sitemap_xml_detected ? String(random.int(1, 20_000)) : '',
    sitemap_xml_lastmod: record.sitemap_xml_detected ? '2026-08-19T00:00:00Z' : '',
    sitemap_xml_pdf_count: record.sitemap_xml_detected ? String(random.int(0, 400)) : '',
    sitemap_xml_page_hash: record.sitemap_xml_detected ? hex(random, 32) : '',
    uswds_favicon: String(random.int(0, 1) * 20),
    uswds_favicon_in_css: '0',
    uswds_publicsans_font: String(random.int(0, 1) * 40),
    uswds_inpage_css: String(random.int(0, 1) * 5),
    uswds_usa_class_list: list(record.ds_usa_class_list),
    uswds_banner_heres_how: flag(record.ds_banner_heres_how),
    uswds_usa_classes: num(record.ds_usa_classes),
    uswds_usa_elements_list: list(record.ds_usa_elements_list),
    uswds_string: String(random.int(0, 1)),
    uswds_string_in_css: String(random.int(0, 1) * 20),
    uswds_semantic_version: record.ds_semantic_version ?? '',
    uswds_version: record.ds_semantic_version ? '100' : '0',
    uswds_count: num(record.ds_count),
    www_url: `https://www.${host.replace(/^www\./, '')}/`,
    www_status_code: random.pick(['200', '200', '404', '']),
    www_title: random.chance(0.7) ? title : '',
  });
  return row;
}

/** One CSV line (no line break), quoting only where needed, as the published file does. */
export function csvLine(cells: readonly string[]): string {
  return cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',');
}
