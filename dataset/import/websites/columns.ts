import type { AliasTable } from '../columns.ts';

/**
 * Canonical keys are the current snapshot's column names (data.md), plus the two comparison fields only
 * the previous generation writes. Aliases: current name first, then the previous generation's name,
 * then the API record's own name (a JSON file of API records).
 */
export const WEBSITE_COLUMNS = {
  initial_domain: ['initial_domain', 'target_url'],
  initial_base_domain: ['initial_base_domain', 'target_url_domain'],
  url: ['url', 'final_url'],
  live: ['live', 'final_url_live'],
  base_domain: ['base_domain', 'final_url_domain'],
  domain: ['domain', 'final_url_website'],
  media_type: ['media_type', 'final_url_mimetype', 'final_url_MIMEType'],
  status_code: ['status_code', 'final_url_status_code'],
  same_domain: ['final_url_same_domain'],
  same_website: ['final_url_same_website'],
  '404_test': ['404_test', 'target_url_404_test'],
  redirect: ['redirect', 'target_url_redirects'],
  primary_scan_status: ['primary_scan_status', 'scan_status'],
  scan_date: ['scan_date'],
  uswds_usa_classes: ['uswds_usa_classes', 'usa_classes', 'ds_usa_classes'],
  uswds_usa_class_list: ['uswds_usa_class_list', 'usa_class_list', 'ds_usa_class_list'],
  uswds_usa_elements_list: ['uswds_usa_elements_list', 'usa_elements_list', 'ds_usa_elements_list'],
  uswds_banner_heres_how: ['uswds_banner_heres_how', 'ds_banner_heres_how'],
  uswds_semantic_version: ['uswds_semantic_version', 'ds_semantic_version'],
  uswds_count: ['uswds_count', 'ds_count'],
  dap: ['dap', 'dap_detected_final_url'],
  dap_parameters: ['dap_parameters', 'dap_parameters_final_url'],
  og_title: ['og_title', 'og_title_final_url'],
  og_description: ['og_description', 'og_description_final_url'],
  main_element_present: ['main_element_present', 'main_element_present_final_url'],
  robots_txt_detected: ['robots_txt_detected', 'robots_txt_final_url_live'],
  sitemap_xml_detected: ['sitemap_xml_detected', 'sitemap_xml_final_url_live'],
  third_party_service_domains: ['third_party_service_domains'],
  third_party_service_count: ['third_party_service_count'],
  cms: ['cms'],
  branch: ['branch', 'target_url_branch'],
  agency: ['agency', 'target_url_agency_owner'],
  bureau: ['bureau', 'target_url_bureau_owner'],
} as const satisfies AliasTable<string>;

export type WebsiteColumn = keyof typeof WEBSITE_COLUMNS;
