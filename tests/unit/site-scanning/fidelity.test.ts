/**
 * Where the app answers as production does, point by point (docs/api/site-scanning.md): a prototype written
 * against production keeps working here, and the reverse. Six known records; one test per point.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/index.ts';
import { call } from '../../../harness/engine.ts';
import { hosts, knownEngine } from './fixtures.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await knownEngine();
});

const ALL = ['alpha.gsa.gov', 'beta.epa.gov', 'data.nasa.gov', 'gsa.gov', 'nasa.gov', 'www.epa.gov'];
const badRequest = (...message: string[]) => ({ message, error: 'Bad Request', statusCode: 400 });

describe('fidelity: Site Scanning', () => {
  it('point 1: an empty target_url_agency_owner= or target_url_bureau_owner= is skipped, not matched against ""', () => {
    for (const query of ['target_url_agency_owner=', 'target_url_bureau_owner=', 'target_url_agency_owner=&target_url_bureau_owner=']) {
      const { status, body } = call(engine, `/websites?${query}`);
      expect(status, query).toBe(200);
      expect(hosts(body), query).toEqual(ALL);
      // Skipped means skipped everywhere: the links carry no empty filter.
      expect(body.links.first, query).toBe('/websites?limit=10');
      expect(call(engine, `/analysis?${query}`).body.total, query).toBe(6);
    }
    // Beside a real filter, the empty one changes nothing.
    const epa = call(engine, '/websites?target_url_agency_owner=Environmental%20Protection%20Agency&target_url_bureau_owner=');
    expect(hosts(epa.body)).toEqual(['beta.epa.gov', 'www.epa.gov']);
    // Empty domain, boolean and scan_status values are still 400s.
    expect(call(engine, '/websites?target_url_domain=').body).toEqual(badRequest('target_url_domain must be a URL address'));
    expect(call(engine, '/websites?final_url_live=').body).toEqual(badRequest('final_url_live must be a boolean string'));
    expect(call(engine, '/websites?scan_status=').status).toBe(400);
  });

  it('point 3: page and limit are validated as sent, in class-validator order, then floored with a minimum of 1', () => {
    // Valid as sent, then floored: limit=0.5 is a page of 1.
    const half = call(engine, '/websites?limit=0.5');
    expect(half.status).toBe(200);
    expect(half.body.meta.itemsPerPage).toBe(1);
    expect(hosts(half.body)).toEqual(['alpha.gsa.gov']);
    expect(half.body.links.next).toBe('/websites?page=2&limit=1');
    expect(call(engine, '/websites?limit=99.9').body.meta.itemsPerPage).toBe(99);
    expect(call(engine, '/websites?page=1.9&limit=2').body.meta.currentPage).toBe(1);
    // Invalid as sent, whatever flooring would make of it.
    expect(call(engine, '/websites?limit=100.5').body).toEqual(badRequest('limit must not be greater than 100'));
    expect(call(engine, '/websites?page=0.5').body).toEqual(badRequest('page must not be less than 1'));
    // Every failing check, Min/Max first, then IsPositive, then IsNumber.
    expect(call(engine, '/websites?page=abc').body).toEqual(
      badRequest('page must not be less than 1', 'page must be a positive number', 'page must be a number conforming to the specified constraints'),
    );
    expect(call(engine, '/websites?page=0').body).toEqual(badRequest('page must not be less than 1', 'page must be a positive number'));
    expect(call(engine, '/websites?limit=abc').body).toEqual(
      badRequest('limit must not be greater than 100', 'limit must be a positive number', 'limit must be a number conforming to the specified constraints'),
    );
    expect(call(engine, '/analysis?limit=0').body).toEqual(badRequest('limit must be a positive number'));
  });
});
