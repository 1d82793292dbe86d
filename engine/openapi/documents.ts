/**
 * OpenAPI 3.1 documents of both APIs, generated from their parameter tables and route tables: one per API
 * (servers: each base path it answers under) and one of both at the app root. Platform-free: the Node doors
 * serve them, the build writes them into the app.
 */
import type { ParameterSpec, RouteTableEntry } from '../http/parameter-spec.ts';
import { SITE_SCANNING_BASES, SITE_SCANNING_ROUTES } from '../site-scanning/parameters.ts';
import { CEILING_RATES_BASES, CEILING_RATES_PARAMETERS, FILTERS } from '../ceilingrates/parameters.ts';
import { parameterObject, type FilterGrammarSpec } from './openapi-parameters.ts';
import { CEILING_RATES_SCHEMAS, SITE_SCANNING_SCHEMAS, type JsonSchema } from './schemas.ts';
import { RETRY_AFTER_SECONDS } from '../http/respond.ts';
import { SNAPSHOT_LIST_PATH } from '../http/snapshots.ts';
import { ROOT_MOUNT, type Mount } from '../http/mount.ts';
import type { DatasetName } from '../http/types.ts';

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; url: string } };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, Record<string, string>> };
};

const VERSION = '1.0.0';
/** Production's origin: both APIs answer there under their gateway paths (SITE_SCANNING_BASES[1], CEILING_RATES_BASES[1]). */
const PRODUCTION_ORIGIN = 'https://api.gsa.gov';
/** Both interfaces and their data are GSA's, works of the US government (the Site Scanning data also CC0). */
const LICENSE = { name: 'Public domain: a work of the US government', url: 'https://www.usa.gov/government-copyright' };
const JSON_TYPE = 'application/json';
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: JsonSchema): Record<string, unknown> => ({ [JSON_TYPE]: { schema } });
const reply = (description: string, schema: JsonSchema): Record<string, unknown> => ({ description, content: jsonContent(schema) });

const CORS_NOTE = 'Every answer carries `Access-Control-Allow-Origin: *`; preflights are answered.';

/** This app's server: where it is served (the deployment's base path, engine/http/mount.ts), '/' at an origin's root. */
const appServer = (mount: Mount, description = 'This app: answered offline, from the local data'): { url: string; description: string } => ({
  url: mount === '' ? '/' : mount,
  description,
});
const PRODUCTION_SERVER = 'Production (api.gsa.gov): an api.data.gov key is required, as `api_key` or `X-Api-Key`';

const KEY_NOTE =
  'Production (api.gsa.gov) requires an api.data.gov key, as the `api_key` query parameter or the `X-Api-Key` header. ' +
  'Offline, either is accepted and ignored: no key is needed.';

/** Production's key, in either place it reads it; offline no key is needed, hence the empty alternative. */
const SECURITY_SCHEMES: OpenApiDocument['components']['securitySchemes'] = {
  api_key: { type: 'apiKey', in: 'query', name: 'api_key', description: KEY_NOTE },
  api_key_header: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: KEY_NOTE },
};
const SECURITY: OpenApiDocument['security'] = [{ api_key: [] }, { api_key_header: [] }, {}];

/** Every 503 says when to ask again (engine/http/route.ts adds the header to each). */
const unavailable = (schema: JsonSchema): Record<string, unknown> => ({
  ...reply('The dataset is not loaded, or is still on its way', schema),
  headers: {
    'Retry-After': { description: 'Seconds to wait before asking again', schema: { type: 'integer', const: RETRY_AFTER_SECONDS } },
  },
});
const INTERNAL = 'An unexpected failure while answering (the next request is answered normally)';

function operation(
  tag: string,
  operationId: string,
  summary: string,
  parameters: readonly ParameterSpec[],
  responses: Record<string, unknown>,
  filters: readonly FilterGrammarSpec[] = [],
): Record<string, unknown> {
  return { get: { tags: [tag], operationId, summary, parameters: parameters.map((p) => parameterObject(p, filters)), responses } };
}

const SITE_SCANNING_TAG = 'Site Scanning';
const SITE_SCANNING_OK: Record<string, { description: string; schema: string }> = {
  websites: { description: 'One page of websites in target URL order', schema: 'WebsitePage' },
  website: { description: 'The website with this target URL', schema: 'Website' },
  analysis: { description: 'Counts over the websites the filters select (page and limit are validated, then ignored)', schema: 'Analysis' },
};

/** OpenAPI has no place for "any other method" of a path: Site Scanning answers every one as Express does, 404. */
const OTHER_METHODS =
  'Every method other than GET and HEAD gets it too, in Express\'s words: `{"message":"Cannot POST /websites","error":"Not Found","statusCode":404}`.';

function siteScanningOperation(route: RouteTableEntry): Record<string, unknown> {
  const ok = SITE_SCANNING_OK[route.name];
  if (!ok) throw new Error(`openapi: no response described for the Site Scanning route "${route.name}"`);
  const error = ref('Error');
  const responses: Record<string, unknown> = { '200': reply(ok.description, ref(ok.schema)) };
  if (route.name === 'website') {
    // The size limits apply to this route too (docs/api/limits.md): a {url} over 10,000 characters is a 400.
    responses['400'] = reply('The request is beyond a size limit: `message` says which', error);
    responses['404'] = reply(`No website has this target URL. ${OTHER_METHODS}`, error);
  } else {
    responses['400'] = reply('A parameter is invalid: `message` lists every problem', error);
    responses['404'] = reply(OTHER_METHODS, error);
  }
  responses['500'] = reply(INTERNAL, error);
  responses['503'] = unavailable(error);
  return operation(
    SITE_SCANNING_TAG,
    route.name === 'websites' ? 'listWebsites' : route.name === 'website' ? 'getWebsite' : 'analysis',
    route.summary,
    route.parameters,
    responses,
  );
}

function siteScanningPaths(mount: Mount): Record<string, Record<string, unknown>> {
  return { ...Object.fromEntries(SITE_SCANNING_ROUTES.map((route) => [route.path, siteScanningOperation(route)])), [SNAPSHOT_LIST_PATH]: snapshotList(mount) };
}

/** `GET /snapshots` (docs/api/snapshots.md): at the app's root only, not under the gateway path nor in production. */
function snapshotList(mount: Mount): Record<string, unknown> {
  const list: JsonSchema = {
    type: 'object',
    required: ['snapshots'],
    additionalProperties: false,
    properties: {
      snapshots: {
        type: 'array',
        description: 'Oldest first. Each week answers every path above under `/snapshots/<date>/`, e.g. `/snapshots/2025-03-17/analysis`.',
        items: {
          type: 'object',
          required: ['date', 'count'],
          additionalProperties: false,
          properties: {
            date: { type: 'string', format: 'date', description: 'The snapshot’s own day (YYYY-MM-DD)' },
            count: { type: 'integer', minimum: 0, description: 'Websites listed that week' },
          },
        },
      },
    },
  };
  return {
    servers: [appServer(mount, 'This app, at its root')],
    ...operation(SITE_SCANNING_TAG, 'listSnapshots', 'The weekly snapshots held, each answered under /snapshots/<date>/', [], {
      '200': reply('Every week held, with its date and count of websites (empty when none has a date)', list),
      '404': reply(OTHER_METHODS.replace('/websites', '/snapshots'), ref('Error')),
    }),
  };
}

const CEILING_RATES_TAG = 'Ceiling rates';

function ceilingRatesOperation(): Record<string, unknown> {
  const detail = ref('Detail');
  return operation(
    CEILING_RATES_TAG,
    'searchCeilingRates',
    'Search, filter and aggregate ceiling rates; suggestions; CSV export',
    CEILING_RATES_PARAMETERS,
    {
      '200': {
        description:
          'A search: hits and every aggregation. With `suggest-contains`: no hits and one terms aggregation. ' +
          'With `suggest`: completion options per field. With `export=y`: the matching records as CSV.',
        content: {
          [JSON_TYPE]: { schema: ref('CeilingRatesAnswer') },
          'text/csv': { schema: { type: 'string' } },
        },
      },
      '404': reply('A path below the base that names no route (`{"detail":"Not found."}`), e.g. `/acquisition/calc/v3/api/ceilingrates/x`', detail),
      // OpenAPI has no place for "any other method" of a path: the answer every other method gets is said here.
      '405': reply('Not an answer to GET: every method other than GET, HEAD and OPTIONS gets it, e.g. `{"detail":"Method \\"POST\\" not allowed."}`', detail),
      '406': reply('A parameter is invalid: `detail` says which', detail),
      '500': reply(INTERNAL, detail),
      '503': unavailable(detail),
    },
    FILTERS,
  );
}

/**
 * Where each dataset's records come from, one line each ("Real: the published Site Scanning week of …",
 * "Synthetic: 250,000 generated ceiling rates …"), as the build's manifest or the server's opened files say.
 */
export type DataLabels = Partial<Record<DatasetName, string>>;

function info(title: string, description: string, data: readonly (string | undefined)[]): OpenApiDocument['info'] {
  const lines = data.filter((label): label is string => !!label).map((label) => `Data: ${label}`);
  return { title, version: VERSION, description: [description, ...lines, CORS_NOTE].join('\n\n'), license: LICENSE };
}

/**
 * The ceiling-rates route's path in full: production's gateway path, which this app answers too. Without the
 * trailing slash production's documentation writes (a path ending in one is an error to OpenAPI linters, redocly's
 * `no-path-trailing-slash`); this app answers both, and the description says so.
 */
export const CEILING_RATES_DOCUMENT_PATH = CEILING_RATES_BASES[1];

/**
 * Site Scanning: its routes below each server, this app's root, its gateway path and production's. `mount`: where
 * the app is served (a build for a sub-path writes its documents with it).
 */
export function siteScanningDocument(data: DataLabels = {}, mount: Mount = ROOT_MOUNT): OpenApiDocument {
  const gateway = SITE_SCANNING_BASES[1];
  return {
    openapi: '3.1.0',
    info: info('Site Scanning API (offline)', 'Federal websites and what their scans found, answered from a local SQLite snapshot.', [data.websites]),
    servers: [
      appServer(mount, 'This app, at its root: answered offline, from the local data'),
      { url: `${mount}${gateway}`, description: "This app, at production's gateway path" },
      { url: `${PRODUCTION_ORIGIN}${gateway}`, description: PRODUCTION_SERVER },
    ],
    tags: [{ name: SITE_SCANNING_TAG, description: 'GET /websites, /websites/{url}, /analysis' }],
    security: SECURITY,
    paths: siteScanningPaths(mount),
    components: { schemas: SITE_SCANNING_SCHEMAS, securitySchemes: SECURITY_SCHEMES },
  };
}

/**
 * Ceiling rates: the route's full path, production's gateway path, under this app and under production (this app
 * also answers it at `/api/v3/search/ceilingrates/`, the path of the combined document).
 */
export function ceilingRatesDocument(data: DataLabels = {}, mount: Mount = ROOT_MOUNT): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: info(
      'Ceiling Rates API (offline)',
      'Awarded hourly ceiling rates of GSA contracts, answered from a local SQLite dataset. ' +
        `Production documents the path with a trailing slash (\`${CEILING_RATES_BASES[1]}/\`): keep it when calling production. ` +
        `This app answers the path with and without it, and at \`${CEILING_RATES_BASES[0]}/\` too.`,
      [data.ceilingrates],
    ),
    servers: [appServer(mount), { url: PRODUCTION_ORIGIN, description: PRODUCTION_SERVER }],
    tags: [{ name: CEILING_RATES_TAG, description: `GET ${CEILING_RATES_DOCUMENT_PATH}` }],
    security: SECURITY,
    paths: { [CEILING_RATES_DOCUMENT_PATH]: ceilingRatesOperation() },
    components: { schemas: CEILING_RATES_SCHEMAS, securitySchemes: SECURITY_SCHEMES },
  };
}

/** Both APIs at their app-root paths, in one document. */
export function combinedDocument(data: DataLabels = {}, mount: Mount = ROOT_MOUNT): OpenApiDocument {
  const siteScanning = siteScanningDocument({}, mount);
  return {
    openapi: '3.1.0',
    info: info(
      'Site Scanning and Ceiling Rates APIs (offline)',
      "Both APIs, answered locally at their app-root paths; each also answers under its production gateway path (the APIs' own documents).",
      [data.websites, data.ceilingrates],
    ),
    servers: [appServer(mount)],
    tags: [...siteScanning.tags, { name: CEILING_RATES_TAG, description: `GET ${CEILING_RATES_BASES[0]}/ (with or without its trailing slash)` }],
    security: SECURITY,
    paths: { ...siteScanning.paths, [CEILING_RATES_BASES[0]]: ceilingRatesOperation() },
    components: { schemas: { ...siteScanning.components.schemas, ...CEILING_RATES_SCHEMAS }, securitySchemes: SECURITY_SCHEMES },
  };
}

/** How each document is made: from the data's source lines and the app's mount. */
export type DocumentMaker = (data?: DataLabels, mount?: Mount) => OpenApiDocument;

/** The documents as files of the app (the build writes them, so the service worker keeps them offline). */
export const OPENAPI_FILES: Readonly<Record<string, DocumentMaker>> = {
  '/openapi.json': combinedDocument,
  '/openapi/site-scanning.json': siteScanningDocument,
  '/openapi/ceiling-rates.json': ceilingRatesDocument,
};

/** Every path a server publishes a document at: the files, and production's Site Scanning document path. */
export const OPENAPI_DOCUMENTS: Readonly<Record<string, DocumentMaker>> = {
  ...OPENAPI_FILES,
  '/technology/site-scanning/v1/api-json': siteScanningDocument,
};
