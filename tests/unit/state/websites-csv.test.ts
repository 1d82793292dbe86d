/** The Websites list's CSV: every matching site across pages (not the page shown), bounded, with its notes on top. */
import { beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import type { Engine } from '../../../engine/index.ts';
import type { WebsitePage } from '../../../engine/site-scanning/shape.ts';
import { matchingWebsites, websitesCsv } from '../../../ui/state/websites-csv.ts';
import { parseWebsitesQuery } from '../../../ui/state/websites-query.ts';
import { call, engineOver, generatedDatabase } from '../../../harness/engine.ts';

let engine: Engine;
const requests: string[] = [];
const get = async (url: string): Promise<WebsitePage> => {
  requests.push(url);
  const answer = call<WebsitePage>(engine, url);
  expect(answer.status).toBe(200);
  return answer.body;
};

beforeAll(async () => {
  engine = engineOver('websites', await generatedDatabase('websites', 450));
});

describe('the Websites CSV', () => {
  it('holds every site the filters match, page after page, whatever page is shown', async () => {
    const q = parseWebsitesQuery(new URLSearchParams('final_url_live=true&page=3&limit=10'));
    const expected = call<WebsitePage>(engine, '/websites?final_url_live=true&limit=1').body.meta.totalItems;
    expect(expected).toBeGreaterThan(100);
    requests.length = 0;
    const { items, total } = await matchingWebsites(get, q);
    expect(total).toBe(expected);
    expect(items.length).toBe(expected);
    expect(new Set(items.map((w) => w.target_url)).size).toBe(expected);
    expect(items.every((w) => w.final_url_live === true)).toBe(true);
    expect(requests[0]).toBe('/websites?final_url_live=true&page=1&limit=100');
    expect(requests.length).toBe(Math.ceil(expected / 100));
  });

  it('stops at its bound and says how many it left out', async () => {
    const q = parseWebsitesQuery(new URLSearchParams());
    const { items, total } = await matchingWebsites(get, q, 150);
    expect([items.length, total]).toEqual([150, 450]);
    const rows = Papa.parse<string[]>(websitesCsv(items, total, [['Snapshot date', '2025-06-09']]), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Snapshot date', '2025-06-09']);
    expect(rows[1][1]).toContain('150 of 450');
    expect(rows[2][0]).toBe('target_url');
    expect(rows.length - 3).toBe(150);
  });
});
