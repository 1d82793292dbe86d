import type { Database } from 'sql.js';
import { NO_FURTHER_FIELDS, type ScanStatus, type WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { insertWebsites } from '../../../engine/site-scanning/schema.ts';
import { emptyDatabase, engineOver } from '../../../harness/engine.ts';
import type { Engine } from '../../../engine/index.ts';

/** A completed, live scan of `host` with every field set; tests override what they are about. */
export function completed(host: string, base: string, overrides: Partial<WebsiteRecord> = {}): WebsiteRecord {
  return {
    scan_date: '2026-08-20T10:00:00.000Z',
    target_url_domain: base,
    scan_status: 'completed',
    final_url: `https://${host}/`,
    final_url_live: true,
    final_url_domain: base,
    final_url_website: host,
    final_url_MIMEType: 'text/html',
    final_url_same_domain: true,
    final_url_status_code: 200,
    final_url_same_website: true,
    target_url_404_test: true,
    target_url_redirects: false,
    ds_usa_classes: 2,
    ds_usa_class_list: ['usa-banner', 'usa-button'],
    ds_usa_elements_list: null,
    ds_banner_heres_how: true,
    ds_semantic_version: '3.8.1',
    ds_count: 42,
    dap_detected_final_url: false,
    dap_parameters_final_url: null,
    og_title_final_url: `Home | ${host}`,
    og_description_final_url: null,
    main_element_present_final_url: true,
    robots_txt_detected: true,
    sitemap_xml_detected: false,
    third_party_service_domains: ['fonts.googleapis.com'],
    third_party_service_count: 1,
    cms: 'Drupal',
    target_url: host,
    target_url_branch: 'Executive',
    target_url_agency_owner: 'General Services Administration',
    target_url_bureau_owner: 'GSA, TTS',
    ...NO_FURTHER_FIELDS,
    ...overrides,
  };
}

/** A failed scan: identity, ownership and status preserved, every scan field null. */
export function failed(host: string, base: string, status: ScanStatus, owner: Partial<WebsiteRecord> = {}): WebsiteRecord {
  const record = completed(host, base, owner);
  const preserved = new Set(['scan_date', 'target_url_domain', 'target_url', 'target_url_branch', 'target_url_agency_owner', 'target_url_bureau_owner']);
  for (const key of Object.keys(record) as (keyof WebsiteRecord)[]) {
    if (!preserved.has(key)) (record as unknown as Record<string, unknown>)[key] = null;
  }
  record.scan_status = status;
  return record;
}

const NASA = {
  target_url_agency_owner: 'National Aeronautics and Space Administration',
  target_url_bureau_owner: 'NASA Office of the Chief Information Officer',
};
const EPA = { target_url_agency_owner: 'Environmental Protection Agency', target_url_bureau_owner: null };

/**
 * Six hand-made records with known answers, listed here in target_url byte order:
 * alpha.gsa.gov, beta.epa.gov, data.nasa.gov, gsa.gov, nasa.gov, www.epa.gov.
 */
export const KNOWN: readonly WebsiteRecord[] = [
  completed('alpha.gsa.gov', 'gsa.gov', {
    dap_detected_final_url: true,
    dap_parameters_final_url: { agency: 'GSA' },
    third_party_service_domains: ['dap.digitalgov.gov', 'www.google-analytics.com'],
    third_party_service_count: 2,
  }),
  failed('beta.epa.gov', 'epa.gov', 'timeout', EPA),
  completed('data.nasa.gov', 'nasa.gov', {
    ...NASA,
    final_url: 'https://www.science.gov/data/',
    final_url_domain: 'science.gov',
    final_url_website: 'www.science.gov',
    final_url_same_domain: false,
    final_url_same_website: false,
    target_url_redirects: true,
    final_url_live: false,
    final_url_status_code: 404,
    ds_usa_classes: 0,
    ds_usa_class_list: null,
    ds_banner_heres_how: false,
    ds_semantic_version: null,
    ds_count: 0,
    third_party_service_domains: null,
    third_party_service_count: 0,
    cms: null,
  }),
  completed('gsa.gov', 'gsa.gov', {
    final_url: 'https://www.gsa.gov/',
    final_url_website: 'www.gsa.gov',
    final_url_same_website: false,
    target_url_redirects: true,
    ds_usa_elements_list: ['usa-banner', 'usa-identifier'],
  }),
  failed('nasa.gov', 'nasa.gov', 'dns_resolution_error', NASA),
  completed('www.epa.gov', 'epa.gov', {
    ...EPA,
    dap_detected_final_url: true,
    ds_usa_classes: 0,
    ds_usa_class_list: null,
    final_url_MIMEType: 'application/xhtml+xml',
  }),
];

/** Inserted out of order on purpose: the API must sort. */
export async function knownDatabase(records: readonly WebsiteRecord[] = KNOWN): Promise<Database> {
  const db = await emptyDatabase('websites');
  insertWebsites(db, [...records].reverse());
  return db;
}

export async function knownEngine(): Promise<Engine> {
  return engineOver('websites', await knownDatabase());
}

/** target_url of each item, the quickest way to read an answer. */
export function hosts(body: { items: WebsiteRecord[] }): string[] {
  return body.items.map((r) => r.target_url);
}
