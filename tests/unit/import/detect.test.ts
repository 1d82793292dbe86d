import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../dataset/import/formats.ts';
import { ImportError } from '../../../dataset/import/errors.ts';
import { fixtureText } from './helpers.ts';

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof ImportError ? error.code : 'other';
  }
}

describe('detectFormat', () => {
  it.each([
    ['websites-current.csv', 'websites-csv', 'websites'],
    ['websites-previous.csv', 'websites-csv', 'websites'],
    ['websites-snapshot.json', 'websites-json', 'websites'],
    ['ceilingrates-export.csv', 'ceilingrates-csv', 'ceilingrates'],
    ['ceilingrates-2016.csv', 'ceilingrates-csv', 'ceilingrates'],
    ['ceilingrates-s70.csv', 'ceilingrates-csv', 'ceilingrates'],
    ['ceilingrates-pages.json', 'ceilingrates-json', 'ceilingrates'],
    ['ceilingrates-page.json', 'ceilingrates-json', 'ceilingrates'],
  ])('%s is %s', (name, format, dataset) => {
    const found = detectFormat(fixtureText(name), name);
    expect(found.format).toBe(format);
    expect(found.dataset).toBe(dataset);
  });

  it('finds the export header after its metadata rows, from the first bytes only', () => {
    const head = fixtureText('ceilingrates-export.csv').slice(0, 400);
    expect(detectFormat(head).format).toBe('ceilingrates-csv');
  });

  it('accepts a saved /websites page and a bare array of ceiling-rate records', () => {
    expect(detectFormat('{"items":[{"target_url":"a.gov"}],"meta":{}}').format).toBe('websites-json');
    expect(detectFormat('[{"id":1,"labor_category":"Analyst"}]').format).toBe('ceilingrates-json');
  });

  it.each([
    ['prose', fixtureText('wrong-format.txt'), ''],
    ['other JSON', fixtureText('wrong-format.json'), ''],
    ['the data dictionary CSV', 'name,field id,description,data type\nName,name,The domain,string\n', ''],
    ['an empty file', '', ''],
    ['a workbook', 'PK\u0003\u0004\u0014\u0000', 'prices.xlsx'],
    ['a PDF', '%PDF-1.7\n', ''],
  ])('rejects %s as wrong-format with a message', (_what, head, name) => {
    expect(codeOf(() => detectFormat(head, name))).toBe('wrong-format');
    expect(() => detectFormat(head, name)).toThrow(/Accepted files: .*Nothing was changed/);
  });

  it('lets the name decide for JSON with no telling keys (an empty array)', () => {
    expect(detectFormat('[]', 'site-scanning-latest.json').format).toBe('websites-json');
    expect(detectFormat('[ ]', 'ceilingrates-page-3.json').format).toBe('ceilingrates-json');
    expect(codeOf(() => detectFormat('[]', 'data.json'))).toBe('wrong-format');
  });

  it('names the workbook problem', () => {
    expect(() => detectFormat('PK\u0003\u0004', 'rates.xlsx')).toThrow(/save it as CSV/);
  });
});
