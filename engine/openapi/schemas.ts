/**
 * Response schemas (JSON Schema 2020-12, as OpenAPI 3.1 uses it) for both APIs. The website record's schema
 * is read from the record's field table; the rest follows the shape modules. Tests validate the engine's real
 * answers against these, so a change of shape that is not made here fails.
 */
import { ANSWERED_FIELDS, SCAN_STATUSES, type FieldKind } from '../site-scanning/record.ts';
import { RECORD_FIELDS, SOURCE_FIELDS } from '../ceilingrates/record.ts';
import { PERCENTILES, TERM_SIZES } from '../ceilingrates/query/aggregations.ts';
import { SEARCH_FIELDS } from '../ceilingrates/parameters.ts';

export type JsonSchema = { [keyword: string]: unknown };

const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });
const integer: JsonSchema = { type: 'integer', minimum: 0 };
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const object = (properties: Record<string, JsonSchema>, extra: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});

const WEBSITE_KIND_SCHEMAS: Record<FieldKind, JsonSchema> = {
  text: nullable('string'),
  number: nullable('number'),
  boolean: nullable('boolean'),
  list: { type: ['array', 'null'], items: { type: 'string' } },
  // The published snapshot writes `""` where a scan found no parameters (13,997 records of 2025-06-09), and the
  // record is answered as stored (record.ts), so the schema admits it next to the object and null.
  object: {
    anyOf: [{ type: 'object', additionalProperties: { type: 'string' } }, { const: '' }, { type: 'null' }],
    description: 'An object of string values; `""` or `null` when the scan found none',
  },
};

/** The schema of a record field of this kind (every field may be null). */
export function websiteKindSchema(kind: FieldKind): JsonSchema {
  return WEBSITE_KIND_SCHEMAS[kind];
}

const DERIVED_DESCRIPTION =
  'Made from the data, not a snapshot column: `*_final_url_live` is the file status code being 2xx, `*_target_url_redirects` the file final URL not being https://<target_url>/<file> (docs/api/site-scanning.md#further-fields)';

function websiteRecord(): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, kind, derived] of ANSWERED_FIELDS) {
    properties[name] = derived ? { ...WEBSITE_KIND_SCHEMAS[kind], description: DERIVED_DESCRIPTION } : WEBSITE_KIND_SCHEMAS[kind];
  }
  properties.target_url = { type: 'string', description: 'The target host name, e.g. search.usa.gov: the record identity' };
  // An imported snapshot may carry a status this list lacks: the documented values, not a closed set.
  properties.scan_status = { type: ['string', 'null'], examples: [...SCAN_STATUSES] };
  return object(properties);
}

const ISO_DATE = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
const COMPACT_DATE = { type: 'string', pattern: '^\\d{8}$' };

/** Types of the `_source` fields, in RECORD_FIELDS order (checked below: every field has one). */
const RATE_FIELD_SCHEMAS: Record<(typeof RECORD_FIELDS)[number], JsonSchema> = {
  id: integer,
  vendor_name: { type: 'string' },
  idv_piid: { type: 'string' },
  schedule: nullable('string'),
  sin: nullable('string'),
  labor_category: { type: 'string' },
  category: nullable('string'),
  subcategory: nullable('string'),
  education_level: nullable('string'),
  min_years_experience: nullable('number'),
  worksite: nullable('string'),
  security_clearance: nullable('string'),
  business_size: nullable('string'),
  current_price: { type: 'number' },
  next_year_price: nullable('number'),
  second_year_price: nullable('number'),
  contract_start: { anyOf: [ISO_DATE, { type: 'null' }] },
  contract_end: { anyOf: [ISO_DATE, { type: 'null' }] },
  cont_beg_dtg: { anyOf: [COMPACT_DATE, { type: 'null' }] },
  cont_end_dtg: { anyOf: [COMPACT_DATE, { type: 'null' }] },
  dt_termg: { anyOf: [COMPACT_DATE, { type: 'null' }] },
  _timestamp: { type: 'string', format: 'date-time' },
};

const terms = object({
  doc_count_error_upper_bound: integer,
  sum_other_doc_count: integer,
  buckets: { type: 'array', items: object({ key: { type: 'string' }, doc_count: integer }) },
});

const percentileValues = (keys: readonly number[]): JsonSchema =>
  object({ values: object(Object.fromEntries(keys.map((p) => [p.toFixed(1), nullable('number')]))) });

const n = nullable('number');
/** A sample statistic: `"NaN"` (a string, as production writes it) when exactly one price matches. */
const sampled: JsonSchema = { anyOf: [nullable('number'), { const: 'NaN' }] };
const wageStats = object({
  count: integer,
  min: n,
  max: n,
  avg: n,
  sum: n,
  sum_of_squares: n,
  variance: n,
  variance_population: n,
  variance_sampling: sampled,
  std_deviation: n,
  std_deviation_population: n,
  std_deviation_sampling: sampled,
  std_deviation_bounds: object({ upper: n, lower: n, upper_population: n, lower_population: n, upper_sampling: sampled, lower_sampling: sampled }),
});

/** The term aggregations, from the engine's table of their sizes (the seven fields). */
const TERM_AGGREGATIONS = Object.keys(TERM_SIZES);

/** education_level_counts: production's shape, buckets only, the six codes in order (zero counts included). */
const educationCounts = object({
  buckets: {
    type: 'array',
    minItems: 6,
    maxItems: 6,
    items: object({ key: { enum: ['AA', 'BA', 'HS', 'MA', 'PHD', 'TEC'] }, doc_count: integer }),
  },
});

const suggestEntry = object({
  text: { type: 'string' },
  offset: integer,
  length: integer,
  options: {
    type: 'array',
    items: object({ text: { type: 'string' }, _index: { const: 'ceilingrates' }, _id: { type: 'string' }, _score: { type: 'number' }, _source: object({}) }),
  },
});

/** The aggregations every search answers (`education_level_counts` too, but not when nothing matches, as production). */
const SEARCH_AGGREGATIONS = [...TERM_AGGREGATIONS, 'wage_histogram', 'histogram_percentiles', 'median_price', 'wage_stats'];

/**
 * Every JSON answer of the ceiling-rates route in one schema, so a generated client has one type and needs no cast
 * (the forms cannot be told apart by a property a discriminator could name: they are told apart by the query).
 * A search and `suggest-contains` are Elasticsearch's search answer; `suggest` is its suggest answer. Each form's
 * required keys are said with `dependentRequired`, which validators check and generators leave alone.
 */
const ceilingRatesAnswer: JsonSchema = {
  type: 'object',
  description:
    'A search: `took`, `timed_out`, `_shards`, `hits` and every aggregation (none when nothing matches). ' +
    'With `suggest-contains=<field>:<text>`: the same envelope with no hits and one terms aggregation named after the field. ' +
    'With `suggest=<field>:<text>` (repeatable): only a `<field>-suggestion` list per field asked for.',
  properties: {
    took: integer,
    timed_out: { const: false },
    _shards: object({ total: { const: 1 }, successful: { const: 1 }, skipped: { const: 0 }, failed: { const: 0 } }),
    hits: object({
      total: object({ value: integer, relation: { enum: ['eq', 'gte'] } }),
      max_score: { type: 'null' },
      hits: { type: 'array', items: ref('CeilingRateHit') },
    }),
    aggregations: ref('Aggregations'),
    ...Object.fromEntries(SEARCH_FIELDS.map((field) => [`${field}-suggestion`, { type: 'array', items: suggestEntry }])),
  },
  additionalProperties: false,
  minProperties: 1,
  dependentRequired: { hits: ['took', 'timed_out', '_shards', 'aggregations'] },
};

/** A search's aggregations, or suggest-contains' one (a terms aggregation named after its field). */
const aggregations: JsonSchema = {
  type: 'object',
  properties: {
    ...Object.fromEntries([...new Set([...TERM_AGGREGATIONS, ...SEARCH_FIELDS])].map((name) => [name, terms])),
    education_level_counts: educationCounts,
    wage_histogram: object({
      buckets: { type: 'array', items: object({ min: { type: 'number' }, key: { type: 'number' }, max: { type: 'number' }, doc_count: integer }) },
    }),
    histogram_percentiles: percentileValues(PERCENTILES),
    median_price: percentileValues([50]),
    wage_stats: wageStats,
  },
  additionalProperties: false,
  // A search answers them all (wage_stats is a search's alone); suggest-contains exactly one.
  dependentRequired: { wage_stats: SEARCH_AGGREGATIONS.filter((name) => name !== 'wage_stats') },
  minProperties: 1,
};

export const SITE_SCANNING_SCHEMAS: Record<string, JsonSchema> = {
  Website: websiteRecord(),
  WebsitePage: object({
    items: { type: 'array', items: ref('Website') },
    meta: object({ totalItems: integer, itemCount: integer, itemsPerPage: integer, totalPages: integer, currentPage: integer }),
    links: object(
      { first: { type: 'string' }, previous: { type: 'string' }, next: { type: 'string' }, last: { type: 'string' } },
      { description: 'Relative links; an absent one is the empty string' },
    ),
  }),
  Analysis: object({
    queueCounts: object({ waiting: integer, active: integer, delayed: integer, failed: integer }),
    total: integer,
    totalFinalUrlBaseDomains: integer,
    totalAgencies: integer,
  }),
  Error: {
    type: 'object',
    properties: {
      statusCode: { type: 'integer' },
      message: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      error: { type: 'string' },
    },
    required: ['statusCode', 'message'],
    additionalProperties: false,
  },
};

export const CEILING_RATES_SCHEMAS: Record<string, JsonSchema> = {
  // In production's `_source` key order.
  CeilingRate: object(Object.fromEntries(SOURCE_FIELDS.map((field) => [field, RATE_FIELD_SCHEMAS[field]]))),
  CeilingRateHit: object({
    _index: { const: 'ceilingrates' },
    _id: { type: 'string' },
    _score: { type: 'null' },
    _source: ref('CeilingRate'),
    sort: { type: 'array', items: { type: ['number', 'string', 'null'] } },
  }),
  CeilingRatesAnswer: ceilingRatesAnswer,
  Aggregations: aggregations,
  Detail: object({ detail: { type: 'string' } }),
};
