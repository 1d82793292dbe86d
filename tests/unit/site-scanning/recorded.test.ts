/**
 * Issue 21, point 1: `final_url_same_domain` (and every boolean) is a JSON boolean, as production's records have it.
 * The fixture is production's record for gsa.gov as GSA published it (GSA/open-gsa-redesign,
 * _apidocs/site-scanning-api.md, "Sample Result" added in commit dacbf5af on 2022-05-13, scanned 2022-06-29).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WEBSITE_FIELDS, type WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { insertWebsites } from '../../../engine/site-scanning/schema.ts';
import { call, emptyDatabase, engineOver } from '../../../harness/engine.ts';

const RECORDED = JSON.parse(readFileSync(new URL('../../fixtures/recorded/site-scanning-2022-06-docs-sample.json', import.meta.url), 'utf8'));

describe('Site Scanning replayed against a recorded production record', () => {
  it('point 1: final_url_same_domain and every boolean field are JSON booleans, as recorded', async () => {
    const recorded: Record<string, unknown> = RECORDED.record;
    expect(recorded.final_url_same_domain).toBe(true);
    // The recorded record in this app's fields (the fields the sample does not carry are null).
    const record = Object.fromEntries(WEBSITE_FIELDS.map(([name]) => [name, recorded[name] ?? null])) as unknown as WebsiteRecord;
    const db = await emptyDatabase('websites');
    insertWebsites(db, [record, { ...record, target_url: 'other.gsa.gov', final_url_same_domain: false }]);
    const engine = engineOver('websites', db);

    const answer = call(engine, '/websites/gsa.gov');
    expect(answer.status).toBe(200);
    for (const [name, value] of Object.entries(recorded)) {
      if (typeof value === 'boolean') expect(answer.body[name], name).toBe(value);
    }
    expect(answer.raw.body).toContain('"final_url_same_domain":true,');
    // A false one is false, not the truthy string "false".
    const other = call(engine, '/websites/other.gsa.gov').body;
    expect(other.final_url_same_domain).toBe(false);
    // Every field the record table calls boolean is a JSON boolean (or null) in the listing.
    for (const item of call(engine, '/websites').body.items) {
      for (const [name, kind] of WEBSITE_FIELDS) {
        if (kind === 'boolean') expect(item[name] === null || typeof item[name] === 'boolean', name).toBe(true);
      }
    }
  });

  it('point 1: the differences table says so', () => {
    const differences = readFileSync(new URL('../../../docs/api/differences.md', import.meta.url), 'utf8');
    const row = differences.split('\n').find((line) => line.startsWith('| 2 | `final_url_same_domain`'));
    expect(row).toContain('A JSON boolean');
    expect(row).toContain('2022-06-29');
  });
});
