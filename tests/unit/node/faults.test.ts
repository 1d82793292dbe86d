import { describe, expect, it, vi } from 'vitest';
import { withFaults } from '../../../adapters/node/doors/faults.ts';
import { routeAny } from '../../../engine/http/route.ts';
import { APIS } from '../../../engine/index.ts';
import { engineOver, generatedDatabase } from '../../../harness/engine.ts';

describe('faults', () => {
  it('none by default: the engine answer', async () => {
    const engine = engineOver('websites', await generatedDatabase('websites', 20));
    const answer = await withFaults(engine)(routeAny(APIS, { method: 'GET', url: '/websites?limit=1' }));
    expect(answer).toEqual(engine.handle({ method: 'GET', url: '/websites?limit=1' }));
  });

  it("a failed request gets the API's own 500 or 503 (by the second draw); HEAD has no body; preflights never fail", async () => {
    const engine = engineOver('websites', await generatedDatabase('websites', 20));
    const draws = [0.1, 0.2, 0.1, 0.9, 0.1, 0.2];
    const handle = withFaults(engine, { failRate: 0.5, random: () => draws.shift()! });
    const internal = await handle(routeAny(APIS, { method: 'GET', url: '/websites' }));
    expect([internal.status, JSON.parse(internal.body)]).toEqual([500, { statusCode: 500, message: 'Internal server error' }]);
    const unavailable = await handle(routeAny(APIS, { method: 'GET', url: '/analysis' }));
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers['access-control-allow-origin']).toBe('*');
    const head = await handle(routeAny(APIS, { method: 'HEAD', url: '/websites' }));
    expect([head.status, head.body]).toEqual([500, '']);
    const preflight = await handle(routeAny(APIS, { method: 'OPTIONS', url: '/websites', headers: { 'access-control-request-method': 'GET' } }));
    expect(preflight.status).toBe(204);
  });

  it('a delay holds the answer back until it has passed', async () => {
    vi.useFakeTimers();
    try {
      const engine = engineOver('websites', await generatedDatabase('websites', 20));
      let answered = false;
      const pending = withFaults(engine, { delayMs: 250 })(routeAny(APIS, { method: 'GET', url: '/websites?limit=1' })).then((a) => {
        answered = true;
        return a;
      });
      await vi.advanceTimersByTimeAsync(249);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a simulated 503', () => {
  it("is the API's own 503 on each API's paths, production bases included, with Retry-After", async () => {
    const engine = engineOver('websites', await generatedDatabase('websites', 20));
    engine.use('ceilingrates', await generatedDatabase('ceilingrates', 20));
    // The first draw fails the request, the second picks the 503.
    const handle = withFaults(engine, { failRate: 1, random: () => 0.9 });
    const siteScanning = { statusCode: 503, message: 'Website dataset not loaded', error: 'Service Unavailable' };
    const ceilingRates = { detail: 'Service temporarily unavailable, try again later.' };
    for (const [url, body] of [
      ['/websites?limit=1', siteScanning],
      ['/technology/site-scanning/v1/analysis', siteScanning],
      ['/websites/18f.gov', siteScanning],
      ['/api/v3/search/ceilingrates/?keyword=engineer', ceilingRates],
      ['/acquisition/calc/v3/api/ceilingrates/', ceilingRates],
    ] as const) {
      const answer = await handle(routeAny(APIS, { method: 'GET', url }));
      expect(answer.status, url).toBe(503);
      expect(JSON.parse(answer.body), url).toEqual(body);
      expect(answer.headers['retry-after'], url).toBe('5');
      expect(answer.headers['access-control-allow-origin'], url).toBe('*');
    }
  });
});
