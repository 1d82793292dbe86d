/**
 * A Site Scanning snapshot row (either column generation, CSV or JSON) → the API record, as data.md maps
 * it: target_url ← initial_domain, final_url ← url, ds_* ← uswds_*, the comparisons derived from the
 * domains, and so on. Values are normalised by ../values.ts and noted in the report.
 */
import { SCAN_STATUSES, WEBSITE_FIELDS, type FieldKind, type ScanStatus, type WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { quote, type ValueNotes } from '../report.ts';
import type { MapResult, SourceFields } from '../fields.ts';
import { boolean, integer, isBlank, list, number, stringObject, text } from '../values.ts';
import { FURTHER_COLUMNS, type FurtherField, type WebsiteColumn } from './columns.ts';

const STATUSES: ReadonlySet<string> = new Set(SCAN_STATUSES);

/** Where target_url comes from in this file: the target column, or (a final-URL-only file) the final host. */
export type TargetSource = 'initial_domain' | 'domain' | 'url';

/** The target column, else the final website, else the final URL: see docs/decisions/0501. */
export function targetSource(has: (key: WebsiteColumn) => boolean): TargetSource | null {
  if (has('initial_domain')) return 'initial_domain';
  if (has('domain')) return 'domain';
  if (has('url')) return 'url';
  return null;
}

/** A host name as the record stores it: lower case, no scheme, no path. */
export function hostName(value: string): string {
  const trimmed = value.trim().toLowerCase();
  const withoutScheme = trimmed.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  return withoutScheme.replace(/[/?#].*$/, '');
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** ISO 8601 as is; a date-time without zone or in `M/D/YYYY H:MM` form (spreadsheet re-saves) read as UTC. */
export function scanDate(value: unknown, notes: ValueNotes): string | null {
  const raw = text(value);
  if (raw === null) return null;
  const trimmed = raw.trim();
  if (ISO_DATE_TIME.test(trimmed)) return trimmed;
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?$/.exec(trimmed);
  let parts: number[] | null = null;
  if (m) parts = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), Math.round(Number(m[7] ?? 0) * 1000)];
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(trimmed);
  if (m) parts = [Number(m[3]), Number(m[1]), Number(m[2]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), 0];
  if (parts) {
    const [y, mo, d, h, mi, s, ms] = parts;
    const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
    if (date.getUTCMonth() === mo - 1 && date.getUTCDate() === d) {
      const iso = date.toISOString();
      notes.note('scan_date', 'date-time without zone read as UTC', 'normalised', raw, iso);
      return iso;
    }
  }
  notes.note('scan_date', 'not an ISO 8601 date-time', 'kept-original', raw, raw);
  return raw;
}

/** The status; a file without the column gets "completed" where the scan reached a final URL (decision 0501). */
function scanStatus(hasColumn: boolean, raw: unknown, finalUrl: string | null, notes: ValueNotes): ScanStatus {
  if (!hasColumn) return finalUrl !== null ? 'completed' : 'unknown_error';
  if (isBlank(raw)) {
    notes.note('scan_status', 'blank scan status as unknown_error', 'normalised', raw, 'unknown_error');
    return 'unknown_error';
  }
  const value = String(raw)
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (STATUSES.has(value)) {
    if (value !== raw) notes.note('scan_status', 'case or spacing of the status', 'normalised', raw, value);
    return value as ScanStatus;
  }
  notes.note('scan_status', 'status outside the API enum as unknown_error', 'normalised', raw, 'unknown_error');
  return 'unknown_error';
}

/** "true"/"false" from the file's own column when it has one, else by comparing the two domains. */
function sameDomain(explicit: boolean | null, a: string | null, b: string | null): boolean | null {
  if (explicit !== null) return explicit;
  if (a === null || b === null) return null;
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The snapshot's `""` (no parameters found) is preserved from a typed source; otherwise an object of strings. */
function dapParameters(typed: boolean, value: unknown, notes: ValueNotes): Record<string, string> | '' | null {
  if (typed && value === '') return '';
  return stringObject(value, 'dap_parameters_final_url', notes);
}

const KIND_OF: ReadonlyMap<string, FieldKind> = new Map(WEBSITE_FIELDS);

/** Every further field, read by the kind the record declares for it. */
function furtherFields(
  get: (key: WebsiteColumn, field: string) => unknown,
  str: (key: WebsiteColumn, field: string) => string | null,
  notes: ValueNotes,
): Pick<WebsiteRecord, FurtherField> {
  const fields: Record<string, unknown> = {};
  for (const field of Object.keys(FURTHER_COLUMNS) as FurtherField[]) {
    const kind = KIND_OF.get(field);
    if (kind === 'boolean') fields[field] = boolean(get(field, field), field, notes);
    else if (kind === 'number') fields[field] = number(get(field, field), field, notes);
    else if (kind === 'list') fields[field] = list(get(field, field), field, notes);
    else fields[field] = str(field, field);
  }
  return fields as Pick<WebsiteRecord, FurtherField>;
}

export function mapWebsite(row: SourceFields<WebsiteColumn>, target: TargetSource, notes: ValueNotes, snapshotDate?: string): MapResult<WebsiteRecord> {
  /** The raw value, with the representative sample's `--` (not applicable) read as absent. */
  const get = (key: WebsiteColumn, field: string): unknown => {
    const value = row.get(key);
    if (typeof value === 'string' && value.trim() === '--') {
      notes.note(field, '"--" placeholder as null', 'normalised', value, null);
      return null;
    }
    return value;
  };
  // A typed source's string is preserved: its `""` is a value of its own (977 bureaus of the 2025 snapshot are
  // `""`), and so are names with trailing spaces.
  const str = (key: WebsiteColumn, field: string): string | null => {
    const value = get(key, field);
    return row.typed && typeof value === 'string' ? value : text(value);
  };
  const bool = (key: WebsiteColumn, field: string): boolean | null => boolean(get(key, field), field, notes);
  const int = (key: WebsiteColumn, field: string): number | null => integer(get(key, field), field, notes);

  const rawTarget = text(get(target, 'target_url'));
  if (rawTarget === null) return { ok: false, reason: 'no target URL (initial_domain / target_url is empty)' };
  const targetUrl = hostName(rawTarget);
  if (targetUrl === '') return { ok: false, reason: `target URL ${quote(rawTarget)} has no host name` };
  if (target === 'initial_domain' && targetUrl !== rawTarget)
    notes.note('target_url', 'host name lower-cased or URL reduced to its host', 'normalised', rawTarget, targetUrl);

  const finalUrl = str('url', 'final_url');
  const initialBase = str('initial_base_domain', 'target_url_domain');
  const finalBase = str('base_domain', 'final_url_domain');
  const finalWebsite = str('domain', 'final_url_website');
  const sameDomainValue = sameDomain(bool('same_domain', 'final_url_same_domain'), finalBase, initialBase);
  const initialDomain = target === 'initial_domain' ? targetUrl : null;

  const record: WebsiteRecord = {
    scan_date: scanDate(get('scan_date', 'scan_date'), notes) ?? (snapshotDate ? `${snapshotDate}T00:00:00.000Z` : null),
    target_url_domain: initialBase,
    scan_status: scanStatus(row.has('primary_scan_status'), get('primary_scan_status', 'scan_status'), finalUrl, notes),
    final_url: finalUrl,
    final_url_live: bool('live', 'final_url_live'),
    final_url_domain: finalBase,
    final_url_website: finalWebsite,
    final_url_MIMEType: str('media_type', 'final_url_MIMEType'),
    final_url_same_domain: sameDomainValue,
    final_url_status_code: int('status_code', 'final_url_status_code'),
    final_url_same_website: sameDomain(bool('same_website', 'final_url_same_website'), finalWebsite, initialDomain),
    target_url_404_test: bool('404_test', 'target_url_404_test'),
    target_url_redirects: bool('redirect', 'target_url_redirects'),
    ds_usa_classes: int('uswds_usa_classes', 'ds_usa_classes'),
    ds_usa_class_list: list(get('uswds_usa_class_list', 'ds_usa_class_list'), 'ds_usa_class_list', notes),
    ds_usa_elements_list: list(get('uswds_usa_elements_list', 'ds_usa_elements_list'), 'ds_usa_elements_list', notes),
    ds_banner_heres_how: bool('uswds_banner_heres_how', 'ds_banner_heres_how'),
    ds_semantic_version: str('uswds_semantic_version', 'ds_semantic_version'),
    ds_count: int('uswds_count', 'ds_count'),
    dap_detected_final_url: bool('dap', 'dap_detected_final_url'),
    dap_parameters_final_url: dapParameters(row.typed, get('dap_parameters', 'dap_parameters_final_url'), notes),
    og_title_final_url: str('og_title', 'og_title_final_url'),
    og_description_final_url: str('og_description', 'og_description_final_url'),
    main_element_present_final_url: bool('main_element_present', 'main_element_present_final_url'),
    robots_txt_detected: bool('robots_txt_detected', 'robots_txt_detected'),
    sitemap_xml_detected: bool('sitemap_xml_detected', 'sitemap_xml_detected'),
    third_party_service_domains: list(get('third_party_service_domains', 'third_party_service_domains'), 'third_party_service_domains', notes),
    third_party_service_count: int('third_party_service_count', 'third_party_service_count'),
    cms: str('cms', 'cms'),
    target_url: targetUrl,
    target_url_branch: str('branch', 'target_url_branch'),
    target_url_agency_owner: str('agency', 'target_url_agency_owner'),
    target_url_bureau_owner: str('bureau', 'target_url_bureau_owner'),
    ...furtherFields((key, field) => get(key, field), str, notes),
  };
  return { ok: true, record };
}
