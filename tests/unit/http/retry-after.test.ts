import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../engine/index.ts';
import { RETRY_AFTER_SECONDS } from '../../../engine/http/respond.ts';
import { finish } from '../../../engine/http/route.ts';

describe('503 answers', () => {
  it('every API without its dataset answers 503 with Retry-After, GET and HEAD', () => {
    const engine = createEngine();
    for (const url of ['/websites', '/websites/18f.gov', '/analysis', '/api/v3/search/ceilingrates/', '/acquisition/calc/v3/api/ceilingrates/']) {
      for (const method of ['GET', 'HEAD']) {
        const answer = engine.handle({ method, url });
        expect(answer.status, `${method} ${url}`).toBe(503);
        expect(answer.headers['retry-after'], `${method} ${url}`).toBe(String(RETRY_AFTER_SECONDS));
      }
    }
    // Added in one place (route.ts's finish), so a 503 made anywhere else carries it too.
    for (const api of engine.apis) {
      const finished = finish({ method: 'GET', url: '/' }, api.errors.unavailable());
      expect(finished.headers['retry-after'], api.id).toBe(String(RETRY_AFTER_SECONDS));
    }
    expect(finish({ method: 'GET', url: '/' }, { status: 200, headers: {}, body: '' }).headers['retry-after']).toBeUndefined();
  });
});
