/** The stored record text: what every Site Scanning answer is made of, byte for byte the record's JSON. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateWebsites } from '../../../tools/generate/websites.ts';
import { ANSWERED_FIELDS, type WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { answeredRecord, recordFromStored, recordJson, recordsJson, storedRecord } from '../../../engine/site-scanning/stored-record.ts';
import { completed } from './fixtures.ts';

describe('stored record', () => {
  it('its JSON text is JSON.stringify of the record, and it reads back as the record', () => {
    for (const record of generateWebsites(500, 7)) {
      const stored = storedRecord(record);
      expect(recordJson(stored)).toBe(JSON.stringify(answeredRecord(record)));
      expect(recordFromStored(stored)).toEqual(record);
    }
  });

  it('keeps any text a field holds, control characters and separators included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-composite' }), (a, b) => {
        const record = { ...completed('x.gov', 'x.gov'), title: a, target_url_bureau_owner: b, dap_parameters_final_url: { [a]: b } } as WebsiteRecord;
        expect(JSON.parse(recordJson(storedRecord(record)))).toEqual(JSON.parse(JSON.stringify(answeredRecord(record))));
      }),
    );
  });

  it('answers as the API does: an empty list as null, a "false" string as false, a non-number as null', () => {
    const record = { ...completed('x.gov', 'x.gov'), ds_usa_class_list: [], final_url_same_domain: 'false', ds_count: 'many' } as unknown as WebsiteRecord;
    const answered = JSON.parse(recordJson(storedRecord(record)));
    expect(answered.ds_usa_class_list).toBeNull();
    expect(answered.final_url_same_domain).toBe(false);
    expect(answered.ds_count).toBeNull();
    expect(Object.keys(answered)).toEqual(ANSWERED_FIELDS.map(([name]) => name));
  });

  it('makes the robots.txt and sitemap.xml checks from the stored fields, as docs/api/differences.md says', () => {
    const site = (robotsUrl: string | null, robotsStatus: number | null, sitemapUrl: string | null, sitemapStatus: number | null) =>
      ({
        ...completed('x.gov', 'x.gov'),
        robots_txt_final_url: robotsUrl,
        robots_txt_final_url_status_code: robotsStatus,
        sitemap_xml_final_url: sitemapUrl,
        sitemap_xml_final_url_status_code: sitemapStatus,
      }) as WebsiteRecord;
    // One page: a record's checks read its own fields, never the previous record's.
    const page = JSON.parse(
      `[${recordsJson(
        [
          site('https://x.gov/robots.txt', 200, 'http://x.gov/sitemap.xml', 299),
          site('https://www.x.gov/robots.txt', 404, 'https://x.gov/sitemap.xml?x', 300),
          site(null, null, 'https://X.gov/sitemap.xml', 199),
          site(null, null, null, null),
        ].map(storedRecord),
      )}]`,
    ) as Record<string, unknown>[];
    expect(
      page.map((r) => [r.robots_txt_final_url_live, r.robots_txt_target_url_redirects, r.sitemap_xml_final_url_live, r.sitemap_xml_target_url_redirects]),
    ).toEqual([
      [true, false, true, false],
      [false, true, false, true],
      [null, null, false, true],
      [null, null, null, null],
    ]);
  });

  it('makes the checks from the values, whatever their escapes in the stored text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.boolean(), fc.integer({ min: 100, max: 599 }), (host, same, status) => {
        const record = {
          ...completed('x.gov', 'x.gov'),
          target_url: host,
          robots_txt_final_url: same ? `https://${host}/robots.txt` : `https://${host}/robots.txt/`,
          robots_txt_final_url_status_code: status,
        } as WebsiteRecord;
        const answer = JSON.parse(recordJson(storedRecord(record)));
        expect(answer.robots_txt_target_url_redirects).toBe(!same);
        expect(answer.robots_txt_final_url_live).toBe(status >= 200 && status < 300);
      }),
    );
  });

  it('refuses a text of another field count', () => {
    expect(() => recordJson('"a"\u0001"b"')).toThrow(/2 fields/);
  });
});
