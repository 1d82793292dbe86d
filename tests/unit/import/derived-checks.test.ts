/**
 * The robots.txt and sitemap.xml checks every answered record carries (engine/site-scanning/derived.ts) are made,
 * never stored: a JSON file of the API's own records imports with those columns ignored, and answers the same.
 */
import { describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { importIntoDatabase } from '../../../dataset/import/into-database.ts';
import { insertWebsites } from '../../../engine/site-scanning/schema.ts';
import type { WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { call, emptyDatabase, engineOver } from '../../../harness/engine.ts';
import { completed } from '../site-scanning/fixtures.ts';

const CHECKS = ['robots_txt_final_url_live', 'robots_txt_target_url_redirects', 'sitemap_xml_final_url_live', 'sitemap_xml_target_url_redirects'];

describe('the derived checks on import', () => {
  it("a file of the API's records reads back as it was; the four checks' columns are ignored and made again", async () => {
    const db = await emptyDatabase('websites');
    insertWebsites(db, [
      {
        ...completed('a.gov', 'a.gov'),
        robots_txt_final_url: 'https://www.a.gov/robots.txt',
        robots_txt_final_url_status_code: 200,
        robots_txt_detected: true,
      },
      {
        ...completed('b.gov', 'b.gov'),
        sitemap_xml_final_url: 'https://b.gov/sitemap.xml',
        sitemap_xml_final_url_status_code: 404,
        sitemap_xml_detected: false,
      },
    ] as WebsiteRecord[]);
    const answered = call(engineOver('websites', db), '/websites').body.items as Record<string, unknown>[];
    expect(answered.map((r) => CHECKS.map((c) => r[c]))).toEqual([
      [true, true, null, null],
      [null, null, false, false],
    ]);
    // A file whose checks say otherwise: they are not read.
    const file = JSON.stringify(answered.map((r) => ({ ...r, robots_txt_final_url_live: 'nonsense', sitemap_xml_target_url_redirects: true })));
    const { db: imported, report } = await importIntoDatabase(await loadSqlJs(), file);
    expect(report.rejected).toEqual([]);
    expect(report.columns.ignored).toEqual(expect.arrayContaining(CHECKS));
    expect(call(engineOver('websites', imported), '/websites').body.items).toEqual(answered);
  });
});
