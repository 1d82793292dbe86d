/**
 * A deployment under a sub-path (`BASE=/apps/gov/`): the mount is one more prefix in front of every API base and of
 * `/snapshots/<date>/`, nothing outside it is an API path, and the answers' links keep the path the request came by.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { APIS, createEngine, type Engine } from '../../../engine/index.ts';
import { mountAt, ROOT_MOUNT } from '../../../engine/http/mount.ts';
import { route, type Routed } from '../../../engine/http/route.ts';
import type { ApiResponse } from '../../../engine/http/types.ts';
import { generatedDatabase } from '../../../harness/engine.ts';

const MOUNT = mountAt('/apps/gov/');
let engine: Engine;

beforeAll(async () => {
  engine = createEngine();
  engine.use('websites', await generatedDatabase('websites'), null, '2025-06-09');
  engine.use('ceilingrates', await generatedDatabase('ceilingrates'));
});

const routeAt = (url: string, method = 'GET'): Routed | null => route(APIS, { method, url }, MOUNT);
function answerAt(url: string, method = 'GET'): ApiResponse & { json: any } {
  const routed = routeAt(url, method);
  if (!routed) throw new Error(`${url} is no API path under the mount`);
  const answer = engine.answer(routed);
  return { ...answer, json: answer.body ? JSON.parse(answer.body) : null };
}

describe('mountAt', () => {
  it('normalises the base as a build or a host writes it', () => {
    expect(mountAt('/')).toBe(ROOT_MOUNT);
    expect(mountAt('/apps/gov/')).toBe('/apps/gov');
    expect(mountAt('/apps/gov')).toBe('/apps/gov');
    expect(mountAt('//repo//')).toBe('/repo');
  });

  it('refuses a base that does not say where the app is', () => {
    for (const bad of ['', './', 'apps/gov/', '/apps/../gov/', '/apps/gov?x=1', '/apps/gov#top', '/apps gov/']) {
      expect(() => mountAt(bad), bad).toThrow(/base path/);
    }
  });
});

describe('every API path under the mount', () => {
  it('answers Site Scanning under the mount, at its app-root and gateway paths, with links under the same path', () => {
    const root = engine.handle({ method: 'GET', url: '/websites?limit=2&final_url_live=true' });
    for (const base of ['/apps/gov', '/apps/gov/technology/site-scanning/v1']) {
      const answer = answerAt(`${base}/websites?limit=2&final_url_live=true`);
      expect(answer.status, base).toBe(200);
      expect(answer.json.items, base).toEqual(JSON.parse(root.body).items);
      expect(answer.json.links.first, base).toBe(`${base}/websites?final_url_live=true&limit=2`);
      expect(answer.json.links.next, base).toBe(`${base}/websites?final_url_live=true&page=2&limit=2`);
    }
    expect(answerAt('http://localhost:8080/apps/gov/analysis').status).toBe(200);
    const target = JSON.parse(root.body).items[0].target_url as string;
    expect(answerAt(`/apps/gov/websites/${target}`).json.target_url).toBe(target);
  });

  it('answers ceiling rates under the mount at both its paths', () => {
    for (const base of ['/apps/gov/api/v3/search/ceilingrates/', '/apps/gov/acquisition/calc/v3/api/ceilingrates/']) {
      const answer = answerAt(`${base}?keyword=engineer&page_size=2`);
      expect(answer.status, base).toBe(200);
      expect(answer.json.hits.hits.length, base).toBeGreaterThan(0);
    }
  });

  it('answers a dated path under the mount, its links staying in the week', () => {
    const answer = answerAt('/apps/gov/snapshots/2025-06-09/websites?limit=1');
    expect(answer.status).toBe(200);
    expect(answer.json.links.next).toBe('/apps/gov/snapshots/2025-06-09/websites?page=2&limit=1');
    expect(answerAt('/apps/gov/snapshots').json.snapshots.map((s: { date: string }) => s.date)).toEqual(['2025-06-09']);
  });

  it("answers the APIs' own errors below the mount in the API's words, the mount left out as the API's server sees it", () => {
    expect(answerAt('/apps/gov/technology/site-scanning/v1/nothing').json).toEqual({
      message: 'Cannot GET /technology/site-scanning/v1/nothing',
      error: 'Not Found',
      statusCode: 404,
    });
    expect(answerAt('/apps/gov/api/v3/search/ceilingrates/', 'POST').json).toEqual({ detail: 'Method "POST" not allowed.' });
    expect(answerAt('/apps/gov/websites?limit=0').status).toBe(400);
  });

  it("leaves the app's own files under the mount and every path outside it to the door", () => {
    for (const path of ['/apps/gov/', '/apps/gov', '/apps/gov/index.html', '/apps/gov/assets/app.js', '/apps/gov/playground.html']) {
      expect(routeAt(path), path).toBeNull();
    }
    // The origin's other paths are not this deployment's (on GitHub Pages, another repository's site).
    for (const path of [
      '/websites',
      '/api/v3/search/ceilingrates/',
      '/technology/site-scanning/v1/websites',
      '/apps/government/websites',
      '/Apps/Gov/websites',
    ]) {
      expect(routeAt(path), path).toBeNull();
    }
  });

  it('routes at the root exactly as before when no mount is given', () => {
    const routed = route(APIS, { method: 'GET', url: '/technology/site-scanning/v1/websites?limit=1' });
    expect(routed).toMatchObject({
      kind: 'route',
      route: 'websites',
      base: '/technology/site-scanning/v1',
      prefix: '/technology/site-scanning/v1',
      pathname: '/technology/site-scanning/v1/websites',
    });
    expect(route(APIS, { method: 'GET', url: '/apps/gov/websites' })).toBeNull();
  });
});
