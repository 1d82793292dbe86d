/**
 * Issue 41, point 1: one switch at every Node door: `openEngine({ dialect })`, the MSW handlers' option, the MCP
 * server's option and the command line's `--dialect` (serve-dialect.test.ts runs it). Each gives the engine's one
 * production shaping step; without it every door answers the interface's shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openEngine } from '../../../adapters/node/datasets/open-engine.ts';
import { createHandlers } from '../../../adapters/node/doors/msw.ts';
import { createMcpServer } from '../../../adapters/node/doors/mcp.ts';
import { parseCli, UsageError } from '../../../adapters/node/commands/cli.ts';
import type { Engine } from '../../../engine/http/engine.ts';
import { insertCeilingRates } from '../../../engine/ceilingrates/schema.ts';
import { insertWebsites } from '../../../engine/site-scanning/schema.ts';
import { WEBSITE_FIELDS, type WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { emptyDatabase } from '../../../harness/engine.ts';
import { API, engineerOnes, ENVELOPE, queryOf, shapeOf, SITE_2022 } from './recorded-data.ts';

let rates: Uint8Array;
let websites: Uint8Array;
beforeAll(async () => {
  const r = await emptyDatabase('ceilingrates');
  insertCeilingRates(r, engineerOnes());
  rates = r.export();
  const w = await emptyDatabase('websites');
  const recorded: Record<string, unknown> = SITE_2022.record;
  insertWebsites(w, [Object.fromEntries(WEBSITE_FIELDS.map(([name]) => [name, recorded[name] ?? null])) as unknown as WebsiteRecord]);
  websites = w.export();
});

const opened = async (dialect?: 'production'): Promise<Engine> =>
  (await openEngine({ dataDir: false, bytes: { ceilingrates: rates, websites }, ...(dialect ? { dialect } : {}) })).engine;
const body = (engine: Engine, url: string, dialect?: 'interface' | 'production') =>
  JSON.parse(engine.handle({ method: 'GET', url, ...(dialect ? { dialect } : {}) }).body);

describe('openEngine({ dialect })', () => {
  it("answers in production's shape, and a request may still ask for the interface's", async () => {
    const engine = await opened('production');
    expect(engine.dialect).toBe('production');
    expect(shapeOf(body(engine, `${API}${queryOf(ENVELOPE.url)}`))).toEqual(shapeOf(ENVELOPE.raw));
    expect(body(engine, `${API}${queryOf(ENVELOPE.url)}`, 'interface')._shards.total).toBe(1);
    expect(body(engine, '/websites/gsa.gov').initial_domain).toBe('gsa.gov');
  });

  it('without it, the interface', async () => {
    const engine = await opened();
    expect(engine.dialect).toBe('interface');
    expect(body(engine, '/websites/gsa.gov').target_url).toBe('gsa.gov');
  });
});

describe('MSW handlers with { dialect }', () => {
  let server: ReturnType<typeof setupServer>;
  afterAll(() => server?.close());

  it("answer production's URL in production's shape", async () => {
    const engine = await opened();
    server = setupServer(...createHandlers(engine, { origins: ['https://api.gsa.gov'], dialect: 'production' }));
    server.listen({ onUnhandledRequest: 'error' });
    const answer = await (await fetch(`https://api.gsa.gov/acquisition/calc/v3/api/ceilingrates/${queryOf(ENVELOPE.url)}`)).json();
    expect(shapeOf(answer)).toEqual(shapeOf(ENVELOPE.raw));
    const site = await (await fetch('https://api.gsa.gov/technology/site-scanning/v1/websites/gsa.gov')).json();
    expect(site.agency).toBe('General Services Administration');
  });
});

describe('the MCP server with { dialect }', () => {
  async function listed(engine: Engine, dialect?: 'production') {
    const server = createMcpServer(engine, {}, dialect ? { dialect } : {});
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    const result = (await client.callTool({ name: 'list_websites', arguments: { limit: 1 } })) as { content: { text: string }[] };
    await client.close();
    return JSON.parse(result.content[0].text).items[0];
  }

  it("returns records in production's names with it, the interface's without", async () => {
    const engine = await opened();
    expect(await listed(engine, 'production')).toHaveProperty('initial_domain', 'gsa.gov');
    expect(await listed(engine)).toHaveProperty('target_url', 'gsa.gov');
  });
});

describe('--dialect on the command line', () => {
  it('is read for serve and mcp, interface by default; another name or command is refused', () => {
    expect(parseCli(['serve']).dialect).toBe('interface');
    expect(parseCli(['serve', '--dialect', 'production']).dialect).toBe('production');
    expect(parseCli(['mcp', '--dialect', 'production']).dialect).toBe('production');
    expect(() => parseCli(['serve', '--dialect', 'prod'])).toThrow(UsageError);
    expect(() => parseCli(['serve', '--dialect', 'prod'])).toThrow(/interface or production/);
    expect(() => parseCli(['load', '--database', 'postgres://x/y', '--dialect', 'production'])).toThrow(/serve and mcp/);
  });
});

describe("each door's OpenAPI documents follow its dialect", () => {
  it("serve --dialect production publishes the production dialect's documents at the same paths", async () => {
    const { createApp } = await import('../../../adapters/node/doors/server.ts');
    const engine = await opened();
    const production = createApp({ engine, dialect: 'production' });
    const plain = createApp({ engine });
    for (const path of ['/openapi.json', '/openapi/site-scanning.json', '/technology/site-scanning/v1/api-json']) {
      const ours = await (await production.request(path)).json();
      expect(ours.info.title, path).toContain('production dialect');
      expect(ours.components.schemas.Website.properties, path).toHaveProperty('initial_domain');
      const interfaced = await (await plain.request(path)).json();
      expect(interfaced.components.schemas.Website.properties, path).toHaveProperty('target_url');
    }
    const rates = await (await production.request('/openapi/ceiling-rates.json')).json();
    expect(rates.components.schemas.CeilingRate.properties.security_clearance.type).toEqual(['boolean', 'null']);
  });
});
