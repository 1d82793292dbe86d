/**
 * The website scan record as stored, and as the API returns it (WebsiteApiResultDto) with the derived checks
 * (DerivedChecks) placed among the further fields. Key order here IS the JSON key order: the 2.0 interface's 16
 * fields, then production's documented DTO order, then the snapshot's further fields (docs/api/site-scanning.md).
 */
export interface WebsiteRecord {
  scan_date: string | null;
  target_url_domain: string | null;
  scan_status: ScanStatus;
  final_url: string | null;
  final_url_live: boolean | null;
  final_url_domain: string | null;
  final_url_website: string | null;
  final_url_MIMEType: string | null;
  /**
   * A JSON boolean, as every recorded production record (2021–2024) has it. The 2.0 interface declares a string
   * but describes a boolean, and `"false"` as a string is truthy in JavaScript (docs/api/differences.md).
   */
  final_url_same_domain: boolean | null;
  final_url_status_code: number | null;
  final_url_same_website: boolean | null;
  target_url_404_test: boolean | null;
  target_url_redirects: boolean | null;
  ds_usa_classes: number | null;
  ds_usa_class_list: string[] | null;
  ds_usa_elements_list: string[] | null;
  ds_banner_heres_how: boolean | null;
  ds_semantic_version: string | null;
  ds_count: number | null;
  dap_detected_final_url: boolean | null;
  /** An object of the DAP parameters; the published snapshot also has `""` where the scan found none. */
  dap_parameters_final_url: Record<string, string> | '' | null;
  og_title_final_url: string | null;
  og_description_final_url: string | null;
  main_element_present_final_url: boolean | null;
  robots_txt_detected: boolean | null;
  sitemap_xml_detected: boolean | null;
  third_party_service_domains: string[] | null;
  third_party_service_count: number | null;
  cms: string | null;
  /** The target host name, e.g. `search.usa.gov`: the record's identity and the listing order. */
  target_url: string;
  target_url_branch: string | null;
  target_url_agency_owner: string | null;
  target_url_bureau_owner: string | null;
  // The snapshot's further fields (docs/api/site-scanning.md#further-fields): named as production's record named
  // them in the interface's generation (2021-2024, `ds_` for `uswds_`), else by today's snapshot name.
  name: string | null;
  initial_url: string | null;
  initial_top_level_domain: string | null;
  top_level_domain: string | null;
  filter: boolean | null;
  source_list: string[] | null;
  accessibility_scan_status: string | null;
  dns_scan_status: string | null;
  not_found_scan_status: string | null;
  performance_scan_status: string | null;
  robots_txt_scan_status: string | null;
  security_scan_status: string | null;
  sitemap_xml_scan_status: string | null;
  www_scan_status: string | null;
  page_hash: string | null;
  accessibility_violations: string | null;
  pageviews: number | null;
  visits: number | null;
  dns_ipv6: boolean | null;
  hostname: string | null;
  login_provider: string | null;
  login: string[] | null;
  site_search: boolean | null;
  search_dot_gov: boolean | null;
  dap_version: string | null;
  ga_tag_id: string | null;
  third_party_service_urls: string[] | null;
  cookie_domains: string[] | null;
  viewport_meta_tag: boolean | null;
  required_links_url: string[] | null;
  required_links_text: string[] | null;
  https_enforced: boolean | null;
  hsts: boolean | null;
  title: string | null;
  description: string | null;
  keywords: string | null;
  og_article_published_final_url: string | null;
  og_article_modified_final_url: string | null;
  og_image: string | null;
  og_type: string | null;
  og_url: string | null;
  canonical_link: string | null;
  language: string | null;
  language_link: string | null;
  robots_txt_final_url: string | null;
  robots_txt_final_url_status_code: number | null;
  robots_txt_final_url_mimetype: string | null;
  robots_txt_final_url_filesize_in_bytes: number | null;
  robots_txt_crawl_delay: number | null;
  robots_txt_sitemap_locations: string[] | null;
  sitemap_xml_final_url: string | null;
  sitemap_xml_final_url_status_code: number | null;
  sitemap_xml_final_url_mimetype: string | null;
  sitemap_xml_final_url_filesize_in_bytes: number | null;
  sitemap_xml_count: number | null;
  sitemap_xml_lastmod: string | null;
  sitemap_xml_pdf_count: number | null;
  sitemap_xml_page_hash: string | null;
  ds_favicon: number | null;
  ds_favicon_in_css: number | null;
  ds_publicsans_font: number | null;
  ds_inline_css: number | null;
  ds_string: number | null;
  ds_string_in_css: number | null;
  ds_version: number | null;
  www_url: string | null;
  www_status_code: number | null;
  www_title: string | null;
}

/**
 * The robots.txt and sitemap.xml checks production's 2021–2024 records had, which the snapshot has no column for:
 * made from the stored fields as a record is answered (derived.ts), never stored. In the answer they follow the
 * file's status code, as in those records (FURTHER_FIELDS).
 */
export interface DerivedChecks {
  /** The file's final URL answered 2xx; null without a status code. */
  robots_txt_final_url_live: boolean | null;
  /** The file was reached at another address than `https://<target_url>/robots.txt`; null without a final URL. */
  robots_txt_target_url_redirects: boolean | null;
  sitemap_xml_final_url_live: boolean | null;
  sitemap_xml_target_url_redirects: boolean | null;
}

/** A record as the API answers it: the stored fields and the derived checks, keys in ANSWERED_FIELDS order. */
export type WebsiteAnswer = WebsiteRecord & DerivedChecks;

/** How a field is stored in SQLite and turned back into JSON. */
export type FieldKind = 'text' | 'number' | 'boolean' | 'list' | 'object';

/** The interface's 16 fields and production's documented DTO fields, in record order. */
const CORE_FIELDS = [
  ['scan_date', 'text'],
  ['target_url_domain', 'text'],
  ['scan_status', 'text'],
  ['final_url', 'text'],
  ['final_url_live', 'boolean'],
  ['final_url_domain', 'text'],
  ['final_url_website', 'text'],
  ['final_url_MIMEType', 'text'],
  ['final_url_same_domain', 'boolean'],
  ['final_url_status_code', 'number'],
  ['final_url_same_website', 'boolean'],
  ['target_url_404_test', 'boolean'],
  ['target_url_redirects', 'boolean'],
  ['ds_usa_classes', 'number'],
  ['ds_usa_class_list', 'list'],
  ['ds_usa_elements_list', 'list'],
  ['ds_banner_heres_how', 'boolean'],
  ['ds_semantic_version', 'text'],
  ['ds_count', 'number'],
  ['dap_detected_final_url', 'boolean'],
  ['dap_parameters_final_url', 'object'],
  ['og_title_final_url', 'text'],
  ['og_description_final_url', 'text'],
  ['main_element_present_final_url', 'boolean'],
  ['robots_txt_detected', 'boolean'],
  ['sitemap_xml_detected', 'boolean'],
  ['third_party_service_domains', 'list'],
  ['third_party_service_count', 'number'],
  ['cms', 'text'],
  ['target_url', 'text'],
  ['target_url_branch', 'text'],
  ['target_url_agency_owner', 'text'],
  ['target_url_bureau_owner', 'text'],
] as const satisfies readonly (readonly [keyof WebsiteRecord, FieldKind])[];

/**
 * The snapshot's further fields (docs/api/site-scanning.md#further-fields), after the core ones in record order;
 * among them the derived checks (DerivedChecks), marked `derived`: answered with the JSON type of their kind,
 * never stored.
 */
export const FURTHER_FIELDS = [
  ['name', 'text'],
  ['initial_url', 'text'],
  ['initial_top_level_domain', 'text'],
  ['top_level_domain', 'text'],
  ['filter', 'boolean'],
  ['source_list', 'list'],
  ['accessibility_scan_status', 'text'],
  ['dns_scan_status', 'text'],
  ['not_found_scan_status', 'text'],
  ['performance_scan_status', 'text'],
  ['robots_txt_scan_status', 'text'],
  ['security_scan_status', 'text'],
  ['sitemap_xml_scan_status', 'text'],
  ['www_scan_status', 'text'],
  ['page_hash', 'text'],
  ['accessibility_violations', 'text'],
  ['pageviews', 'number'],
  ['visits', 'number'],
  ['dns_ipv6', 'boolean'],
  ['hostname', 'text'],
  ['login_provider', 'text'],
  ['login', 'list'],
  ['site_search', 'boolean'],
  ['search_dot_gov', 'boolean'],
  ['dap_version', 'text'],
  ['ga_tag_id', 'text'],
  ['third_party_service_urls', 'list'],
  ['cookie_domains', 'list'],
  ['viewport_meta_tag', 'boolean'],
  ['required_links_url', 'list'],
  ['required_links_text', 'list'],
  ['https_enforced', 'boolean'],
  ['hsts', 'boolean'],
  ['title', 'text'],
  ['description', 'text'],
  ['keywords', 'text'],
  ['og_article_published_final_url', 'text'],
  ['og_article_modified_final_url', 'text'],
  ['og_image', 'text'],
  ['og_type', 'text'],
  ['og_url', 'text'],
  ['canonical_link', 'text'],
  ['language', 'text'],
  ['language_link', 'text'],
  ['robots_txt_final_url', 'text'],
  ['robots_txt_final_url_status_code', 'number'],
  ['robots_txt_final_url_live', 'boolean', 'derived'],
  ['robots_txt_target_url_redirects', 'boolean', 'derived'],
  ['robots_txt_final_url_mimetype', 'text'],
  ['robots_txt_final_url_filesize_in_bytes', 'number'],
  ['robots_txt_crawl_delay', 'number'],
  ['robots_txt_sitemap_locations', 'list'],
  ['sitemap_xml_final_url', 'text'],
  ['sitemap_xml_final_url_status_code', 'number'],
  ['sitemap_xml_final_url_live', 'boolean', 'derived'],
  ['sitemap_xml_target_url_redirects', 'boolean', 'derived'],
  ['sitemap_xml_final_url_mimetype', 'text'],
  ['sitemap_xml_final_url_filesize_in_bytes', 'number'],
  ['sitemap_xml_count', 'number'],
  ['sitemap_xml_lastmod', 'text'],
  ['sitemap_xml_pdf_count', 'number'],
  ['sitemap_xml_page_hash', 'text'],
  ['ds_favicon', 'number'],
  ['ds_favicon_in_css', 'number'],
  ['ds_publicsans_font', 'number'],
  ['ds_inline_css', 'number'],
  ['ds_string', 'number'],
  ['ds_string_in_css', 'number'],
  ['ds_version', 'number'],
  ['www_url', 'text'],
  ['www_status_code', 'number'],
  ['www_title', 'text'],
] as const satisfies readonly (readonly [keyof WebsiteAnswer, FieldKind, 'derived'?])[];

/** Every field the API answers, in answer order with its kind: the OpenAPI schema and the shaping read this. */
export const ANSWERED_FIELDS = [...CORE_FIELDS, ...FURTHER_FIELDS] as const;

type AnsweredEntry = (typeof ANSWERED_FIELDS)[number];
type DerivedEntry = Extract<AnsweredEntry, readonly [string, FieldKind, 'derived']>;
type StoredEntry = Exclude<AnsweredEntry, DerivedEntry>;

/**
 * The stored fields in record order with their storage kind (ANSWERED_FIELDS without the derived checks): the
 * SQLite stored record, the PostgreSQL columns, the import and the history read this.
 */
export const WEBSITE_FIELDS: readonly StoredEntry[] = ANSWERED_FIELDS.filter((entry): entry is StoredEntry => entry.length === 2);

export type WebsiteField = StoredEntry[0];

export type DerivedField = DerivedEntry[0];

export type FurtherFieldName = Exclude<(typeof FURTHER_FIELDS)[number][0], DerivedField>;

/** The further fields all null: a record made without a snapshot (the synthetic profile, tests) has none of them. */
export const NO_FURTHER_FIELDS = Object.freeze(
  Object.fromEntries(FURTHER_FIELDS.filter((entry) => entry.length === 2).map(([name]) => [name, null])),
) as Readonly<Pick<WebsiteRecord, FurtherFieldName>>;

/** The interface's scan_status values, in its order (also the order of the 400 message's list). */
export const SCAN_STATUSES = [
  'address_unreachable',
  'completed',
  'connection_closed',
  'connection_refused',
  'connection_reset',
  'dns_resolution_error',
  'empty_response',
  'invalid_response',
  'evaluation_failed',
  'execution_context_destroyed',
  'http2_error',
  'invalid_ssl_cert',
  'not_applicable',
  'page_frame_not_ready',
  'skipped',
  'ssl_version_cipher_mismatch',
  'timeout',
  'too_many_redirects',
  'invalid_auth_credentials',
  'ssl_protocol_error',
  'aborted',
  'unknown_error',
] as const;

export type ScanStatus = (typeof SCAN_STATUSES)[number];

/** Compile-time checks that WEBSITE_FIELDS names every stored field and ANSWERED_FIELDS every derived one. */
export const EVERY_FIELD_LISTED: [Exclude<keyof WebsiteRecord, WebsiteField>] extends [never] ? true : never = true;
export const EVERY_CHECK_LISTED: [Exclude<keyof DerivedChecks, DerivedField>] extends [never] ? true : never = true;

/**
 * Production's name of each field whose name differs there (docs/api/differences.md#record-field-names): the
 * current records' and the snapshot CSV's name; null for the two comparisons production no longer answers. Read
 * by the production dialect (production.ts); a field not listed has the same name in both. With PRODUCTION_ONLY
 * below, the production dialect's record has exactly the keys of production's serializer (GSA/site-scanning-engine,
 * `Website.serialized()` over entities/core-result.entity.ts and entities/website.entity.ts, 2026-08).
 */
export const PRODUCTION_NAMES: Readonly<Partial<Record<WebsiteField, string | null>>> = {
  target_url_domain: 'initial_base_domain',
  scan_status: 'primary_scan_status',
  final_url: 'url',
  final_url_live: 'live',
  final_url_domain: 'base_domain',
  final_url_website: 'domain',
  final_url_MIMEType: 'media_type',
  final_url_same_domain: null,
  final_url_status_code: 'status_code',
  final_url_same_website: null,
  target_url_404_test: '404_test',
  target_url_redirects: 'redirect',
  ds_usa_classes: 'uswds_usa_classes',
  ds_usa_class_list: 'uswds_usa_class_list',
  ds_usa_elements_list: 'uswds_usa_elements_list',
  ds_banner_heres_how: 'uswds_banner_heres_how',
  ds_semantic_version: 'uswds_semantic_version',
  ds_count: 'uswds_count',
  dap_detected_final_url: 'dap',
  dap_parameters_final_url: 'dap_parameters',
  og_title_final_url: 'og_title',
  og_description_final_url: 'og_description',
  main_element_present_final_url: 'main_element_present',
  target_url: 'initial_domain',
  target_url_branch: 'branch',
  target_url_agency_owner: 'agency',
  target_url_bureau_owner: 'bureau',
  dns_ipv6: 'ipv6',
  og_article_published_final_url: 'og_article_published',
  og_article_modified_final_url: 'og_article_modified',
  robots_txt_final_url: 'robots_txt_url',
  robots_txt_final_url_status_code: 'robots_txt_status_code',
  robots_txt_final_url_mimetype: 'robots_txt_media_type',
  robots_txt_final_url_filesize_in_bytes: 'robots_txt_filesize',
  sitemap_xml_final_url: 'sitemap_xml_url',
  sitemap_xml_final_url_status_code: 'sitemap_xml_status_code',
  sitemap_xml_final_url_mimetype: 'sitemap_xml_media_type',
  sitemap_xml_final_url_filesize_in_bytes: 'sitemap_xml_filesize',
  ds_favicon: 'uswds_favicon',
  ds_favicon_in_css: 'uswds_favicon_in_css',
  ds_publicsans_font: 'uswds_publicsans_font',
  ds_inline_css: 'uswds_inpage_css',
  ds_string: 'uswds_string',
  ds_string_in_css: 'uswds_string_in_css',
  ds_version: 'uswds_version',
};

/**
 * Fields of production's current records that this data has no column for (the published snapshot does not carry
 * them): the production dialect answers each `null`, right after the field it follows in production's snapshot
 * column order (`CoreResult.snapshotColumnOrder`; `www_same`, not there, after `www_title`), in the kind production
 * gives it. Listed in the order they are written.
 */
export const PRODUCTION_ONLY: readonly { readonly name: string; readonly after: WebsiteField; readonly kind: FieldKind }[] = [
  { name: 'hyperlink_domains', after: 'cookie_domains', kind: 'list' },
  { name: 'tooling', after: 'cookie_domains', kind: 'list' },
  { name: 'cumulative_layout_shift', after: 'viewport_meta_tag', kind: 'number' },
  { name: 'largest_contentful_paint', after: 'viewport_meta_tag', kind: 'number' },
  { name: 'feedback_links_text', after: 'required_links_text', kind: 'list' },
  { name: 'www_same', after: 'www_title', kind: 'boolean' },
];
