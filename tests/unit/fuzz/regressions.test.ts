/**
 * Bugs the fuzzer found, pinned as plain examples so they stay fixed whatever the random draws do.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { call, generatedDatabase } from '../../../harness/engine.ts';

let engine: Engine;
beforeAll(async () => {
  engine = createEngine();
  engine.use('websites', await generatedDatabase('websites', 50));
  engine.use('ceilingrates', await generatedDatabase('ceilingrates', 50));
});

describe('Site Scanning boolean filters and the names every object inherits', () => {
  // Found: `value in {true: …}` also holds for `constructor`, `toString`, `__proto__`…, whose (non-boolean)
  // value was then bound into SQL and sql.js threw: 500 instead of 400.
  const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];
  for (const filter of ['final_url_live', 'target_url_redirects', 'dap_detected_final_url']) {
    for (const route of ['/websites', '/analysis', '/technology/site-scanning/v1/websites']) {
      it(`${route}?${filter}=<inherited name> is a 400 naming the filter`, () => {
        for (const name of names) {
          const { status, body } = call(engine, `${route}?${filter}=${name}`);
          expect(status, name).toBe(400);
          expect(body).toEqual({ statusCode: 400, message: [`${filter} must be a boolean string`], error: 'Bad Request' });
        }
      });
    }
  }

  it('the accepted spellings still filter', () => {
    const all = call(engine, '/analysis').body.total;
    const live = call(engine, '/analysis?final_url_live=true').body.total;
    const notLive = call(engine, '/analysis?final_url_live=0').body.total;
    expect(live + notLive).toBeLessThanOrEqual(all);
    expect(live).toBeGreaterThan(0);
    expect(call(engine, '/analysis?final_url_live=1').body.total).toBe(live);
  });
});

describe('HEAD never carries a body', () => {
  // Found: HEAD on a path that names no route (the engine's own 404, or an API's 404 under its base) and on a
  // URL the parser refuses (the engine's 400) answered with the GET's body.
  const urls = ['/', '/nowhere', '/websites/', '/technology/site-scanning/v1', '/api/v3/search/ceilingrates/x', '///', 'http://[::1'];
  for (const url of urls) {
    it(`HEAD ${url}: the GET's status and headers, no body`, () => {
      const get = engine.handle({ method: 'GET', url });
      for (const method of ['HEAD', 'head', 'HeAd']) {
        const head = engine.handle({ method, url });
        expect(get.body).not.toBe('');
        expect(head).toEqual({ ...get, body: '' });
      }
    });
  }
});

describe('a NUL inside a value is text, not the end of it', () => {
  // Checked because C-string binding would cut `18f.gov\0evil` to `18f.gov` and find a record.
  it('/websites/{url} and the owner filter do not match on the part before the NUL', () => {
    const [record] = call(engine, '/websites?limit=1').body.items;
    const owner = encodeURIComponent(record.target_url_agency_owner);
    expect(call(engine, `/websites/${encodeURIComponent(record.target_url)}`).status).toBe(200);
    expect(call(engine, `/websites/${encodeURIComponent(record.target_url)}%00evil`).status).toBe(404);
    expect(call(engine, `/analysis?target_url_agency_owner=${owner}`).body.total).toBeGreaterThan(0);
    expect(call(engine, `/analysis?target_url_agency_owner=${owner}%00zzz`).body.total).toBe(0);
  });

  it('ceiling rates search does not match on the part before the NUL', () => {
    const [hit] = call(engine, '/api/v3/search/ceilingrates/?page_size=1').body.hits.hits;
    const vendor = encodeURIComponent(hit._source.vendor_name);
    expect(call(engine, `/api/v3/search/ceilingrates/?search=vendor_name:${vendor}`).body.hits.total.value).toBeGreaterThan(0);
    expect(call(engine, `/api/v3/search/ceilingrates/?search=vendor_name:${vendor}%00x`).body.hits.total.value).toBe(0);
  });
});
