import { ORDER_FIELDS } from '../../../engine/ceilingrates/order-columns.ts';
import { SCAN_STATUSES } from '../../../engine/site-scanning/record.ts';

/** One query (or path) parameter as the console offers it. */
export interface ParamSpec {
  name: string;
  /** `enum` offers only `values`; `text` offers `values` as suggestions and accepts anything. */
  kind: 'text' | 'number' | 'enum';
  values?: readonly string[];
  /** May be given several times (each value is one `name=value` pair, in order). */
  repeatable?: boolean;
  /** Part of the path (`/websites/{url}`) rather than the query. */
  inPath?: boolean;
  help: string;
  placeholder?: string;
}

export interface EndpointSpec {
  id: string;
  title: string;
  /** Path on this origin (the app-root base), `{name}` for a path parameter. */
  path: string;
  /** The production base URL the same path is appended to. */
  productionBase: string;
  params: readonly ParamSpec[];
  /** Production sits behind an API gateway that wants a key; here it is accepted and ignored. */
  productionKey: boolean;
}

const BOOLEAN = ['true', 'false'] as const;
const SITE_SCANNING = 'https://api.gsa.gov/technology/site-scanning/v1';
const CEILING_RATES = 'https://api.gsa.gov/acquisition/calc/v3/api/ceilingrates/';

const websiteFilters: readonly ParamSpec[] = [
  { name: 'target_url_domain', kind: 'text', help: 'Base domain of the target URL', placeholder: 'gsa.gov' },
  { name: 'final_url_domain', kind: 'text', help: 'Base domain of the final URL', placeholder: 'gsa.gov' },
  { name: 'final_url_live', kind: 'enum', values: BOOLEAN, help: 'The final URL answered 2xx' },
  { name: 'target_url_redirects', kind: 'enum', values: BOOLEAN, help: 'The target URL redirected' },
  { name: 'target_url_agency_owner', kind: 'text', help: 'Agency, the whole stored name', placeholder: 'General Services Administration' },
  { name: 'target_url_bureau_owner', kind: 'text', help: 'Bureau, the whole stored name' },
  { name: 'scan_status', kind: 'enum', values: SCAN_STATUSES, help: 'Outcome of the scan' },
  { name: 'dap_detected_final_url', kind: 'enum', values: BOOLEAN, help: 'Analytics detected at the final URL' },
  { name: 'page', kind: 'number', help: 'Page, from 1', placeholder: '1' },
  { name: 'limit', kind: 'number', help: 'Items per page, 1 to 100', placeholder: '10' },
];

const RATE_FIELDS = ['labor_category', 'vendor_name', 'idv_piid'] as const;
/** The engine's own list: the console offers exactly what the API accepts. */
const ORDERING_FIELDS = ORDER_FIELDS;
const FILTER_EXAMPLES = [
  'education_level:BA|MA',
  'price_range:50,150',
  'experience_range:2,10',
  'min_years_experience:5',
  'business_size:S',
  'business_size:O',
  'security_clearance:yes',
  'security_clearance:no',
  'worksite:customer',
  'worksite:contractor',
  'worksite:both',
  'site:customer',
  'sin:54151S',
  'category:',
  'subcategory:',
] as const;

export const ENDPOINTS: readonly EndpointSpec[] = [
  {
    id: 'websites',
    title: 'Site Scanning: list websites',
    path: '/websites',
    productionBase: SITE_SCANNING,
    productionKey: true,
    params: websiteFilters,
  },
  {
    id: 'website',
    title: 'Site Scanning: one website',
    path: '/websites/{url}',
    productionBase: SITE_SCANNING,
    productionKey: true,
    params: [{ name: 'url', kind: 'text', inPath: true, help: 'Target URL (a pasted https://…/ works)', placeholder: 'gsa.gov' }],
  },
  {
    id: 'analysis',
    title: 'Site Scanning: analysis',
    path: '/analysis',
    productionBase: SITE_SCANNING,
    productionKey: true,
    params: websiteFilters,
  },
  {
    id: 'ceilingrates',
    title: 'Ceiling rates: search',
    path: '/api/v3/search/ceilingrates/',
    productionBase: CEILING_RATES,
    productionKey: true,
    params: [
      { name: 'keyword', kind: 'text', help: 'Substring of labor category, vendor or contract (2+ characters)', placeholder: 'engineer' },
      { name: 'search', kind: 'text', values: RATE_FIELDS.map((f) => `${f}:`), help: 'field:text, whole value, any case', placeholder: 'labor_category:Engineer II' },
      { name: 'filter', kind: 'text', values: FILTER_EXAMPLES, repeatable: true, help: 'name:value; | means or', placeholder: 'price_range:50,150' },
      { name: 'ordering', kind: 'enum', values: ORDERING_FIELDS, repeatable: true, help: 'Sort field (pairs with sort by position)' },
      { name: 'sort', kind: 'enum', values: ['asc', 'desc'], repeatable: true, help: 'Direction for the ordering at the same position' },
      { name: 'exclude', kind: 'text', help: 'Record ids to leave out, joined with |', placeholder: '12|345' },
      { name: 'page', kind: 'number', help: 'Page, from 1', placeholder: '1' },
      { name: 'page_size', kind: 'number', help: 'Hits per page, up to 500', placeholder: '10' },
      { name: 'suggest-contains', kind: 'text', values: RATE_FIELDS.map((f) => `${f}:`), help: 'field:text, values containing the text', placeholder: 'labor_category:engin' },
      { name: 'suggest', kind: 'text', values: RATE_FIELDS.map((f) => `${f}:`), repeatable: true, help: 'field:text, values starting with the text', placeholder: 'vendor_name:acc' },
      { name: 'export', kind: 'enum', values: ['y'], help: 'y: the same query as CSV' },
    ],
  },
];

export function endpointById(id: string): EndpointSpec | undefined {
  return ENDPOINTS.find((e) => e.id === id);
}
