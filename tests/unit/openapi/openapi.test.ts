/**
 * The OpenAPI documents: valid OpenAPI 3.1 (swagger-parser), parameters whose examples their own schemas
 * accept, and response schemas that the engine's real answers satisfy (ajv), for every endpoint and its
 * documented errors, so the documents cannot drift from the engine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Engine } from '../../../engine/http/engine.ts';
import { createEngine } from '../../../engine/index.ts';
import { ceilingRatesDocument, combinedDocument, siteScanningDocument, type OpenApiDocument } from '../../../engine/openapi/documents.ts';
import { generatedDatabase } from '../../../harness/engine.ts';

const DOCUMENTS: Record<string, OpenApiDocument> = {
  combined: combinedDocument(),
  'site-scanning': siteScanningDocument(),
  'ceiling-rates': ceilingRatesDocument(),
};

let engine: Engine;
let target: string;

beforeAll(async () => {
  engine = createEngine();
  const websites = await generatedDatabase('websites');
  engine.use('websites', websites);
  engine.use('ceilingrates', await generatedDatabase('ceilingrates'));
  target = String(websites.exec('SELECT target_url FROM websites LIMIT 1 OFFSET 7')[0].values[0][0]);
});

describe('the documents are valid OpenAPI 3.1', () => {
  for (const [name, document] of Object.entries(DOCUMENTS)) {
    it(name, async () => {
      const api = await SwaggerParser.validate(structuredClone(document) as never);
      expect((api as { openapi: string }).openapi).toBe('3.1.0');
    });
  }

  it('the combined document has every route of both APIs', () => {
    expect(Object.keys(DOCUMENTS.combined.paths).sort()).toEqual(['/analysis', '/api/v3/search/ceilingrates', '/snapshots', '/websites', '/websites/{url}']);
  });
});

function ajvFor(document: OpenApiDocument, id: string): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: id });
  return ajv;
}

const pointer = (...parts: string[]): string => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

describe('every parameter example is accepted by its own schema', () => {
  for (const [name, document] of Object.entries(DOCUMENTS)) {
    it(name, () => {
      const ajv = new Ajv2020({ strict: false });
      let checked = 0;
      for (const operation of Object.values(document.paths)) {
        for (const parameter of (operation.get as { parameters: { name: string; schema: object; example?: unknown }[] }).parameters) {
          if (parameter.example === undefined) continue;
          const valid = ajv.validate(parameter.schema, parameter.example);
          expect(valid, `${parameter.name}=${JSON.stringify(parameter.example)}: ${ajv.errorsText()}`).toBe(true);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(3);
    });
  }
});

interface Case {
  url: string;
  /** The documented path of the combined document. */
  path: string;
}

const RATES = '/api/v3/search/ceilingrates/';
const cases = (): Case[] => [
  { url: '/websites?limit=5', path: '/websites' },
  { url: '/websites?final_url_live=true&dap_detected_final_url=false&page=2&limit=3', path: '/websites' },
  { url: '/websites?target_url_agency_owner=General%20Services%20Administration&scan_status=completed', path: '/websites' },
  { url: '/websites?page=99999', path: '/websites' },
  { url: '/websites?limit=0', path: '/websites' },
  { url: '/websites?final_url_live=maybe&scan_status=nope', path: '/websites' },
  { url: `/websites/${encodeURIComponent(target)}`, path: '/websites/{url}' },
  { url: '/websites/no-such-site.example', path: '/websites/{url}' },
  { url: '/analysis', path: '/analysis' },
  { url: '/analysis?final_url_live=true&target_url_redirects=false', path: '/analysis' },
  { url: '/analysis?limit=1000', path: '/analysis' },
  { url: `${RATES}?page_size=5`, path: RATES },
  { url: `${RATES}?keyword=engineer&filter=education_level:BA|MA&filter=price_range:50,150&ordering=vendor_name&sort=desc`, path: RATES },
  { url: `${RATES}?search=labor_category:Project+Manager&filter=business_size:S&filter=security_clearance:yes`, path: RATES },
  { url: `${RATES}?filter=experience_range:2,10&exclude=1|2|3&page=3&page_size=50`, path: RATES },
  { url: `${RATES}?keyword=zzzzzzzz`, path: RATES },
  { url: `${RATES}?suggest-contains=labor_category:eng`, path: RATES },
  { url: `${RATES}?suggest=vendor_name:a&suggest=labor_category:s`, path: RATES },
  { url: `${RATES}?export=y&keyword=analyst`, path: RATES },
  { url: `${RATES}?filter=nonsense:1`, path: RATES },
  { url: `${RATES}?page=0`, path: RATES },
];

/** The same request's path in a document: the ceiling-rates route's in full (its own document: the gateway path), without its trailing slash. */
function pathIn(documentName: string, path: string): string {
  if (path !== RATES) return path;
  return documentName === 'ceiling-rates' ? '/acquisition/calc/v3/api/ceilingrates' : '/api/v3/search/ceilingrates';
}

function checkAnswers(documentName: string, answering: Engine, only?: (c: Case) => boolean): number {
  const document = DOCUMENTS[documentName];
  const id = `https://offline-gov-api.local/${documentName}.json`;
  const ajv = ajvFor(document, id);
  let checked = 0;
  for (const c of cases().filter(only ?? (() => true))) {
    if (documentName === 'site-scanning' && c.path === RATES) continue;
    if (documentName === 'ceiling-rates' && c.path !== RATES) continue;
    const path = pathIn(documentName, c.path);
    const answer = answering.handle({ method: 'GET', url: c.url });
    const responses = (document.paths[path].get as { responses: Record<string, { content: Record<string, unknown> }> }).responses;
    expect(Object.keys(responses), `${c.url}: status ${answer.status} is documented`).toContain(String(answer.status));
    const type = answer.headers['content-type'].split(';')[0];
    expect(Object.keys(responses[answer.status].content), `${c.url}: ${type} is documented`).toContain(type);
    if (type !== 'application/json') continue;
    const validate = ajv.compile({ $ref: `${id}#/${pointer('paths', path, 'get', 'responses', String(answer.status), 'content', type, 'schema')}` });
    const body = JSON.parse(answer.body);
    expect(validate(body), `${c.url} (${answer.status}): ${ajv.errorsText(validate.errors)}`).toBe(true);
    checked++;
  }
  return checked;
}

describe("the engine's answers satisfy the documents' response schemas", () => {
  for (const name of Object.keys(DOCUMENTS)) {
    it(name, () => {
      expect(checkAnswers(name, engine)).toBeGreaterThan(5);
    });
  }

  it('the 503 of an API without its dataset is documented too', () => {
    const empty = createEngine();
    expect(checkAnswers('combined', empty, (c) => c.url === '/websites?limit=5' || c.url === `${RATES}?page_size=5` || c.url.startsWith('/analysis'))).toBe(5);
  });

  it('a schema that does not match fails: the check can fail', () => {
    const ajv = ajvFor(DOCUMENTS.combined, 'https://offline-gov-api.local/probe.json');
    const validate = ajv.compile({ $ref: 'https://offline-gov-api.local/probe.json#/components/schemas/WebsitePage' });
    const page = JSON.parse(engine.handle({ method: 'GET', url: '/websites?limit=1' }).body);
    expect(validate(page)).toBe(true);
    page.items[0].final_url_live = 'yes';
    expect(validate(page)).toBe(false);
    delete page.meta.totalPages;
    page.items[0].final_url_live = true;
    expect(validate(page)).toBe(false);
  });
});

describe("the request size limits are in the parameters' schemas", () => {
  const parameter = (document: OpenApiDocument, path: string, name: string): { schema: Record<string, any>; description: string } =>
    (document.paths[path].get as { parameters: { name: string; schema: Record<string, any>; description: string }[] }).parameters.find((p) => p.name === name)!;

  it('ceiling rates: maxItems of repeatable parameters, maxLength of texts, the id pattern bounded', () => {
    const path = Object.keys(DOCUMENTS['ceiling-rates'].paths)[0];
    expect(parameter(DOCUMENTS['ceiling-rates'], path, 'filter').schema.maxItems).toBe(50);
    expect(parameter(DOCUMENTS['ceiling-rates'], path, 'filter').description).toContain('at most 100 alternatives');
    expect(parameter(DOCUMENTS['ceiling-rates'], path, 'ordering').schema.maxItems).toBe(50);
    expect(parameter(DOCUMENTS['ceiling-rates'], path, 'keyword').schema.maxLength).toBe(10_000);
    expect(parameter(DOCUMENTS['ceiling-rates'], path, 'search').schema.items.pattern).toContain(',10000}$');
    expect(parameter(DOCUMENTS['ceiling-rates'], path, 'exclude').schema.items.pattern).toContain('{0,999}');
  });

  it("Site Scanning: the largest page and the owners' maxLength", () => {
    const path = Object.keys(DOCUMENTS['site-scanning'].paths).find((p) => p.endsWith('/websites'))!;
    expect(parameter(DOCUMENTS['site-scanning'], path, 'page').schema.maximum).toBe(1_000_000_000);
    expect(parameter(DOCUMENTS['site-scanning'], path, 'target_url_agency_owner').schema.maxLength).toBe(10_000);
  });
});
