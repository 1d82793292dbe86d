/**
 * Ceiling rates' parameters: the one table the parser (parse-query.ts), the ordering columns, the UI's query
 * state, the API console and the API reference read. Adding a parameter, a filter, an ordering or a search
 * field touches this file.
 */
import type { ParameterSpec } from '../http/parameter-spec.ts';

/** The documented path, and the base paths the API answers under (the app's, and production's). */
export const CEILING_RATES_PATH = '/api/v3/search/ceilingrates/';
export const CEILING_RATES_BASES = ['/api/v3/search/ceilingrates', '/acquisition/calc/v3/api/ceilingrates'] as const;

/** The fields `search`, `suggest` and `suggest-contains` name before the colon. */
export const SEARCH_FIELDS = ['labor_category', 'vendor_name', 'idv_piid'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * The three contract-year prices of a record: current, next and second year. `ordering` accepts each; the
 * price figures of a query (price-figures.ts, asked of the DB worker, not of the API) are computed over one.
 */
export const PRICE_FIELDS = ['current_price', 'next_year_price', 'second_year_price'] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];

/** The fields `ordering` accepts that the records hold. */
export const RECORD_ORDER_FIELDS = [
  ...PRICE_FIELDS,
  'labor_category',
  'vendor_name',
  'idv_piid',
  'education_level',
  'min_years_experience',
  'schedule',
  'business_size',
] as const;
export type RecordOrderField = (typeof RECORD_ORDER_FIELDS)[number];

/**
 * Also accepted, being in production's list of valid fields, but no record holds them: every value is null,
 * so they leave the order to the next key or the tie-break.
 */
export const ABSENT_ORDER_FIELDS = ['keywords', 'certifications'] as const;

/** The fields `ordering` accepts. */
export const ORDER_FIELDS = [...RECORD_ORDER_FIELDS, ...ABSENT_ORDER_FIELDS] as const;
export type OrderField = (typeof ORDER_FIELDS)[number];

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;

/** page × page_size may not pass this; hits.total.value stops counting here (`relation: gte`). */
export const RESULT_WINDOW = 10_000;

/** The education levels the data holds (other values are accepted and match nothing). */
// TEC: technical school or certification, a level of the 2025 price lists (docs/api/data-sources.md).
export const EDUCATION_LEVELS = ['HS', 'AA', 'BA', 'MA', 'PHD', 'TEC', 'NONE', 'OTHER'] as const;

/**
 * How a filter's value (after `name:`) reads; `|` separates alternatives, any of which matches:
 * - `exact`: values compared as given, case-sensitive;
 * - `trimmed`: values compared after trimming spaces;
 * - `range`: `<min>,<max>`, two numbers, inclusive;
 * - `number`: a number;
 * - `sin`: a SIN code, any decimal suffix dropped;
 * - `phrase`: words found inside the field, any case;
 * - `class`: `yes` or `no`, any case (other words match nothing).
 */
export type FilterGrammar = 'exact' | 'trimmed' | 'range' | 'number' | 'sin' | 'phrase' | 'class';

export interface FilterSpec {
  readonly name: string;
  readonly grammar: FilterGrammar;
  /** The values the data holds, when they are few (offered by pickers and the console). */
  readonly values?: readonly string[];
  /** Typical values after the colon, as a user would type them. */
  readonly examples: readonly string[];
  readonly help: string;
}

/** The names `filter=<name>:<value>` accepts, with the grammar of each value. */
export const FILTERS = [
  { name: 'education_level', grammar: 'exact', values: EDUCATION_LEVELS, examples: ['BA|MA'], help: 'Education levels' },
  { name: 'price_range', grammar: 'range', examples: ['50,150'], help: 'Current price between two numbers' },
  { name: 'experience_range', grammar: 'range', examples: ['2,10'], help: 'Minimum years of experience between two numbers' },
  { name: 'current_price', grammar: 'number', examples: ['100'], help: 'Current price equal to a number' },
  { name: 'min_years_experience', grammar: 'number', examples: ['5'], help: 'Minimum years of experience equal to a number' },
  { name: 'business_size', grammar: 'exact', values: ['S', 'O'], examples: ['S', 'O'], help: 'Business size: S small, O other' },
  { name: 'sin', grammar: 'sin', examples: ['54151S'], help: 'Special Item Number (SIN) code' },
  { name: 'category', grammar: 'trimmed', examples: [''], help: 'Category, the whole name' },
  { name: 'subcategory', grammar: 'trimmed', examples: [''], help: 'Subcategory, the whole name' },
  {
    name: 'site',
    grammar: 'phrase',
    examples: ['customer', 'contractor', 'both'],
    help: 'Words in the worksite, any case',
  },
  {
    name: 'security_clearance',
    grammar: 'class',
    values: ['yes', 'no'],
    examples: ['yes', 'no'],
    help: 'Clearance required: yes or no',
  },
] as const satisfies readonly FilterSpec[];

export type FilterName = (typeof FILTERS)[number]['name'];

/**
 * Filter names accepted and ignored, as production ignores them: `search=` is the way to match vendor and labor
 * category, and `site:` the way to match the worksite. Production's documentation lists `worksite` as a filter,
 * yet production answers it unfiltered (live-verified in 2026-08 by the gsa-calc-mcp client's authors:
 * 1102tools-dev/federal-contracting-mcps, servers/gsa-calc-mcp/changelog.md, 1.0.1, and testing.md @ 9615d70);
 * a prototype built here must not rely on a narrowing production does not do. (They found `site:` ignored too
 * by then; `site:` is the interface's documented filter and keeps working here: docs/api/differences.md.)
 */
export const IGNORED_FILTERS = ['vendor_name', 'labor_category', 'worksite'] as const;

/** The query parameters of the search endpoint, in the order the console offers them. */
export const CEILING_RATES_PARAMETERS = [
  {
    name: 'keyword',
    in: 'query',
    kind: 'text',
    minLength: 2,
    maxLength: 10_000,
    example: 'engineer',
    help: 'Substring of labor category, vendor or contract (2+ characters)',
  },
  {
    name: 'search',
    in: 'query',
    kind: 'field-text',
    values: SEARCH_FIELDS,
    repeatable: true,
    maxItems: 20,
    maxLength: 10_000,
    example: 'labor_category:Engineer II',
    help: 'field:text, the whole value exactly (case-sensitive); the text ends at a second colon',
  },
  {
    name: 'filter',
    in: 'query',
    kind: 'filter',
    repeatable: true,
    maxItems: 50,
    maxLength: 10_000,
    maxListItems: 100,
    example: 'price_range:50,150',
    help: 'name:value; | means or',
  },
  {
    name: 'ordering',
    in: 'query',
    kind: 'enum',
    values: ORDER_FIELDS,
    default: 'current_price',
    repeatable: true,
    maxItems: 50,
    maxLength: 100,
    help: 'Sort field (pairs with sort by position)',
  },
  {
    name: 'sort',
    in: 'query',
    kind: 'enum',
    values: SORT_DIRECTIONS,
    default: 'asc',
    repeatable: true,
    maxItems: 50,
    maxLength: 100,
    help: 'Direction for the ordering at the same position',
  },
  {
    name: 'exclude',
    in: 'query',
    kind: 'id-list',
    repeatable: true,
    maxItems: 50,
    maxListItems: 1_000,
    example: '12|345',
    help: 'Record ids to leave out, joined with |',
  },
  { name: 'page', in: 'query', kind: 'integer', default: 1, min: 1, example: '1', help: 'Page, from 1' },
  {
    name: 'page_size',
    in: 'query',
    kind: 'integer',
    default: 10,
    min: 1,
    max: 500,
    example: '10',
    help: 'Hits per page, up to 500',
  },
  {
    name: 'suggest-contains',
    in: 'query',
    kind: 'field-text',
    values: SEARCH_FIELDS,
    emptyBelow: 2,
    maxLength: 10_000,
    example: 'labor_category:engin',
    help: 'field:text, values containing the text; under 2 characters the answer is empty',
  },
  {
    name: 'suggest',
    in: 'query',
    kind: 'field-text',
    values: SEARCH_FIELDS,
    minLength: 1,
    repeatable: true,
    maxItems: 20,
    maxLength: 10_000,
    example: 'vendor_name:acc',
    help: 'field:text, values starting with the text',
  },
  { name: 'export', in: 'query', kind: 'enum', values: ['y'], help: 'y: the same query as CSV' },
] as const satisfies readonly ParameterSpec[];

/**
 * The price figures' own parameters (price-figures.ts, asked of the DB worker, not of the API): the rates
 * view keeps them in its URL beside the API's.
 */
export const PRICE_FIGURES_PARAMETERS = [
  {
    name: 'year',
    in: 'query',
    kind: 'enum',
    values: PRICE_FIELDS,
    default: 'current_price',
    help: 'The contract year whose price the figures are computed over',
  },
  { name: 'proposed_price', in: 'query', kind: 'text', example: '125.50', help: 'A proposed hourly price, ranked among the matches' },
  {
    name: 'search_mode',
    in: 'query',
    kind: 'enum',
    values: ['contains', 'titles'],
    default: 'contains',
    help: 'contains: the keyword search; titles: a pool of exact labor-category titles, any of which matches',
  },
  {
    name: 'title',
    in: 'query',
    kind: 'text',
    repeatable: true,
    // As many as a filter's alternatives, each as long as a search text: a pool is an "or" of exact titles.
    maxItems: 100,
    maxLength: 10_000,
    example: 'Engineer II',
    help: 'One exact labor-category title of the pool (at most 100)',
  },
  {
    name: 'pin',
    in: 'query',
    kind: 'text',
    repeatable: true,
    example: 'keyword=engineer&filter=education_level:BA',
    help: 'A pinned query (its search and filters) whose figures are compared with the others',
  },
] as const satisfies readonly ParameterSpec[];

export type CeilingRatesParameter = (typeof CEILING_RATES_PARAMETERS)[number];
export type CeilingRatesParameterName = CeilingRatesParameter['name'];

/** One parameter of the table by name, with its literal type. */
export function ceilingRatesParameter<N extends CeilingRatesParameterName>(name: N): Extract<CeilingRatesParameter, { name: N }> {
  return CEILING_RATES_PARAMETERS.find((p) => p.name === name) as Extract<CeilingRatesParameter, { name: N }>;
}
