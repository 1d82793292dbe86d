/**
 * A third API joins with its own folder's code and one registry line: here a tiny "holidays" dataset, whose
 * definition below is all a new API brings. The router, the engine, HEAD/CORS/503 and the dataset host
 * answer it with no change of theirs, and the two real APIs answer as before.
 */
import { describe, expect, it } from 'vitest';
import initSqlJs, { type Database } from 'sql.js';
import { DATASETS, Engine, type DatasetDefinition } from '../../../engine/index.ts';
import { route } from '../../../engine/http/route.ts';
import { json } from '../../../engine/http/respond.ts';
import type { ApiDefinition } from '../../../engine/http/routes.ts';
import { DatasetHost } from '../../../dataset/host/host.ts';

declare module '../../../engine/http/types.ts' {
  interface DatasetNames {
    holidays: true;
  }
}

const holidaysApi: ApiDefinition = {
  id: 'holidays',
  dataset: 'holidays',
  bases: ['/holidays-api'],
  routes: [{ name: 'list', pattern: '/holidays' }],
  allow: ['GET'],
  errors: {
    notFound: () => json(404, { error: 'no such path' }),
    methodNotAllowed: ({ method }) => json(405, { error: `${method} not allowed` }),
    internal: () => json(500, { error: 'internal' }),
    unavailable: () => json(503, { error: 'holidays not loaded' }),
  },
  bind: (db) => ({
    list: (ctx) => {
      const year = ctx.query.get('year') ?? '';
      const rows = db.exec('SELECT name FROM holidays WHERE day LIKE ? ORDER BY day', [`${year}%`])[0]?.values ?? [];
      return json(200, { year, holidays: rows.map((r) => r[0]) });
    },
  }),
};

/** The one registry line a third dataset adds (here in a test's own registry). */
const holidays: DatasetDefinition = {
  name: 'holidays',
  title: 'Federal holidays',
  api: holidaysApi,
  tables: ['holidays'],
  createSchema: (db) => db.run('CREATE TABLE holidays (day TEXT, name TEXT)'),
};
const REGISTRY = [...DATASETS, holidays];

async function holidaysDatabase(): Promise<Database> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  holidays.createSchema(db);
  db.run("INSERT INTO holidays VALUES ('2025-01-01', 'New Year''s Day'), ('2025-07-04', 'Independence Day'), ('2026-01-01', 'New Year''s Day')");
  return db;
}

describe('a third dataset', () => {
  it('is routed and answered by the engine from its registry entry alone', async () => {
    const engine = new Engine(REGISTRY.map((d) => d.api));
    const apis = engine.apis;
    expect(route(apis, { method: 'GET', url: '/holidays-api/holidays?year=2025' })).toMatchObject({
      kind: 'route',
      api: 'holidays',
      dataset: 'holidays',
      route: 'list',
    });

    // Before its data is there: its own 503, with Retry-After and CORS like every API's.
    const early = engine.handle({ method: 'GET', url: '/holidays-api/holidays' });
    expect([early.status, early.headers['retry-after'], early.headers['access-control-allow-origin']]).toEqual([503, '5', '*']);

    engine.use('holidays', await holidaysDatabase());
    const answer = engine.handle({ method: 'GET', url: '/HOLIDAYS-API/holidays/?year=2025' });
    expect(JSON.parse(answer.body)).toEqual({ year: '2025', holidays: ["New Year's Day", 'Independence Day'] });
    expect(engine.handle({ method: 'HEAD', url: '/holidays-api/holidays' }).body).toBe('');
    expect(JSON.parse(engine.handle({ method: 'GET', url: '/holidays-api/nothing' }).body)).toEqual({ error: 'no such path' });
    expect(engine.handle({ method: 'POST', url: '/holidays-api/holidays' }).status).toBe(405);

    // The real APIs are untouched: no data of theirs here, so their own 503s.
    expect(JSON.parse(engine.handle({ method: 'GET', url: '/websites' }).body).message).toBe('Website dataset not loaded');
    expect(engine.handle({ method: 'GET', url: '/api/v3/search/ceilingrates/' }).status).toBe(503);
  });

  it('gets a slot in the dataset host, which waits for it and answers like the engine', async () => {
    const never = () => Promise.reject(new Error('not used'));
    const host = new DatasetHost({ sqlJs: () => initSqlJs(), fetch: never, imports: { activeImports: async () => ({}), readImport: never } }, REGISTRY);
    expect(host.status().datasets.map((d) => d.name)).toEqual(['websites', 'ceilingrates', 'holidays']);
    // A request waits on its own dataset's gate, and is answered once that dataset is in.
    const waiting = host.handle({ method: 'GET', url: '/holidays-api/holidays?year=2026' });
    host.adopt('holidays', host.opened(await holidaysDatabase(), { name: 'holidays', loaded: true }));
    expect(JSON.parse((await waiting).body)).toEqual({ year: '2026', holidays: ["New Year's Day"] });
    expect(host.status().datasets.find((d) => d.name === 'holidays')?.loaded).toBe(true);
  });
});
