/**
 * Issue 7, part 1: thousands of random and hostile requests to every endpoint under every base, through the
 * engine. Every answer must be well-formed in its API's own shape (well-formed.ts) with a 2xx, 400, 404, 405
 * or 406; nothing throws, nothing is logged as an internal error, and afterwards the engine still answers
 * known requests exactly as it did before. Seeds are fixed so a failure reproduces.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import fc from 'fast-check';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { generatedDatabase } from '../../../harness/engine.ts';
import { PAYLOAD_COUNT, payloadInUrl } from '../../../harness/fuzz/payloads.ts';
import {
  anyPathArb,
  CEILING_BASES,
  CEILING_PARAMS,
  ceilingPathArb,
  FILTER_NAMES,
  methodArb,
  queryArb,
  SEARCH_FIELDS,
  SITE_BASES,
  SITE_PARAMS,
  siteListPathArb,
  websiteByUrlPathArb,
} from '../../../harness/fuzz/requests.ts';
import { send, tally, timeReport } from '../../../harness/fuzz/well-formed.ts';
import { oversizedRequestArb } from '../../../harness/fuzz/oversized.ts';
import { runs } from './runs.ts';

let engine: Engine;
let consoleError: MockInstance;

/** Known requests and their answers before any fuzzing (`took` aside): the engine must still give these. */
const KNOWN = [
  '/websites?limit=3&page=2',
  '/websites?scan_status=completed&final_url_live=true&limit=5',
  '/analysis',
  '/websites/18f.gov',
  '/api/v3/search/ceilingrates/?page_size=5&ordering=vendor_name&sort=desc',
  '/api/v3/search/ceilingrates/?filter=price_range:50,150&filter=education_level:BA|MA&page=2',
  '/api/v3/search/ceilingrates/?suggest=vendor_name:a',
  '/api/v3/search/ceilingrates/?export=y&filter=price_range:100,101',
] as const;
/** ~20 of the 3,000 generated rates: keeps an answer (and an export) small without changing how parameters parse. */
const NARROW = 'filter=price_range:100,101';
const NARROW_OR_NOT = fc.constantFrom(`${NARROW}&`, `${NARROW}&`, `${NARROW}&`, '');
const NUMERIC_FILTERS = ['price_range', 'experience_range', 'min_years_experience', 'current_price'];
const TEXT_FILTERS = FILTER_NAMES.filter((name) => !NUMERIC_FILTERS.includes(name));
const before = new Map<string, { status: number; body: string }>();

function stable(url: string): { status: number; body: string } {
  const { status, body } = engine.handle({ method: 'GET', url });
  return { status, body: body.replace(/^\{"took":\d+,/, '{"took":0,') };
}

beforeAll(async () => {
  engine = createEngine();
  engine.use('websites', await generatedDatabase('websites'));
  engine.use('ceilingrates', await generatedDatabase('ceilingrates'));
  for (const url of KNOWN) before.set(url, stable(url));
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  // An internal error is answered (500) and logged; none may have happened.
  const logged = consoleError.mock.calls.map((args) => args.slice(0, 3).map(String).join(' '));
  consoleError.mockClear();
  expect(logged).toEqual([]);
  for (const url of KNOWN) expect(stable(url), `still answers ${url}`).toEqual(before.get(url));
});

afterAll(() => {
  consoleError.mockRestore();
  const statuses = [...tally.statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`)
    .join(', ');
  console.log(
    `fuzz: ${tally.requests} requests sent to the engine (${statuses}), each GET sent twice (${tally.repeats} repeats); ${PAYLOAD_COUNT} distinct hostile payloads swept over every parameter; ${timeReport()}`,
  );
});

it('the known requests are answered (the baseline is not itself an error)', () => {
  expect([...before.values()].map((r) => r.status)).toEqual(KNOWN.map(() => 200));
  expect(JSON.parse(before.get('/analysis')!.body).total).toBe(2000);
});

describe('every known parameter × every hostile payload', () => {
  it('Site Scanning /websites and /analysis (they share their parsing), alternating routes and bases', () => {
    let n = 0;
    for (const param of SITE_PARAMS) {
      for (const payload of payloadInUrl) {
        const route = n % 2 === 0 ? '/websites' : '/analysis';
        send(engine, 'GET', `${SITE_BASES[Math.floor(n++ / 2) % SITE_BASES.length]}${route}?${param}=${payload}`);
      }
    }
  });

  it('Site Scanning /websites/{url}', () => {
    let n = 0;
    for (const payload of payloadInUrl) {
      if (payload.includes('?') || payload.includes('#')) continue;
      send(engine, 'GET', `${SITE_BASES[n++ % SITE_BASES.length]}/websites/${payload}`);
      send(engine, 'GET', `/websites/https:%2F%2F${payload}/`);
    }
  });

  it('ceiling rates: each parameter, each field and filter name in front of the payload', () => {
    let n = 0;
    const base = (): string => CEILING_BASES[n++ % CEILING_BASES.length];
    for (const [i, payload] of payloadInUrl.entries()) {
      // A narrow price range keeps each answer small (a full search costs ~12 ms here); the random
      // property below sends un-narrowed requests.
      const narrow = `${NARROW}&`;
      for (const param of CEILING_PARAMS) send(engine, 'GET', `${base()}?${narrow}${param}=${payload}`);
      for (const [j, param] of ['search', 'suggest', 'suggest-contains'].entries()) {
        send(engine, 'GET', `${base()}?${narrow}${param}=${SEARCH_FIELDS[(i + j) % SEARCH_FIELDS.length]}:${payload}`);
      }
      // Numeric filters parse their values: every payload. Text filters only compare: one of them per payload, in turn.
      for (const name of NUMERIC_FILTERS) send(engine, 'GET', `${base()}?${narrow}filter=${name}:${payload}`);
      send(engine, 'GET', `${base()}?${narrow}filter=${TEXT_FILTERS[i % TEXT_FILTERS.length]}:${payload}`);
      send(engine, 'GET', `${base()}?filter=price_range:${payload},100&filter=experience_range:0,${payload}`);
      send(engine, 'GET', `${base()}?${narrow}ordering=current_price&sort=${payload}`);
    }
  });

  it('ceiling rates export: hostile search and filter text stays inert in the CSV', () => {
    for (const [i, payload] of payloadInUrl.entries()) {
      const hostile = i % 2 === 0 ? `keyword=${payload}` : `search=vendor_name:${payload}&filter=sin:${payload}`;
      send(engine, 'GET', `/api/v3/search/ceilingrates/?export=y&${hostile}&${NARROW}`);
    }
  });
});

describe('random requests (fast-check, fixed seeds)', () => {
  it('Site Scanning listing and analysis: random query strings, GET and HEAD', () => {
    fc.assert(
      fc.property(siteListPathArb(), queryArb('site'), fc.constantFrom('GET', 'GET', 'GET', 'HEAD'), (path, query, method) => {
        send(engine, method, `${path}?${query}`);
      }),
      runs(7001, 2500),
    );
  });

  it('Site Scanning /websites/{url}: hostile url paths, with and without a query', () => {
    fc.assert(
      fc.property(websiteByUrlPathArb(), fc.option(queryArb('site'), { nil: undefined }), (path, query) => {
        send(engine, 'GET', query === undefined ? path : `${path}?${query}`);
      }),
      runs(7002, 1000),
    );
  });

  it('ceiling rates: random query strings under every base, GET and HEAD', () => {
    fc.assert(
      fc.property(ceilingPathArb(), NARROW_OR_NOT, queryArb('ceiling'), fc.constantFrom('GET', 'GET', 'GET', 'HEAD'), (path, narrow, query, method) => {
        send(engine, method, `${path}?${narrow}${query}`);
      }),
      runs(7003, 4500),
    );
  });

  it('answers do not depend on the request before (buffers reused across requests hold nothing over)', () => {
    const request = fc.oneof(
      fc.tuple(ceilingPathArb(), NARROW_OR_NOT, queryArb('ceiling')).map(([path, narrow, query]) => `${path}?${narrow}${query}`),
      fc.tuple(siteListPathArb(), queryArb('site')).map(([path, query]) => `${path}?${query}`),
    );
    fc.assert(
      fc.property(request, request, (first, between) => {
        const alone = stable(first);
        tally.requests += 2;
        send(engine, 'GET', between);
        expect(stable(first), `${first} after ${between}`).toEqual(alone);
      }),
      runs(7006, 500),
    );
  });

  it('random methods on every endpoint', () => {
    const paths = fc.oneof(siteListPathArb(), websiteByUrlPathArb(), ceilingPathArb());
    fc.assert(
      fc.property(methodArb(), paths, fc.oneof(queryArb('site'), queryArb('ceiling')), (method, path, query) => {
        send(engine, method, `${path}?${query}`);
      }),
      runs(7004, 1500),
    );
  });

  it('oversized requests: thousands of repeats, alternatives and ids, long values and paths', () => {
    fc.assert(
      fc.property(oversizedRequestArb(), fc.constantFrom('GET', 'GET', 'HEAD'), (url, method) => {
        send(engine, method, url);
      }),
      runs(7007, 300),
    );
  });

  it('random paths: beside the bases, dot segments, other origins and schemes', () => {
    fc.assert(
      fc.property(anyPathArb(), methodArb(), (path, method) => {
        send(engine, method, path);
      }),
      runs(7005, 1500),
    );
  });
});
