import { describe, expect, it } from 'vitest';
import { APIS } from '../../../engine/index.ts';
import { internalErrorResponse } from '../../../adapters/service-worker/api-http.ts';

describe("the service worker's own 500", () => {
  it("is each API's error body, readable from any origin, and bodiless for HEAD", async () => {
    for (const api of APIS) {
      const response = internalErrorResponse(api, 'GET');
      expect(response.status).toBe(500);
      expect(response.headers.get('access-control-allow-origin'), api.id).toBe('*');
      expect(await response.json(), api.id).toEqual(JSON.parse(api.errors.internal().body as string));
      expect(await internalErrorResponse(api, 'HEAD').text()).toBe('');
    }
  });
});
