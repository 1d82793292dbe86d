import { describe, expect, it } from 'vitest';
import { APIS } from '../../../engine/index.ts';
import { failed } from '../../../engine/http/route.ts';
import { toFetchResponse } from '../../../adapters/http/fetch-response.ts';
import { routed } from '../helpers/routed.ts';

describe("the service worker's own 500", () => {
  it("is each API's error body, readable from any origin, and bodiless for HEAD", async () => {
    for (const [api, path] of [
      [APIS[0], '/websites'],
      [APIS[1], '/api/v3/search/ceilingrates/'],
    ] as const) {
      const response = toFetchResponse(failed(APIS, routed({ method: 'GET', url: path }), 'internal'));
      expect(response.status).toBe(500);
      expect(response.headers.get('access-control-allow-origin'), api.id).toBe('*');
      expect(await response.json(), api.id).toEqual(JSON.parse(api.errors.internal().body));
      expect(await toFetchResponse(failed(APIS, routed({ method: 'HEAD', url: path }), 'internal')).text()).toBe('');
    }
  });
});
