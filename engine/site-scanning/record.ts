/**
 * The website scan record as the API returns it (WebsiteApiResultDto). Key order here IS the JSON key
 * order: the 2.0 interface's 16 fields, then production's documented DTO order (docs/api/site-scanning.md).
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
  dap_parameters_final_url: Record<string, string> | null;
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
}

/** How a field is stored in SQLite and turned back into JSON. */
export type FieldKind = 'text' | 'number' | 'boolean' | 'list' | 'object';

/** Every field in record order with its storage kind; the schema, the insert and the shaping all read this. */
export const WEBSITE_FIELDS = [
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

export type WebsiteField = (typeof WEBSITE_FIELDS)[number][0];

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

/** Compile-time check that WEBSITE_FIELDS names every record field (adding a field without it fails here). */
export const EVERY_FIELD_LISTED: [Exclude<keyof WebsiteRecord, WebsiteField>] extends [never] ? true : never = true;
