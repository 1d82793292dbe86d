import { describe, expect, it, vi } from 'vitest';
import { Engine } from '../../../engine/http/engine.ts';
import { matchRoute } from '../../../engine/http/match.ts';
import { json } from '../../../engine/http/respond.ts';
import type { ApiDefinition } from '../../../engine/http/routes.ts';
import type { Database } from 'sql.js';
import { createEngine } from '../../../engine/index.ts';
import { call, emptyDatabase, fakeDatabase } from '../../../harness/engine.ts';

// A toy API over a fake database: the engine's routing, methods and failure handling, without SQL.
const toyApi: ApiDefinition = {
  id: 'toy',
  dataset: 'websites',
  bases: ['', '/gateway/v1'],
  routes: [
    { name: 'list', pattern: '/things' },
    { name: 'one', pattern: '/things/*id' },
    { name: 'boom', pattern: '/boom' },
  ],
  allow: ['GET'],
  errors: {
    notFound: ({ path }) => json(404, { error: 'nf', path }),
    methodNotAllowed: ({ method }) => json(405, { error: 'na', method }),
    internal: () => json(500, { error: 'internal' }),
    unavailable: () => json(503, { error: 'unavailable' }),
  },
  options: () => json(200, { options: true }, { allow: 'GET, HEAD, OPTIONS' }),
  bind: () => ({
    list: (ctx) => json(200, { base: ctx.base, q: ctx.query.getAll('q') }),
    one: (ctx) => json(200, { id: ctx.params.id }),
    boom: () => {
      throw new Error('kaput');
    },
  }),
};

const fakeDb = fakeDatabase();

function engine(): Engine {
  const e = new Engine([toyApi]);
  e.use('websites', fakeDb);
  return e;
}

describe('route matching', () => {
  it('matches routes under every base and keeps the base', () => {
    expect(matchRoute([toyApi], '/things')?.base).toBe('');
    expect(matchRoute([toyApi], '/gateway/v1/things')?.base).toBe('/gateway/v1');
  });

  it('a rest parameter takes slashes and decodes escapes', () => {
    expect(matchRoute([toyApi], '/things/https://a.gov/')?.params).toEqual({ id: 'https://a.gov/' });
    expect(matchRoute([toyApi], '/things/a%2Fb')?.params).toEqual({ id: 'a/b' });
    expect(matchRoute([toyApi], '/things/%E0%A4%A')?.params).toEqual({ id: '%E0%A4%A' });
  });

  it('ignores a trailing slash and the letter case of fixed words, under every base', () => {
    for (const path of ['/things/', '/Things', '/THINGS/', '/Gateway/V1/things', '/gateway/v1/Things/']) {
      expect(matchRoute([toyApi], path)?.route?.name, path).toBe('list');
    }
    expect(matchRoute([toyApi], '/Things/AbC')?.params).toEqual({ id: 'AbC' });
    expect(matchRoute([toyApi], '/gateway/v1x/things')).toBeNull();
  });

  it('app-root paths that name no route are not API paths; paths under an API base are', () => {
    expect(matchRoute([toyApi], '/index.html')).toBeNull();
    expect(matchRoute([toyApi], '/gateway/v1/nothing')?.route).toBeNull();
  });
});

describe('Engine.handle', () => {
  it('answers GET with the handler and passes repeated parameters in order', () => {
    const r = engine().handle({ method: 'GET', url: '/gateway/v1/things?q=b&q=a' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(r.body)).toEqual({ base: '/gateway/v1', q: ['b', 'a'] });
  });

  it('accepts absolute URLs', () => {
    expect(engine().handle({ method: 'GET', url: 'http://localhost:4173/things/x' }).body).toBe('{"id":"x"}');
  });

  it('HEAD gives the GET status and headers with no body', () => {
    const r = engine().handle({ method: 'HEAD', url: '/things' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toContain('application/json');
    expect(r.body).toBe('');
  });

  it('OPTIONS goes to the API options answer; other methods get the API 405', () => {
    expect(engine().handle({ method: 'OPTIONS', url: '/things' }).headers.allow).toBe('GET, HEAD, OPTIONS');
    const r = engine().handle({ method: 'post', url: '/things' });
    expect(r.status).toBe(405);
    expect(JSON.parse(r.body)).toEqual({ error: 'na', method: 'POST' });
  });

  it('unknown paths under an API base get that API 404', () => {
    const r = engine().handle({ method: 'GET', url: '/gateway/v1/nope' });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body)).toEqual({ error: 'nf', path: '/gateway/v1/nope' });
  });

  it('a handler that throws gives the API 500, is logged, and the engine keeps answering', () => {
    const e = engine();
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(e.handle({ method: 'GET', url: '/boom' }).status).toBe(500);
    expect(log).toHaveBeenCalled();
    log.mockRestore();
    expect(e.handle({ method: 'GET', url: '/things' }).status).toBe(200);
  });

  it('without a database the API answers 503 in its own shape; use(null) removes it', () => {
    const e = engine();
    e.use('websites', null);
    const r = e.handle({ method: 'GET', url: '/things' });
    expect(r.status).toBe(503);
    expect(JSON.parse(r.body)).toEqual({ error: 'unavailable' });
  });

  it('binds once per database and rebinds when the dataset is replaced', () => {
    const bind = vi.fn(toyApi.bind);
    const e = new Engine([{ ...toyApi, bind }]);
    e.use('websites', fakeDb);
    e.handle({ method: 'GET', url: '/things' });
    e.handle({ method: 'GET', url: '/things' });
    expect(bind).toHaveBeenCalledTimes(1);
    e.use('websites', fakeDatabase());
    e.handle({ method: 'GET', url: '/things' });
    expect(bind).toHaveBeenCalledTimes(2);
  });

  it('route matching tells API paths from app files', () => {
    expect(matchRoute(engine().apis, '/things')).not.toBeNull();
    expect(matchRoute(engine().apis, '/assets/app.js')).toBeNull();
  });
});

describe('the databases the engine holds', () => {
  const lockingMode = (db: Database): unknown => db.exec('PRAGMA locking_mode')[0].values[0][0];

  it('keep their lock between statements (exclusive locking), and an export keeps the connection and its lock', async () => {
    const db = await emptyDatabase('websites');
    expect(lockingMode(db)).toBe('normal');
    const e = createEngine();
    e.use('websites', db);
    expect(lockingMode(db)).toBe('exclusive');
    expect(call(e, '/websites?limit=1').status).toBe(200);
    // The datasets view's "download the database file": sql.js copies it through SQLite's backup API.
    const copy = db.export();
    expect(copy.byteLength).toBeGreaterThan(0);
    expect(lockingMode(db)).toBe('exclusive');
    expect(call(e, '/websites?limit=1').body.meta.totalItems).toBe(0);
  });
});
