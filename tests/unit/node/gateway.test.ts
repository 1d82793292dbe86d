/**
 * The switch rehearsed: `serve --require-key` and `--rate-limit` answer as api.data.gov's gateway (API Umbrella)
 * does, and `serve --pages` hosts a folder of the user's own pages beside the APIs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiKeyOf, Gateway, parseRateLimit } from '../../../adapters/node/doors/gateway.ts';
import { startServer, type RunningServer } from '../../../adapters/node/doors/server.ts';
import { dataLabelsOf, parseCli, servedParts } from '../../../adapters/node/commands/cli.ts';
import type { ApiRequest } from '../../../engine/http/types.ts';
import { routeAny, type Routed } from '../../../engine/http/route.ts';
import { APIS } from '../../../engine/index.ts';
import { engineOver, generatedDatabase } from '../../../harness/engine.ts';
import { fixture, runCli, serveCli } from './cli-process.ts';

const MISSING = {
  error: { code: 'API_KEY_MISSING', message: 'No api_key was supplied. Get one at https://api.gsa.gov:443' },
};
const OVER = {
  error: {
    code: 'OVER_RATE_LIMIT',
    message: 'You have exceeded your rate limit. Try again later or contact us at https://api.gsa.gov:443/contact/ for assistance',
  },
};
const get = (url: string, headers: Record<string, string> = {}): ApiRequest => ({ method: 'GET', url, headers });
/** A request routed as the server routes it, for the gateway. */
const at = (url: string, headers: Record<string, string> = {}, method = 'GET'): Routed => routeAny(APIS, { method, url, headers });

describe('the gateway', () => {
  it('reads the key from X-Api-Key, then api_key, then the basic-auth user name; an empty one is none', () => {
    expect(apiKeyOf(get('/websites', { 'X-Api-Key': 'H' }))).toBe('H');
    expect(apiKeyOf(get('/websites?api_key=Q', { 'x-api-key': 'H' }))).toBe('H');
    expect(apiKeyOf(get('/websites?limit=1&api_key=Q'))).toBe('Q');
    expect(apiKeyOf(get('/websites', { authorization: `Basic ${Buffer.from('B:').toString('base64')}` }))).toBe('B');
    expect(apiKeyOf(get('/websites?api_key='))).toBeNull();
    expect(apiKeyOf(get('/websites', { 'x-api-key': '' }))).toBeNull();
  });

  it("refuses a Site Scanning request without a key in the gateway's words; lets a preflight and the keyless ceiling rates through", () => {
    const gateway = new Gateway({ requireKey: true });
    const passage = gateway.pass(at('/websites'), '127.0.0.1');
    expect('refused' in passage && passage.refused).toEqual({
      status: 403,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(MISSING, null, 2),
    });
    expect(gateway.pass(at('/websites?api_key=DEMO_KEY'), '127.0.0.1')).toEqual({ headers: {} });
    const preflight = at('/websites', { origin: 'http://x', 'access-control-request-method': 'GET' }, 'OPTIONS');
    expect(gateway.pass(preflight, '127.0.0.1')).toEqual({ headers: {} });
    expect(gateway.pass(at('/acquisition/calc/v3/api/ceilingrates/'), '127.0.0.1')).toEqual({ headers: {} });
  });

  it('counts per key (per address without one), says what is left, and answers 429 with Retry-After past the limit', () => {
    let now = 1_000_000;
    const gateway = new Gateway({ rateLimit: { limit: 3, windowMs: 3_600_000 }, now: () => now });
    const remaining = () => {
      const passage = gateway.pass(at('/websites?api_key=A'), '10.0.0.1');
      return 'refused' in passage ? passage.refused : passage.headers;
    };
    expect([remaining(), remaining(), remaining()]).toEqual(['2', '1', '0'].map((left) => ({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': left })));
    now += 600_000;
    expect(remaining()).toEqual({
      status: 429,
      headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0', 'retry-after': '3000' },
      body: JSON.stringify(OVER, null, 2),
    });
    // Another key, and the same address without a key, have their own counts.
    expect(gateway.pass(at('/websites', { 'x-api-key': 'B' }), '10.0.0.1')).toEqual({ headers: { 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2' } });
    expect(gateway.pass(at('/api/v3/search/ceilingrates/'), '10.0.0.1')).toEqual({ headers: { 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2' } });
    // Refused requests were not counted: the next window starts afresh.
    now += 3_000_000;
    expect(remaining()).toEqual({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2' });
  });

  it('reads --rate-limit as a count per window', () => {
    expect(parseRateLimit('1000/h')).toEqual({ limit: 1000, windowMs: 3_600_000 });
    expect(parseRateLimit('30/m')).toEqual({ limit: 30, windowMs: 60_000 });
    expect(parseRateLimit('50/d')).toEqual({ limit: 50, windowMs: 86_400_000 });
    for (const bad of ['1000', '0/h', '-1/h', '1.5/h', '10/w', '2000000/h', 'h']) expect(parseRateLimit(bad), bad).toBeNull();
  });
});

describe('serve over HTTP with the gateway and a pages folder', () => {
  let server: RunningServer;
  let appDir: string;
  let pagesDir: string;

  beforeAll(async () => {
    const engine = engineOver('websites', await generatedDatabase('websites'));
    engine.use('ceilingrates', await generatedDatabase('ceilingrates'));
    appDir = mkdtempSync(join(tmpdir(), 'gateway-app-'));
    writeFileSync(
      join(appDir, 'index.html'),
      `<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'"><p>app</p>`,
    );
    pagesDir = mkdtempSync(join(tmpdir(), 'gateway-pages-'));
    mkdirSync(join(pagesDir, 'proto'));
    writeFileSync(join(pagesDir, 'index.html'), '<p>my index</p>');
    writeFileSync(join(pagesDir, 'proto/index.html'), '<p>my prototype</p><script src="app.js"></script>');
    writeFileSync(join(pagesDir, 'proto/app.js'), "fetch('/websites?limit=1', { headers: { 'X-Api-Key': 'mine' } });");
    server = await startServer({ engine, appDir, pagesDir, port: 0, gateway: { requireKey: true, rateLimit: { limit: 2, windowMs: 3_600_000 } } });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(appDir, { recursive: true, force: true });
    rmSync(pagesDir, { recursive: true, force: true });
  });

  it("answers a Site Scanning request without a key 403 with the gateway's body, readable cross-origin, on every path of it", async () => {
    for (const path of ['/websites?limit=1', '/technology/site-scanning/v1/analysis', '/websites/gsa.gov', '/technology/site-scanning/v1/nothing']) {
      const response = await fetch(server.url + path);
      expect([path, response.status, response.headers.get('content-type')]).toEqual([path, 403, 'application/json']);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual(MISSING);
    }
    const preflight = await fetch(`${server.url}/websites`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    expect(preflight.status).toBeLessThan(300);
    // Production's ceiling rates (CALC+) answer without a key; the address is counted instead.
    const rates = await fetch(`${server.url}/api/v3/search/ceilingrates/?page_size=1`);
    expect([rates.status, rates.headers.get('x-ratelimit-remaining')]).toEqual([200, '1']);
  });

  it('answers with a key, counting it, then 429 with production headers', async () => {
    const first = await fetch(`${server.url}/websites?limit=1`, { headers: { 'X-Api-Key': 'K1' } });
    expect([first.status, first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')]).toEqual([200, '2', '1']);
    expect(((await first.json()) as { items: unknown[] }).items).toHaveLength(1);
    const second = await fetch(`${server.url}/api/v3/search/ceilingrates/?page_size=1&api_key=K1`);
    expect([second.status, second.headers.get('x-ratelimit-remaining')]).toEqual([200, '0']);
    const third = await fetch(`${server.url}/websites?limit=1&api_key=K1`);
    expect([third.status, third.headers.get('x-ratelimit-remaining'), third.headers.get('access-control-allow-origin')]).toEqual([429, '0', '*']);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(await third.json()).toEqual(OVER);
    expect((await fetch(`${server.url}/websites?limit=1&api_key=K2`)).status).toBe(200);
  });

  it("serves the pages folder beside the app, without the app's policy; a path the app has is the app's", async () => {
    const page = await fetch(`${server.url}/proto/`);
    expect([page.status, await page.text()]).toEqual([200, '<p>my prototype</p><script src="app.js"></script>']);
    expect(page.headers.get('content-security-policy')).toBeNull();
    const script = await fetch(`${server.url}/proto/app.js`);
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    const root = await fetch(`${server.url}/`);
    expect(await root.text()).toContain('<p>app</p>');
    expect(root.headers.get('content-security-policy')).toContain("'wasm-unsafe-eval'");
    expect((await fetch(`${server.url}/proto/missing.js`)).status).toBe(404);
  });
});

describe('offline-gov-api serve: the gateway, the pages and what it says it serves', () => {
  it('parses the options, for serve only', () => {
    expect(parseCli(['serve', '--require-key', '--rate-limit', '1000/h'])).toMatchObject({
      requireKey: true,
      rateLimit: { limit: 1000, windowMs: 3_600_000 },
      pagesDir: null,
    });
    expect(parseCli(['serve', '--pages', 'tests'])).toMatchObject({ pagesDir: join(process.cwd(), 'tests') });
    expect(() => parseCli(['serve', '--pages', 'no/such/folder'])).toThrow('--pages: no folder "no/such/folder"');
    expect(() => parseCli(['serve', '--rate-limit', 'lots'])).toThrow('--rate-limit must be');
    expect(() => parseCli(['mcp', '--require-key'])).toThrow('--require-key is for serve');
  });

  it('says what it serves: never the app when it serves none', () => {
    expect(servedParts({ app: true, pagesDir: null }, true)).toBe('the app and both APIs');
    expect(servedParts({ app: false, pagesDir: null }, true)).toBe('both APIs only');
    expect(servedParts({ app: false, pagesDir: '/p' }, true)).toBe('the pages of /p and both APIs');
    expect(servedParts({ app: true, pagesDir: '/p' }, false)).toBe('the pages of /p and both APIs: no built app to serve, `npm run build` makes one');
  });

  it("labels the current week by its own source line, never the weeks attachment's (serve's documents, MCP)", () => {
    const current = { name: 'websites', origin: 'websites.sqlite.gz', label: 'Real: the published week of 2025-06-09', rows: {} } as const;
    const weeks = {
      name: 'websites',
      origin: 'websites-weeks.sqlite.gz',
      label: 'Real: every week, 17 weeks',
      rows: {},
      attachment: 'websites-weeks',
    } as const;
    const rates = { name: 'ceilingrates', origin: 'ceilingrates.sqlite.gz', label: 'Real: price lists', rows: {} } as const;
    for (const order of [
      [current, weeks, rates],
      [weeks, current, rates],
    ]) {
      expect(dataLabelsOf(order)).toEqual({ websites: current.label, ceilingrates: rates.label });
    }
  });

  it('starts as users run it, saying so, and refuses a keyless request', async () => {
    const pages = mkdtempSync(join(tmpdir(), 'gateway-cli-pages-'));
    writeFileSync(join(pages, 'index.html'), '<p>mine</p>');
    const served = await serveCli([
      '--no-app',
      '--data',
      pages,
      '--websites',
      fixture('websites-current.csv'),
      '--pages',
      pages,
      '--require-key',
      '--rate-limit',
      '5/h',
    ]);
    try {
      expect(served.stderr()).toContain(`(the pages of ${pages} and both APIs; `);
      await expect
        .poll(() => served.stderr())
        .toContain('gateway: Site Scanning requires a key (X-Api-Key or api_key), else 403; 5 requests per hour per key, else 429');
      expect((await fetch(`${served.url}/websites?limit=1`)).status).toBe(403);
      expect((await fetch(`${served.url}/websites?limit=1`, { headers: { 'x-api-key': 'k' } })).headers.get('x-ratelimit-remaining')).toBe('4');
      expect(await (await fetch(`${served.url}/`)).text()).toBe('<p>mine</p>');
    } finally {
      await served.stop();
      rmSync(pages, { recursive: true, force: true });
    }
    const help = await runCli(['--help']);
    for (const word of ['--require-key', '--rate-limit <n/h>', '--pages <dir>']) expect(help.stdout).toContain(word);
  });
});
