/**
 * A worked example: GET /websites?target_url_agency_owner=<agency>&final_url_live=true&limit=100&page=2
 * over the default 30,000 records, checked against the in-memory reference.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/index.ts';
import { generateWebsites, websitesDataset } from '../../../tools/generate/websites.ts';
import type { WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { call, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import { referenceList } from '../../../harness/site-scanning-reference.ts';

let engine: Engine;
let records: WebsiteRecord[];
let agency: string;
beforeAll(async () => {
  records = generateWebsites(websitesDataset.profiles.default, websitesDataset.seed);
  engine = engineOver('websites', await generatedDatabase('websites', websitesDataset.profiles.default));
  // The agency with the most live sites, so that page 2 of 100 is full.
  const live = new Map<string, number>();
  for (const r of records)
    if (r.final_url_live && r.target_url_agency_owner) live.set(r.target_url_agency_owner, (live.get(r.target_url_agency_owner) ?? 0) + 1);
  agency = [...live].sort((a, b) => b[1] - a[1])[0][0];
});

describe('the worked example query', () => {
  it('returns the right records in the right order with correct meta and links', () => {
    const { status, body } = call(engine, `/websites?target_url_agency_owner=${encodeURIComponent(agency)}&final_url_live=true&limit=100&page=2`);
    expect(status).toBe(200);
    const expected = referenceList(records, { target_url_agency_owner: agency, final_url_live: true }, 2, 100);
    expect(expected.items).toHaveLength(100);
    expect(expected.meta.totalPages).toBeGreaterThan(2);
    expect(body).toEqual(expected);
    expect(body.links.previous).toBe(`/websites?final_url_live=true&target_url_agency_owner=${encodeURIComponent(agency)}&page=1&limit=100`);
  });
});
