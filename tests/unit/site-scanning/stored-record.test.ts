/** The stored record text: what every Site Scanning answer is made of, byte for byte the record's JSON. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateWebsites } from '../../../tools/generate/websites.ts';
import { WEBSITE_FIELDS, type WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { recordFromStored, recordJson, storedRecord } from '../../../engine/site-scanning/stored-record.ts';
import { completed } from './fixtures.ts';

describe('stored record', () => {
  it('its JSON text is JSON.stringify of the record, and it reads back as the record', () => {
    for (const record of generateWebsites(500, 7)) {
      const stored = storedRecord(record);
      expect(recordJson(stored)).toBe(JSON.stringify(record));
      expect(recordFromStored(stored)).toEqual(record);
    }
  });

  it('keeps any text a field holds, control characters and separators included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-composite' }), (a, b) => {
        const record = { ...completed('x.gov', 'x.gov'), title: a, target_url_bureau_owner: b, dap_parameters_final_url: { [a]: b } } as WebsiteRecord;
        expect(JSON.parse(recordJson(storedRecord(record)))).toEqual(JSON.parse(JSON.stringify(record)));
      }),
    );
  });

  it('answers as the API does: an empty list as null, a "false" string as false, a non-number as null', () => {
    const record = { ...completed('x.gov', 'x.gov'), ds_usa_class_list: [], final_url_same_domain: 'false', ds_count: 'many' } as unknown as WebsiteRecord;
    const answered = JSON.parse(recordJson(storedRecord(record)));
    expect(answered.ds_usa_class_list).toBeNull();
    expect(answered.final_url_same_domain).toBe(false);
    expect(answered.ds_count).toBeNull();
    expect(Object.keys(answered)).toEqual(WEBSITE_FIELDS.map(([name]) => name));
  });

  it('refuses a text of another field count', () => {
    expect(() => recordJson('"a"\u0001"b"')).toThrow(/2 fields/);
  });
});
