import { describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/http/engine.ts';
import { json } from '../../../engine/http/respond.ts';
import type { ApiDefinition } from '../../../engine/http/routes.ts';
import { createEngine } from '../../../engine/index.ts';
import { fakeDatabase, generatedDatabase } from '../../../harness/engine.ts';

// The toy API of engine.test.ts, reduced: CORS is the router's, whatever the API.
const toyApi: ApiDefinition = {
  id: 'toy',
  dataset: 'websites',
  bases: ['', '/gateway/v1'],
  routes: [{ name: 'list', pattern: '/things' }],
  allow: ['GET'],
  errors: {
    notFound: () => json(404, { error: 'nf' }),
    methodNotAllowed: () => json(405, { error: 'na' }),
    internal: () => json(500, { error: 'internal' }),
    unavailable: () => json(503, { error: 'unavailable' }),
  },
  options: () => json(200, { options: true }),
  bind: () => ({ list: () => json(200, { ok: true }) }),
};

function engine(): Engine {
  const e = new Engine([toyApi]);
  e.use('websites', fakeDatabase());
  return e;
}

describe('CORS', () => {
  it('every answer may be read from any origin: 200, 404, 405, 503 and HEAD', () => {
    const e = engine();
    for (const [method, url] of [
      ['GET', '/things'],
      ['HEAD', '/things'],
      ['GET', '/gateway/v1/nothing'],
      ['POST', '/things'],
    ]) {
      expect(e.handle({ method, url }).headers['access-control-allow-origin'], `${method} ${url}`).toBe('*');
    }
    e.use('websites', null);
    const unavailable = e.handle({ method: 'GET', url: '/things' });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers['access-control-allow-origin']).toBe('*');
  });

  it('a preflight gets 204 with the methods and the asked headers echoed, whatever their letter case', () => {
    const r = engine().handle({
      method: 'OPTIONS',
      url: '/gateway/v1/things?x=1',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
    });
    expect(r.status).toBe(204);
    expect(r.body).toBe('');
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(r.headers['access-control-allow-headers']).toBe('x-api-key');
  });

  it('a preflight that asks for no headers allows none', () => {
    const r = engine().handle({ method: 'OPTIONS', url: '/things', headers: { 'access-control-request-method': 'GET' } });
    expect(r.status).toBe(204);
    expect(r.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('a plain OPTIONS (no Access-Control-Request-Method) keeps the API options answer', () => {
    const r = engine().handle({ method: 'OPTIONS', url: '/things', headers: { origin: 'http://localhost:5173' } });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ options: true });
    expect(r.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('CORS on both real APIs', () => {
  it('Site Scanning and ceiling rates answers, preflights and plain OPTIONS', async () => {
    const e = createEngine();
    e.use('websites', await generatedDatabase('websites'));
    e.use('ceilingrates', await generatedDatabase('ceilingrates'));
    for (const url of [
      '/websites?limit=1',
      '/technology/site-scanning/v1/analysis',
      '/websites/nowhere.gov',
      '/api/v3/search/ceilingrates/?page_size=1',
      '/acquisition/calc/v3/api/ceilingrates/',
    ]) {
      const r = e.handle({ method: 'GET', url });
      expect(r.headers['access-control-allow-origin'], url).toBe('*');
      const p = e.handle({ method: 'OPTIONS', url, headers: { 'access-control-request-method': 'GET', 'access-control-request-headers': 'X-Api-Key' } });
      expect(p.status, url).toBe(204);
      expect(p.headers['access-control-allow-headers']).toBe('X-Api-Key');
    }
    const plain = e.handle({ method: 'OPTIONS', url: '/api/v3/search/ceilingrates/' });
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.body).name).toBe('Ceiling Rates');
  });
});
