/** GET /websites, as the API documentation reads: six known records, one test per parameter. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/index.ts';
import { ANSWERED_FIELDS } from '../../../engine/site-scanning/record.ts';
import { call } from '../../../harness/engine.ts';
import { KNOWN, hosts, knownEngine } from './fixtures.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await knownEngine();
});

describe('GET /websites', () => {
  it('lists every record in target_url byte order, ten per page by default', () => {
    const { status, headers, body } = call(engine, '/websites');
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(hosts(body)).toEqual(['alpha.gsa.gov', 'beta.epa.gov', 'data.nasa.gov', 'gsa.gov', 'nasa.gov', 'www.epa.gov']);
    expect(body.meta).toEqual({ totalItems: 6, itemCount: 6, itemsPerPage: 10, totalPages: 1, currentPage: 1 });
  });

  it('ignores a trailing slash and the letter case of the route words, under every base', () => {
    const list = call(engine, '/websites?limit=2').body;
    const analysis = call(engine, '/analysis').body;
    for (const base of ['', '/technology/site-scanning/v1', '/Technology/Site-Scanning/V1']) {
      for (const path of ['/websites/?limit=2', '/Websites?limit=2', '/WEBSITES/?limit=2']) {
        const answer = call(engine, base + path);
        expect(answer.status, base + path).toBe(200);
        // The same page; its links keep the base as the request wrote it.
        expect({ ...answer.body, links: list.links }, base + path).toEqual(list);
        expect(answer.body.links.first, base + path).toBe(`${base}/websites?limit=2`);
      }
      expect(call(engine, `${base}/analysis/`).body).toEqual(analysis);
      expect(call(engine, `${base}/Analysis`).body).toEqual(analysis);
      expect(call(engine, `${base}/Websites/GSA.gov`).body.target_url).toBe('gsa.gov');
    }
  });

  it('answers with the envelope keys in order: items, meta, links', () => {
    const { body } = call(engine, '/websites');
    expect(Object.keys(body)).toEqual(['items', 'meta', 'links']);
    expect(Object.keys(body.meta)).toEqual(['totalItems', 'itemCount', 'itemsPerPage', 'totalPages', 'currentPage']);
    expect(Object.keys(body.links)).toEqual(['first', 'previous', 'next', 'last']);
  });

  it('returns each record with the documented fields, in order, with their JSON types', () => {
    const { body } = call(engine, '/websites?limit=1');
    const record = body.items[0];
    expect(Object.keys(record)).toEqual(ANSWERED_FIELDS.map(([name]) => name));
    // The fixture has no robots.txt or sitemap.xml fields, so the checks made from them are unknown.
    const unknownChecks = {
      robots_txt_final_url_live: null,
      robots_txt_target_url_redirects: null,
      sitemap_xml_final_url_live: null,
      sitemap_xml_target_url_redirects: null,
    };
    expect(record).toEqual({ ...KNOWN[0], ...unknownChecks });
    expect(record.final_url_same_domain).toBe(true);
    expect(record.final_url_live).toBe(true);
    expect(record.final_url_status_code).toBe(200);
    expect(record.dap_parameters_final_url).toEqual({ agency: 'GSA' });
  });

  it('gives a failed scan its identity, owners and status, and null scan fields', () => {
    const { body } = call(engine, '/websites?scan_status=dns_resolution_error');
    expect(body.items).toHaveLength(1);
    const record = body.items[0];
    expect(record.target_url).toBe('nasa.gov');
    expect(record.target_url_agency_owner).toBe('National Aeronautics and Space Administration');
    expect(record.final_url).toBeNull();
    expect(record.final_url_live).toBeNull();
    expect(record.ds_usa_class_list).toBeNull();
  });

  it('answers an empty list as null, never []', async () => {
    const { body } = call(engine, '/websites/data.nasa.gov');
    expect(body.ds_usa_class_list).toBeNull();
    expect(body.third_party_service_domains).toBeNull();
    expect(body.third_party_service_count).toBe(0);
  });

  describe('filters (exact, case-sensitive, ANDed)', () => {
    const cases: [string, string[]][] = [
      ['target_url_domain=gsa.gov', ['alpha.gsa.gov', 'gsa.gov']],
      ['final_url_domain=science.gov', ['data.nasa.gov']],
      ['final_url_live=true', ['alpha.gsa.gov', 'gsa.gov', 'www.epa.gov']],
      ['final_url_live=false', ['data.nasa.gov']],
      ['final_url_live=1', ['alpha.gsa.gov', 'gsa.gov', 'www.epa.gov']],
      ['final_url_live=0', ['data.nasa.gov']],
      ['target_url_redirects=true', ['data.nasa.gov', 'gsa.gov']],
      ['target_url_agency_owner=Environmental%20Protection%20Agency', ['beta.epa.gov', 'www.epa.gov']],
      ['target_url_agency_owner=environmental%20protection%20agency', []],
      ['target_url_agency_owner=Environmental', []],
      ['target_url_bureau_owner=GSA%2C%20TTS', ['alpha.gsa.gov', 'gsa.gov']],
      ['target_url_bureau_owner=GSA,+TTS', ['alpha.gsa.gov', 'gsa.gov']],
      ['scan_status=timeout', ['beta.epa.gov']],
      ['scan_status=completed', ['alpha.gsa.gov', 'data.nasa.gov', 'gsa.gov', 'www.epa.gov']],
      ['dap_detected_final_url=true', ['alpha.gsa.gov', 'www.epa.gov']],
      ['dap_detected_final_url=false', ['data.nasa.gov', 'gsa.gov']],
      ['target_url_domain=nasa.gov&final_url_domain=science.gov', ['data.nasa.gov']],
      ['target_url_domain=nasa.gov&final_url_domain=nasa.gov', []],
      ['target_url_domain=gsa.gov&target_url_redirects=false&final_url_live=true', ['alpha.gsa.gov']],
    ];
    it.each(cases)('%s', (query, expected) => {
      const { status, body } = call(engine, `/websites?${query}`);
      expect(status).toBe(200);
      expect(hosts(body)).toEqual(expected);
      expect(body.meta.totalItems).toBe(expected.length);
    });

    it('never matches a failed scan (null) with either boolean value', () => {
      const live = hosts(call(engine, '/websites?final_url_live=true').body);
      const dead = hosts(call(engine, '/websites?final_url_live=false').body);
      expect([...live, ...dead]).not.toContain('nasa.gov');
      expect([...live, ...dead]).not.toContain('beta.epa.gov');
    });

    it('treats SQL-looking input as a plain value that matches nothing', () => {
      for (const value of ["' OR 1=1 --", "x' OR '1'='1", '"; DROP TABLE websites; --']) {
        const { status, body } = call(engine, `/websites?target_url_agency_owner=${encodeURIComponent(value)}`);
        expect(status).toBe(200);
        expect(body.items).toEqual([]);
      }
      expect(call(engine, '/websites').body.meta.totalItems).toBe(6);
    });
  });

  describe('paging', () => {
    it('limit sets the page size and page picks the page', () => {
      const { body } = call(engine, '/websites?limit=2&page=2');
      expect(hosts(body)).toEqual(['data.nasa.gov', 'gsa.gov']);
      expect(body.meta).toEqual({ totalItems: 6, itemCount: 2, itemsPerPage: 2, totalPages: 3, currentPage: 2 });
    });

    it('floors a fractional page or limit', () => {
      const { body } = call(engine, '/websites?limit=2.9&page=2.5');
      expect(hosts(body)).toEqual(['data.nasa.gov', 'gsa.gov']);
      expect(body.meta.itemsPerPage).toBe(2);
      expect(body.meta.currentPage).toBe(2);
    });

    it('accepts limit=100 and limit=1', () => {
      expect(call(engine, '/websites?limit=100').body.meta.itemsPerPage).toBe(100);
      expect(hosts(call(engine, '/websites?limit=1').body)).toEqual(['alpha.gsa.gov']);
    });

    it('first page: no previous link', () => {
      expect(call(engine, '/websites?limit=2').body.links).toEqual({
        first: '/websites?limit=2',
        previous: '',
        next: '/websites?page=2&limit=2',
        last: '/websites?page=3&limit=2',
      });
    });

    it('middle page: every link', () => {
      expect(call(engine, '/websites?limit=2&page=2').body.links).toEqual({
        first: '/websites?limit=2',
        previous: '/websites?page=1&limit=2',
        next: '/websites?page=3&limit=2',
        last: '/websites?page=3&limit=2',
      });
    });

    it('last page: no next link', () => {
      const { body } = call(engine, '/websites?limit=4&page=2');
      expect(hosts(body)).toEqual(['nasa.gov', 'www.epa.gov']);
      expect(body.links).toEqual({
        first: '/websites?limit=4',
        previous: '/websites?page=1&limit=4',
        next: '',
        last: '/websites?page=2&limit=4',
      });
    });

    it('past the end: no items, the page echoed', () => {
      const { status, body } = call(engine, '/websites?limit=4&page=9');
      expect(status).toBe(200);
      expect(body.items).toEqual([]);
      expect(body.meta).toEqual({ totalItems: 6, itemCount: 0, itemsPerPage: 4, totalPages: 2, currentPage: 9 });
      expect(body.links).toEqual({ first: '/websites?limit=4', previous: '/websites?page=8&limit=4', next: '', last: '/websites?page=2&limit=4' });
    });

    it('far past the end still answers', () => {
      const { status, body } = call(engine, '/websites?page=1000000000');
      expect(status).toBe(200);
      expect(body.items).toEqual([]);
      // The previous link names a page the API accepts, as plain digits.
      expect(body.links.previous).toBe('/websites?page=999999999&limit=10');
      expect(call(engine, body.links.previous).status).toBe(200);
    });

    it('a page beyond the largest is a 400 naming the limit (1e21 would make a link of 1e+21)', () => {
      for (const page of ['1000000001', '1e20', '1e21']) {
        const { status, body } = call(engine, `/websites?page=${page}`);
        expect(status).toBe(400);
        expect(body).toEqual({ message: ['page must not be greater than 1000000000'], error: 'Bad Request', statusCode: 400 });
      }
    });

    it('no results: zero pages and an empty last link', () => {
      const { body } = call(engine, '/websites?scan_status=aborted');
      expect(body.items).toEqual([]);
      expect(body.meta).toEqual({ totalItems: 0, itemCount: 0, itemsPerPage: 10, totalPages: 0, currentPage: 1 });
      expect(body.links).toEqual({ first: '/websites?scan_status=aborted&limit=10', previous: '', next: '', last: '' });
    });

    it('keeps the filters in the links, in the documented parameter order (fix)', () => {
      const { body } = call(engine, '/websites?final_url_live=true&target_url_agency_owner=General%20Services%20Administration&limit=1');
      expect(body.links.next).toBe('/websites?final_url_live=true&target_url_agency_owner=General%20Services%20Administration&page=2&limit=1');
      expect(hosts(call(engine, body.links.next).body)).toEqual(['gsa.gov']);
    });

    it('normalises a boolean filter in the links (1 → true)', () => {
      expect(call(engine, '/websites?dap_detected_final_url=1').body.links.first).toBe('/websites?dap_detected_final_url=true&limit=10');
    });
  });

  describe('parameters that change nothing', () => {
    it('ignores api_key', () => {
      expect(call(engine, '/websites?api_key=DEMO_KEY&limit=2').body).toEqual(call(engine, '/websites?limit=2').body);
    });

    it('ignores unknown parameters', () => {
      expect(call(engine, '/websites?sort=desc&foo=bar&limit=2').body).toEqual(call(engine, '/websites?limit=2').body);
    });

    it('uses the first value of a repeated parameter', () => {
      expect(hosts(call(engine, '/websites?scan_status=timeout&scan_status=completed').body)).toEqual(['beta.epa.gov']);
    });
  });
});
