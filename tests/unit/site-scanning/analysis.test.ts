/** GET /analysis: counts over the matching records. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/index.ts';
import { call } from '../../../harness/engine.ts';
import { knownEngine } from './fixtures.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await knownEngine();
});

describe('GET /analysis', () => {
  it('counts records, distinct final base domains and distinct agencies, keys in order', () => {
    const { status, body, raw } = call(engine, '/analysis');
    expect(status).toBe(200);
    // final domains: gsa.gov, science.gov, epa.gov and null (the two failed scans) → 4; agencies: 3.
    expect(body).toEqual({ queueCounts: { waiting: 0, active: 0, delayed: 0, failed: 0 }, total: 6, totalFinalUrlBaseDomains: 4, totalAgencies: 3 });
    expect(raw.body).toBe('{"queueCounts":{"waiting":0,"active":0,"delayed":0,"failed":0},"total":6,"totalFinalUrlBaseDomains":4,"totalAgencies":3}');
  });

  it('applies the same filters as /websites', () => {
    expect(call(engine, '/analysis?final_url_live=true').body).toMatchObject({ total: 3, totalFinalUrlBaseDomains: 2, totalAgencies: 2 });
    expect(call(engine, '/analysis?target_url_domain=nasa.gov').body).toMatchObject({ total: 2, totalFinalUrlBaseDomains: 2, totalAgencies: 1 });
  });

  it('counts zero of everything when nothing matches', () => {
    expect(call(engine, '/analysis?scan_status=aborted').body).toMatchObject({ total: 0, totalFinalUrlBaseDomains: 0, totalAgencies: 0 });
  });

  it('validates page and limit, then ignores them', () => {
    expect(call(engine, '/analysis?page=3&limit=1').body.total).toBe(6);
    expect(call(engine, '/analysis?limit=101').body).toEqual({
      statusCode: 400,
      message: ['limit must not be greater than 100'],
      error: 'Bad Request',
    });
  });

  it('validates the filters like /websites', () => {
    const { status, body } = call(engine, '/analysis?final_url_live=yes');
    expect(status).toBe(400);
    expect(body.message).toEqual(['final_url_live must be a boolean string']);
  });

  it('is served under the gateway base as well', () => {
    expect(call(engine, '/technology/site-scanning/v1/analysis').body.total).toBe(6);
  });
});
