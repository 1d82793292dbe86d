/**
 * Site Scanning's parameters and routes: the one table the parser (parse-query.ts), the routes (api.ts), the
 * UI's query state, the API console and the API reference read. Adding a parameter touches this file.
 */
import type { ParameterSpec, RouteTableEntry } from '../http/parameter-spec.ts';
import { SCAN_STATUSES } from './record.ts';

/** The base paths the API answers under: the app root, and production's path for the same API. */
export const SITE_SCANNING_BASES = ['', '/technology/site-scanning/v1'] as const;

/** How a boolean parameter may be spelled (the framework's boolean-string check). */
export const BOOLEAN_SPELLINGS = [
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
] as const;

/** The filters of /websites and /analysis, in the documented order (also the order preserved in links). */
export const WEBSITE_FILTER_PARAMETERS = [
  {
    name: 'target_url_domain',
    in: 'query',
    kind: 'domain',
    maxLength: 2_048,
    example: 'gsa.gov',
    help: 'Base domain of the target URL',
  },
  {
    name: 'final_url_domain',
    in: 'query',
    kind: 'domain',
    maxLength: 2_048,
    example: 'gsa.gov',
    help: 'Base domain of the final URL',
  },
  { name: 'final_url_live', in: 'query', kind: 'boolean', help: 'The final URL answered 2xx' },
  { name: 'target_url_redirects', in: 'query', kind: 'boolean', help: 'The target URL redirected' },
  {
    name: 'target_url_agency_owner',
    in: 'query',
    kind: 'text',
    maxLength: 10_000,
    example: 'General Services Administration',
    help: 'Agency, the whole stored name',
  },
  { name: 'target_url_bureau_owner', in: 'query', kind: 'text', maxLength: 10_000, help: 'Bureau, the whole stored name' },
  { name: 'scan_status', in: 'query', kind: 'enum', values: SCAN_STATUSES, help: 'Outcome of the scan' },
  { name: 'dap_detected_final_url', in: 'query', kind: 'boolean', help: 'Analytics detected at the final URL' },
] as const satisfies readonly ParameterSpec[];

/** Paging of /websites (also validated, then ignored, by /analysis). */
export const PAGE_PARAMETER = {
  name: 'page',
  in: 'query',
  kind: 'integer',
  default: 1,
  min: 1,
  // Links carry page ± 1 as plain digits: every page they can name is one the API accepts.
  max: 1_000_000_000,
  example: '1',
  help: 'Page, from 1',
} as const satisfies ParameterSpec;

export const LIMIT_PARAMETER = {
  name: 'limit',
  in: 'query',
  kind: 'integer',
  default: 10,
  min: 1,
  max: 100,
  example: '10',
  help: 'Items per page, 1 to 100',
} as const satisfies ParameterSpec;

export const URL_PARAMETER = {
  name: 'url',
  in: 'path',
  kind: 'text',
  maxLength: 10_000,
  example: 'gsa.gov',
  help: 'Target URL (a pasted https://…/ works)',
} as const satisfies ParameterSpec;

const LIST_PARAMETERS = [...WEBSITE_FILTER_PARAMETERS, PAGE_PARAMETER, LIMIT_PARAMETER] as const;

export const SITE_SCANNING_ROUTES = [
  { name: 'websites', pattern: '/websites', path: '/websites', summary: 'List websites', parameters: LIST_PARAMETERS },
  { name: 'website', pattern: '/websites/*url', path: '/websites/{url}', summary: 'One website', parameters: [URL_PARAMETER] },
  { name: 'analysis', pattern: '/analysis', path: '/analysis', summary: 'Analysis', parameters: LIST_PARAMETERS },
] as const satisfies readonly RouteTableEntry[];

export type WebsiteFilterParameter = (typeof WEBSITE_FILTER_PARAMETERS)[number];
export type FilterName = WebsiteFilterParameter['name'];
export const FILTER_NAMES: readonly FilterName[] = WEBSITE_FILTER_PARAMETERS.map((p) => p.name);

type FilterOfKind<K extends WebsiteFilterParameter['kind']> = Extract<WebsiteFilterParameter, { kind: K }>;

/** The filter names of one kind, in table order. */
export function filtersOfKind<K extends WebsiteFilterParameter['kind']>(kind: K): FilterOfKind<K>['name'][] {
  return WEBSITE_FILTER_PARAMETERS.filter((p) => p.kind === kind).map((p) => p.name as FilterOfKind<K>['name']);
}

/** The owner columns a roll-up groups by (rollups.ts): agencies, or the bureaus of the filtered agency. */
export const ROLLUP_GROUPS = ['target_url_agency_owner', 'target_url_bureau_owner'] as const;
export type RollupGroup = (typeof ROLLUP_GROUPS)[number];

/** The roll-up columns, as the table sorts by them. */
export const ROLLUP_COLUMNS = ['name', 'sites', 'live', 'dap', 'uswds', 'banner', 'completed'] as const;
export type RollupColumn = (typeof ROLLUP_COLUMNS)[number];

/**
 * The roll-ups' own parameters (asked of the DB worker, not of the API): the websites view keeps them in its
 * URL beside the API's filters.
 */
export const ROLLUP_PARAMETERS = [
  { name: 'group_by', in: 'query', kind: 'enum', values: ROLLUP_GROUPS, default: 'target_url_agency_owner', help: 'Roll up by agency or by bureau' },
  { name: 'rollup_order', in: 'query', kind: 'enum', values: ROLLUP_COLUMNS, default: 'sites', help: 'The roll-up column to sort by' },
  { name: 'rollup_sort', in: 'query', kind: 'enum', values: ['asc', 'desc'], default: 'desc', help: 'Direction of the roll-up sort' },
] as const satisfies readonly ParameterSpec[];

/** The snapshot diff's own parameters (snapshot-diff.ts, asked of the DB worker): each an import's id, or `build`. */
export const BUILD_DATASET_ID = 'build';
export const SNAPSHOT_DIFF_PARAMETERS = [
  { name: 'diff_from', in: 'query', kind: 'text', example: BUILD_DATASET_ID, help: 'The earlier Site Scanning dataset: an import’s id, or build' },
  { name: 'diff_to', in: 'query', kind: 'text', example: BUILD_DATASET_ID, help: 'The later Site Scanning dataset: an import’s id, or build' },
] as const satisfies readonly ParameterSpec[];
