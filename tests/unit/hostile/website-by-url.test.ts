/**
 * `/websites/{url}` with hostile url values that name no record: a 404 in the framework's shape, whatever
 * the value holds and however it is written into the path (encoded, raw, behind a scheme, with a trailing
 * slash), under both bases; HEAD gives the same status with no body.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/index.ts';
import { HOSTILE_PAYLOADS, HOSTILE_TARGET_URLS } from '../../../tools/generate/hostile.ts';
import { VALUES } from '../../../harness/fuzz/payloads.ts';
import { call } from '../../../harness/engine.ts';
import { hostileMixedEngine } from './fixtures.ts';

const NOT_FOUND = { statusCode: 404, message: 'No website found for provided target url', error: 'Not Found' };
const BASES = ['', '/technology/site-scanning/v1'];
let engine: Engine;

beforeAll(async () => {
  engine = await hostileMixedEngine();
});

/** encodeURIComponent, with a lone surrogate left for the URL parser (which writes U+FFFD). */
function encoded(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A plain `.gov` host (the fuzz list has `gsa.gov`): a real record's URL, so not a miss. */
const PLAIN_HOST = /^(https?:\/\/)?[a-z0-9.-]+\.gov\/?$/i;

/** Hostile values that are not any record's target URL (dot segments would leave the route, so not those). */
const MISSES = [...HOSTILE_PAYLOADS.map((p) => p.text), ...VALUES, ...HOSTILE_TARGET_URLS.map((url) => `x${url}`)].filter(
  (text) => text.trim() !== '' && text !== '.' && text !== '..' && !PLAIN_HOST.test(text) && !HOSTILE_TARGET_URLS.includes(text.toLowerCase()),
);

describe('/websites/{url} with hostile values', () => {
  it(`encoded: exactly the 404 body, under both bases, plain, behind https:// and with a trailing slash (${MISSES.length} values)`, () => {
    for (const base of BASES) {
      for (const text of MISSES) {
        for (const path of [encoded(text), `https://${encoded(text)}`, `${encoded(text)}/`]) {
          const answer = call(engine, `${base}/websites/${path}`);
          expect(answer.status, `${base}/websites/${path.slice(0, 80)}`).toBe(404);
          expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(answer.body).toEqual(NOT_FOUND);
        }
      }
    }
  });

  it('written raw into the path: still a 404 in the same shape (the URL parser may cut or re-encode it)', () => {
    for (const text of MISSES) {
      // A text that starts the query or fragment leaves `/websites/`: the listing, as in production.
      if (new URL(`/websites/${text}`, 'http://localhost').pathname === '/websites/') continue;
      const answer = call(engine, `/websites/${text}`);
      expect(answer.status, text.slice(0, 80)).toBe(404);
      // Either the controller's "no website" 404 or, where the parser cut the path, Express's route 404.
      const order =
        answer.body.message === 'No website found for provided target url' ? ['statusCode', 'message', 'error'] : ['message', 'error', 'statusCode'];
      expect(Object.keys(answer.body)).toEqual(order);
      expect(answer.body.statusCode).toBe(404);
      expect(answer.body.error).toBe('Not Found');
    }
  });

  it('HEAD: the 404 status and headers, no body', () => {
    for (const text of HOSTILE_PAYLOADS.map((p) => p.text)) {
      const head = engine.handle({ method: 'HEAD', url: `/websites/${encoded(text)}` });
      expect(head.status).toBe(404);
      expect(head.body).toBe('');
    }
  });

  it('the hostile target URLs that do exist are found, also upper-cased (the lookup lower-cases)', () => {
    for (const url of HOSTILE_TARGET_URLS) {
      expect(call(engine, `/websites/${encoded(url)}`).body.target_url).toBe(url);
      expect(call(engine, `/websites/${encoded(url.toUpperCase())}`).body.target_url).toBe(url);
    }
  });
});
