/** Errors in the framework's shape: 400 per bad parameter, 404, 405, 500 (engine stays usable), 503; HEAD; bases. */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { matchRoute } from '../../../engine/http/match.ts';
import { SCAN_STATUSES } from '../../../engine/site-scanning/record.ts';
import { createWebsitesSchema, insertWebsites } from '../../../engine/site-scanning/schema.ts';
import { call, engineOver } from '../../../harness/engine.ts';
import { KNOWN, knownDatabase, knownEngine } from './fixtures.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await knownEngine();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const badRequest = (...message: string[]) => ({ statusCode: 400, message, error: 'Bad Request' });

describe('400 Bad Request: every failing check is listed', () => {
  const cases: [string, string[]][] = [
    ['limit=101', ['limit must not be greater than 100']],
    ['limit=100.5', ['limit must not be greater than 100']],
    ['limit=0', ['limit must be a positive number']],
    ['limit=-5', ['limit must be a positive number']],
    ['limit=abc', ['limit must not be greater than 100', 'limit must be a positive number', 'limit must be a number conforming to the specified constraints']],
    ['limit=Infinity', ['limit must not be greater than 100', 'limit must be a number conforming to the specified constraints']],
    ['page=0', ['page must not be less than 1', 'page must be a positive number']],
    ['page=0.5', ['page must not be less than 1']],
    ['page=-2', ['page must not be less than 1', 'page must be a positive number']],
    ['page=abc', ['page must not be less than 1', 'page must be a positive number', 'page must be a number conforming to the specified constraints']],
    ['page=Infinity', ['page must be a number conforming to the specified constraints']],
    ['final_url_live=yes', ['final_url_live must be a boolean string']],
    ['final_url_live=TRUE', ['final_url_live must be a boolean string']],
    ['target_url_redirects=', ['target_url_redirects must be a boolean string']],
    ['dap_detected_final_url=2', ['dap_detected_final_url must be a boolean string']],
    ['scan_status=bogus', [`scan_status must be one of the following values: ${SCAN_STATUSES.join(', ')}`]],
    ['scan_status=Completed', [`scan_status must be one of the following values: ${SCAN_STATUSES.join(', ')}`]],
    ['target_url_domain=gsa', ['target_url_domain must be a URL address']],
    ['final_url_domain=gsa', ['final_url_domain must be a URL address']],
    ['target_url_domain=%27%20OR%201%3D1%20--', ['target_url_domain must be a URL address']],
  ];
  it.each(cases)('%s', (query, messages) => {
    const { status, body } = call(engine, `/websites?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual(badRequest(...messages));
  });

  it('lists the scan_status values in the documented order', () => {
    expect(call(engine, '/websites?scan_status=bogus').body.message[0]).toBe(
      'scan_status must be one of the following values: address_unreachable, completed, connection_closed, connection_refused, connection_reset, dns_resolution_error, empty_response, invalid_response, evaluation_failed, execution_context_destroyed, http2_error, invalid_ssl_cert, not_applicable, page_frame_not_ready, skipped, ssl_version_cipher_mismatch, timeout, too_many_redirects, invalid_auth_credentials, ssl_protocol_error, aborted, unknown_error',
    );
  });

  it('lists several failures together, filters first in parameter order, then page, then limit', () => {
    const { body } = call(engine, '/websites?limit=101&page=0&scan_status=bogus&final_url_live=yes&target_url_domain=gsa');
    expect(body.message).toEqual([
      'target_url_domain must be a URL address',
      'final_url_live must be a boolean string',
      `scan_status must be one of the following values: ${SCAN_STATUSES.join(', ')}`,
      'page must not be less than 1',
      'page must be a positive number',
      'limit must not be greater than 100',
    ]);
  });

  it('accepts real domains, with or without a scheme', () => {
    expect(call(engine, '/websites?target_url_domain=18f.gov').status).toBe(200);
    expect(call(engine, '/websites?final_url_domain=https://science.gov').status).toBe(200);
  });
});

describe('404 Not Found', () => {
  it("an unknown path under the gateway base gets the framework's route 404", () => {
    const { status, body } = call(engine, '/technology/site-scanning/v1/x');
    expect(status).toBe(404);
    expect(body).toEqual({ statusCode: 404, message: 'Cannot GET /technology/site-scanning/v1/x', error: 'Not Found' });
  });

  it("a path outside every API is not the engine's", () => {
    expect(matchRoute(engine.apis, '/index.html')).toBeNull();
    expect(matchRoute(engine.apis, '/websites')).not.toBeNull();
    expect(matchRoute(engine.apis, '/technology/site-scanning/v1/anything')).not.toBeNull();
  });
});

describe('other methods: 404 as Express answers a route it does not have', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s', (method) => {
    for (const path of ['/websites', '/websites/gsa.gov', '/analysis', '/technology/site-scanning/v1/websites']) {
      const { status, raw } = call(engine, path, method);
      expect(status).toBe(404);
      // Key order is part of the answer: Nest ≥ 8 writes message, error, statusCode.
      expect(raw.body).toBe(JSON.stringify({ message: `Cannot ${method} ${path}`, error: 'Not Found', statusCode: 404 }));
    }
  });
});

describe('400 body', () => {
  it('lists message, error, statusCode in that order', () => {
    expect(call(engine, '/websites?limit=101').raw.body).toBe(
      JSON.stringify({ message: ['limit must not be greater than 100'], error: 'Bad Request', statusCode: 400 }),
    );
  });
});

describe('HEAD', () => {
  it("answers the GET's status and headers with no body", () => {
    const get = call(engine, '/websites?limit=2');
    const head = call(engine, '/websites?limit=2', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers).toEqual(get.headers);
    expect(head.raw.body).toBe('');
    expect(call(engine, '/websites/nonexistent.gov', 'HEAD').status).toBe(404);
    expect(call(engine, '/websites?limit=101', 'HEAD').status).toBe(400);
  });
});

describe('500 Internal server error', () => {
  it("answers in the framework's shape, logs the request, and the engine stays usable", async () => {
    const db = await knownDatabase();
    const broken = engineOver('websites', db);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    db.run('DROP TABLE websites');
    for (const path of ['/websites', '/websites/gsa.gov', '/analysis']) {
      const { status, body } = call(broken, path);
      expect(status).toBe(500);
      expect(body).toEqual({ statusCode: 500, message: 'Internal server error' });
    }
    expect(logged).toHaveBeenCalled();
    expect(String(logged.mock.calls[0])).toContain('/websites');
    // Bad input is still checked before the database is touched.
    expect(call(broken, '/websites?limit=101').status).toBe(400);

    createWebsitesSchema(db);
    insertWebsites(db, KNOWN);
    expect(call(broken, '/websites').body.meta.totalItems).toBe(6);
  });
});

describe('503 when no websites dataset is loaded', () => {
  it("answers in the framework's shape", () => {
    const { status, body } = call(createEngine(), '/websites');
    expect(status).toBe(503);
    expect(body).toEqual({ statusCode: 503, message: 'Website dataset not loaded', error: 'Service Unavailable' });
  });
});

describe('the three bases', () => {
  it('answer the same records at the app root, the gateway path and an absolute URL, each linking under its own base', () => {
    const root = call(engine, '/websites?limit=3&page=2').body;
    const gateway = call(engine, '/technology/site-scanning/v1/websites?limit=3&page=2').body;
    const absolute = call(engine, 'http://localhost:4173/technology/site-scanning/v1/websites?limit=3&page=2&api_key=X').body;
    for (const answer of [gateway, absolute]) {
      expect(answer.items).toEqual(root.items);
      expect(answer.meta).toEqual(root.meta);
      expect(answer.links).toEqual(Object.fromEntries(Object.entries(root.links).map(([k, v]) => [k, v && `/technology/site-scanning/v1${v}`])));
    }
    expect(root.links.previous).toBe('/websites?page=1&limit=3');
  });
});
