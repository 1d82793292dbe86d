/**
 * The OpenAPI documents of the production dialect (engine/dialect/): each interface document with its answers'
 * schemas as the production dialect writes them. Made from the interface's schemas and the same field tables the
 * dialect reads (PRODUCTION_NAMES, the ceiling-rate vocabulary), so neither is written twice.
 */
import type { OpenApiDocument } from './documents.ts';
import { websiteKindSchema, type JsonSchema } from './schemas.ts';
import { PRODUCTION_NAMES, PRODUCTION_ONLY, WEBSITE_FIELDS } from '../site-scanning/record.ts';
import { SOURCE_FIELDS } from '../ceilingrates/record.ts';
import { DATA_SOURCE } from '../ceilingrates/production.ts';

const NOTE =
  'Production dialect: the answers as production gave them in the recordings of 2022–2026 (its names, types, key order and values; docs/api/differences.md), over the same data.';

const ABSENT = "Production's field; this data has no column for it, so it is `null` here (docs/api/differences.md)";

/** The record as the production dialect writes it (site-scanning/production.ts): production's keys, the same tables. */
function website(schema: JsonSchema): JsonSchema {
  const interfaced = schema.properties as Record<string, JsonSchema>;
  const properties: Record<string, JsonSchema> = {};
  for (const [name] of WEBSITE_FIELDS) {
    const renamed = PRODUCTION_NAMES[name];
    if (renamed !== null) properties[renamed ?? name] = interfaced[name];
    for (const field of PRODUCTION_ONLY) if (field.after === name) properties[field.name] = { ...websiteKindSchema(field.kind), description: ABSENT };
  }
  return { ...schema, properties, required: Object.keys(properties) };
}

const DATED_INDEX = { type: 'string', pattern: '^ceilingrates(-\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}-\\d{2})?$' };
const SHARDS_2026 = {
  type: 'object',
  properties: { total: { const: 5 }, successful: { const: 5 }, skipped: { const: 0 }, failed: { const: 0 } },
  required: ['total', 'successful', 'skipped', 'failed'],
  additionalProperties: false,
};

function ceilingRate(schema: JsonSchema): JsonSchema {
  const interfaced = schema.properties as Record<string, JsonSchema>;
  const properties: Record<string, JsonSchema> = {};
  for (const field of SOURCE_FIELDS) {
    properties[field] = interfaced[field];
    if (field === 'contract_start') properties.data_source = { type: 'string', examples: [DATA_SOURCE] };
  }
  properties.security_clearance = { type: ['boolean', 'null'] };
  properties.dt_termg = { type: 'string', pattern: '^(\\d{8})?$' };
  properties.education_level = { type: ['string', 'null'], examples: ['Bachelors', 'Masters', 'High School', 'Associates', 'PhD', 'None'] };
  properties.worksite = { type: ['string', 'null'], examples: ['Customer_Facility', 'Contractor_Facility', 'Virtual'] };
  return { ...schema, properties, required: Object.keys(properties) };
}

/** The answers (a search's or suggest-contains' envelope) with production's five shards. */
function envelope(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema>;
  return { ...schema, properties: { ...properties, _shards: SHARDS_2026 } };
}

/** Schema rewrites by component name; a component not named is the interface's. */
const REWRITES: Readonly<Record<string, (schema: JsonSchema) => JsonSchema>> = {
  Website: website,
  CeilingRate: ceilingRate,
  CeilingRateHit: (schema) => ({ ...schema, properties: { ...(schema.properties as Record<string, JsonSchema>), _index: DATED_INDEX } }),
  CeilingRatesAnswer: envelope,
};

export function inProductionDialect(document: OpenApiDocument): OpenApiDocument {
  const schemas = Object.fromEntries(Object.entries(document.components.schemas).map(([name, schema]) => [name, REWRITES[name]?.(schema) ?? schema]));
  return {
    ...document,
    info: {
      ...document.info,
      title: document.info.title.replace('(offline)', '(offline, production dialect)'),
      description: `${NOTE}\n\n${document.info.description}`,
    },
    components: { ...document.components, schemas },
  };
}
