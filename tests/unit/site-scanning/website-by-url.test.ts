/** GET /websites/{url}: one record by its target URL. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/index.ts';
import { call } from '../../../harness/engine.ts';
import { KNOWN, knownEngine } from './fixtures.ts';
import { referenceRecord } from '../../../harness/site-scanning-reference.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await knownEngine();
});

const NOT_FOUND = { statusCode: 404, message: 'No website found for provided target url', error: 'Not Found' };

describe('GET /websites/{url}', () => {
  it('returns the record whose target_url matches', () => {
    const { status, body } = call(engine, '/websites/gsa.gov');
    expect(status).toBe(200);
    expect(body).toEqual(referenceRecord(KNOWN.find((r) => r.target_url === 'gsa.gov')!));
  });

  it('matches after lower-casing', () => {
    expect(call(engine, '/websites/GSA.Gov').body.target_url).toBe('gsa.gov');
  });

  it('strips a pasted scheme and trailing slash (fix), encoded or not', () => {
    expect(call(engine, '/websites/https://www.epa.gov/').body.target_url).toBe('www.epa.gov');
    expect(call(engine, '/websites/http%3A%2F%2Fgsa.gov%2F').body.target_url).toBe('gsa.gov');
  });

  it('does not strip www.', () => {
    expect(call(engine, '/websites/www.gsa.gov').body).toEqual(NOT_FOUND);
    expect(call(engine, '/websites/epa.gov').status).toBe(404);
  });

  it('answers a failed scan too', () => {
    const { status, body } = call(engine, '/websites/nasa.gov');
    expect(status).toBe(200);
    expect(body.scan_status).toBe('dns_resolution_error');
  });

  it('answers 404 with the documented body when nothing matches', () => {
    const { status, body } = call(engine, '/websites/nonexistent.gov');
    expect(status).toBe(404);
    expect(body).toEqual(NOT_FOUND);
  });

  it('treats SQL-looking input as a plain value', () => {
    const { status, body } = call(engine, `/websites/${encodeURIComponent("' OR 1=1 --")}`);
    expect(status).toBe(404);
    expect(body).toEqual(NOT_FOUND);
  });

  it('is served under the gateway base as well', () => {
    expect(call(engine, '/technology/site-scanning/v1/websites/gsa.gov').body.target_url).toBe('gsa.gov');
  });
});
