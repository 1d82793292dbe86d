import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Database } from 'sql.js';
import { generatedDatabase } from '../../../harness/engine.ts';
import { BIN, ROOT } from './cli-process.ts';

let dir: string;
let client: Client;
let rates: Database;
let websites: Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doors-mcp-'));
  rates = await generatedDatabase('ceilingrates');
  websites = await generatedDatabase('websites');
  // SQLite files of the user's own: the server opens them as they are.
  writeFileSync(join(dir, 'rates.sqlite'), rates.export());
  writeFileSync(join(dir, 'websites.sqlite'), websites.export());
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--data', dir, '--websites', join(dir, 'websites.sqlite'), '--ceilingrates', join(dir, 'rates.sqlite')],
    cwd: ROOT,
    stderr: 'ignore',
  });
  client = new Client({ name: 'doors-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; value: any; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[] };
  const text = result.content[0].text;
  return { isError: result.isError === true, text, value: result.isError ? null : JSON.parse(text) };
}

const scalar = (db: Database, sql: string, params: (string | number)[] = []): number => Number(db.exec(sql, params)[0].values[0][0]);

describe('MCP server over stdio, through the SDK client', () => {
  it('offers the four tools, each with a description and an input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['agency_analysis', 'list_websites', 'price_check', 'search_ceiling_rates']);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
    }
    // The website filters are the API's own, from its parameter table, with its values.
    const list = tools.find((t) => t.name === 'list_websites')!;
    const properties = list.inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(Object.keys(properties)).toEqual(
      expect.arrayContaining(['target_url_domain', 'final_url_live', 'scan_status', 'dap_detected_final_url', 'page', 'limit']),
    );
    expect(properties.scan_status.enum).toContain('completed');
  });

  it("says each dataset's source in the tools' descriptions and in every answer", async () => {
    const { tools } = await client.listTools();
    const described = Object.fromEntries(tools.map((t) => [t.name, t.description]));
    expect(described.search_ceiling_rates).toContain('Data: Your file: rates.sqlite.');
    expect(described.agency_analysis).toContain('Data: Your file: websites.sqlite.');
    expect((await call('price_check', { price: 100 })).value.data_source).toBe('Your file: rates.sqlite');
    expect((await call('list_websites', { limit: 1 })).value.data_source).toBe('Your file: websites.sqlite');
  });

  it('price_check: the percentile is the share of rates at or below the price, counted in SQLite', async () => {
    const price = 120;
    const { value } = await call('price_check', { price });
    const all = scalar(rates, 'SELECT count(*) FROM ceilingrates WHERE current_price IS NOT NULL');
    const below = scalar(rates, 'SELECT count(*) FROM ceilingrates WHERE current_price <= ?', [price]);
    expect(value.matching_rates).toBe(all);
    expect(value.at_or_below).toBe(below);
    expect(value.percentile).toBeCloseTo((below / all) * 100, 1);
    expect(value.summary).toContain(`${below} are at or below it`);
  });

  it('search_ceiling_rates: statistics over every match and the lowest rates first', async () => {
    const { value } = await call('search_ceiling_rates', { education_level: ['BA', 'MA'], limit: 5 });
    const count = scalar(rates, "SELECT count(*) FROM ceilingrates WHERE education_level IN ('BA','MA') AND current_price IS NOT NULL");
    const min = scalar(rates, "SELECT min(current_price) FROM ceilingrates WHERE education_level IN ('BA','MA')");
    expect(value.statistics.count).toBe(count);
    expect(value.statistics.min).toBeCloseTo(min, 2);
    expect(value.lowest_rates).toHaveLength(5);
    expect(value.lowest_rates[0].current_price).toBeCloseTo(min, 2);
    expect(value.lowest_rates.every((r: { education_level: string }) => ['BA', 'MA'].includes(r.education_level))).toBe(true);
    expect(value.api_url).toMatch(/^\/api\/v3\/search\/ceilingrates\/\?/);
  });

  it('list_websites and agency_analysis: counts as SQLite has them', async () => {
    const agency = String(
      websites.exec('SELECT target_url_agency_owner FROM websites WHERE target_url_agency_owner IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1')[0]
        .values[0][0],
    );
    const owned = scalar(websites, 'SELECT count(*) FROM websites WHERE target_url_agency_owner = ?', [agency]);
    const live = scalar(websites, 'SELECT count(*) FROM websites WHERE target_url_agency_owner = ? AND final_url_live = 1', [agency]);

    const list = await call('list_websites', { target_url_agency_owner: agency, limit: 3 });
    expect(list.value.meta.totalItems).toBe(owned);
    expect(list.value.items).toHaveLength(Math.min(3, owned));

    const analysis = await call('agency_analysis', { agency });
    expect(analysis.value.websites).toBe(owned);
    expect(analysis.value.live.count).toBe(live);
  });

  it("a request the API refuses comes back as a tool error in the API's words", async () => {
    const { isError, text } = await call('list_websites', { target_url_domain: 'not a domain' });
    expect(isError).toBe(true);
    expect(text).toContain('answered 400');
    expect(text).toContain('target_url_domain must be a URL address');
  });
});
